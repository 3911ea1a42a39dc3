import { z } from 'zod';
import { defineJob } from '../../platform/jobs';

const bookingId = z.string().min(1);

/** The bookings module's durable jobs and their payloads (platform/jobs.ts parses each before it runs). */
export const BOOKING_JOBS = {
  /** A hold whose time is up is expired, unless an order restarted it. */
  expireHold: defineJob('booking.expire-hold', z.object({ bookingId })),
  /** A paid session that is over becomes completed (its user's review then shows a verified session). */
  complete: defineJob('booking.complete', z.object({ bookingId })),
  /** One side's mail about a booking: confirmed and cancelled at once, the reminder a day before. */
  mail: defineJob(
    'booking.mail',
    z.object({
      bookingId,
      kind: z.enum(['confirmed', 'reminder', 'cancelled']),
      to: z.enum(['user', 'trainer']),
      refunded: z.boolean().optional(),
    }),
  ),
};

export type MailJob = z.output<typeof BOOKING_JOBS.mail.payload>;
