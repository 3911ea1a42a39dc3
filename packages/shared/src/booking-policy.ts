import { CURRENT_POLICY } from './disputes';

/**
 * The words every place that states a session's time or cancellation policy uses (the booking
 * dialog, the confirmation, the session card, both mails and the `.ics`), so they never disagree
 * (docs/product.md#booking-and-payment).
 */

const HOUR = 60 * 60_000;

/** 'Cairo' for Africa/Cairo, 'New York' for America/New_York, 'UTC' for UTC. */
export function zoneCity(timeZone: string): string {
  return (timeZone.split('/').at(-1) ?? timeZone).replaceAll('_', ' ');
}

/** 'GMT+2', 'GMT-4', 'GMT+5:30' or 'GMT': the zone's offset at that instant. */
export function zoneOffset(timeZone: string, at: Date): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'shortOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? 'GMT';
}

/** 'Cairo time, GMT+2': a zone as people read it, at that instant (the offset changes with daylight saving). */
export function zoneLabel(timeZone: string, at: Date): string {
  return `${zoneCity(timeZone)} time, ${zoneOffset(timeZone, at)}`;
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
/** 'Mon 30 Nov, 07:00' in the zone (24-hour clock). */
export function formatDateTimeIn(at: Date | string, timeZone: string): string {
  let f = dateTimeFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    dateTimeFormats.set(timeZone, f);
  }
  const parts = f.formatToParts(typeof at === 'string' ? new Date(at) : at);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('weekday')} ${get('day')} ${get('month')}, ${get('hour')}:${get('minute')}`;
}

/**
 * Until when a session starting at `startsAt` can be cancelled by its user for a full refund: `cancelHours`
 * before, its own frozen policy's (`TBooking.policy`), or today's for a session not booked yet.
 */
export function cancellationDeadline(startsAt: Date | string, cancelHours: number = CURRENT_POLICY.cancelHours): Date {
  return new Date(new Date(startsAt).getTime() - cancelHours * HOUR);
}

/**
 * The policy of a session as stated before paying and after: 'Free cancellation until Mon 30 Nov,
 * 07:00 (Cairo time)' while the deadline is ahead, 'Starts in less than 24 hours: not refundable'
 * once it is not (with the session's own `cancelHours`; today's for a session not booked yet).
 */
export function cancellationPolicy({
  startsAt,
  now,
  timeZone,
  cancelHours = CURRENT_POLICY.cancelHours,
}: {
  startsAt: Date | string;
  now: Date;
  timeZone: string;
  cancelHours?: number;
}): {
  refundable: boolean;
  /** ISO, or null when the deadline has passed. */
  until: string | null;
  text: string;
} {
  const deadline = cancellationDeadline(startsAt, cancelHours);
  if (deadline.getTime() <= now.getTime()) {
    return { refundable: false, until: null, text: `Starts in less than ${cancelHours} hours: not refundable` };
  }
  return {
    refundable: true,
    until: deadline.toISOString(),
    text: `Free cancellation until ${formatDateTimeIn(deadline, timeZone)} (${zoneCity(timeZone)} time)`,
  };
}
