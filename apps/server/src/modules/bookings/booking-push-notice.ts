import type { TPushPayload } from '@spotter/shared';

/** A booking mail's kind as its Web Push kind (docs/product.md#notifications). */
const KIND_OF = {
  confirmed: 'booking',
  moved: 'booking',
  cancelled: 'booking',
  refunded: 'booking',
  reminder: 'reminder',
  offered: 'waitlist',
} as const;

/**
 * The notification that goes with one side's booking mail: short (a lock screen shows two lines),
 * the other person's name and the session's time in its time zone, and where to look.
 */
export function bookingPushNotice(input: {
  kind: keyof typeof KIND_OF;
  bookingId: string;
  to: 'user' | 'trainer';
  otherName: string;
  startsAt: Date;
  timeZone: string;
  trainerId: string;
}): TPushPayload {
  const when = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: input.timeZone,
  }).format(input.startsAt);
  const who = input.otherName.trim() || 'your trainer';
  const title = {
    confirmed: input.to === 'user' ? `Session with ${who} booked` : `${who} booked a session`,
    moved: `Session with ${who} moved`,
    cancelled: `Session with ${who} cancelled`,
    refunded: `Session with ${who} refunded`,
    reminder: `Session with ${who} soon`,
    offered: `A time with ${who} opened up`,
  }[input.kind];
  const body = {
    confirmed: when,
    moved: `Now ${when}`,
    cancelled: `It was ${when}`,
    refunded: `${when}: the money is on its way back`,
    reminder: `Starts ${when}`,
    offered: `${when} is held for you for a short while: pay to book it`,
  }[input.kind];
  return {
    kind: KIND_OF[input.kind],
    title,
    body,
    url: input.kind === 'offered' ? `/trainer/profile/${input.trainerId}` : `/${input.to}/profile`,
    tag: `booking-${input.bookingId}`,
  };
}
