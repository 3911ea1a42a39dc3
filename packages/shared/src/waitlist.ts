import { z } from 'zod';

/** The waitlist's rules (docs/product.md#waitlist). */
export const WAITLIST_RULES = {
  /** A freed slot is held for the first in line this long; then it goes to the next. */
  offerMinutes: 30,
  /** At most this many waits at once per user. */
  maxEntries: 5,
  /** A window ends at most this many days ahead (the days the booking dialog offers). */
  daysAhead: 14,
} as const;

export const WAITLIST_MSG = {
  joined: 'You are on the waitlist. If a time in this window opens up, it is held for you for 30 minutes and we e-mail you.',
  left: 'You left the waitlist',
  notFound: 'Waitlist entry not found',
  tooMany: `You are waiting for ${WAITLIST_RULES.maxEntries} times already; leave one of them first`,
  already: 'You are on this trainer’s waitlist for that time already',
  windowOrder: 'The window must end after it starts, and be at least one hour long',
  windowPast: 'Choose a window that has not passed',
  windowFar: `Choose a window within the next ${WAITLIST_RULES.daysAhead} days`,
} as const;

const ISO = z.iso.datetime({ offset: true, error: 'Choose a date and time' });

/** POST /api/waitlist: wait for any one-hour slot of the trainer starting at or after `from` and ending by `to`. */
export const ZJoinWaitlistRequest = z.object({
  trainerId: z.string({ error: 'Choose a trainer' }).min(1, 'Choose a trainer'),
  from: ISO,
  to: ISO,
});
export type TJoinWaitlistRequest = z.input<typeof ZJoinWaitlistRequest>;

export const WAITLIST_STATUSES = [
  /** in line */
  'waiting',
  /** a freed slot is held for the user (`offer`) until `offer.holdExpiresAt`: pay for it as for any hold */
  'offered',
  /** the user paid for an offered slot */
  'booked',
] as const;

export const ZWaitlistEntry = z.object({
  _id: z.string(),
  trainerId: z.string(),
  trainerFirstName: z.string(),
  trainerLastName: z.string(),
  from: z.string(),
  to: z.string(),
  createdAt: z.string(),
  status: z.enum(WAITLIST_STATUSES),
  /** The slot held for the user (a pending booking), while it is held or once paid. */
  offer: z.object({ bookingId: z.string(), startsAt: z.string(), holdExpiresAt: z.string().nullable() }).nullable(),
});
export type TWaitlistEntry = z.infer<typeof ZWaitlistEntry>;

export const ZWaitlistEntryResponse = z.object({ message: z.string(), entry: ZWaitlistEntry });
export const ZWaitlistResponse = z.object({ entries: z.array(ZWaitlistEntry) });
export const ZWaitlistLeaveResponse = z.object({ message: z.string() });
