import { z } from 'zod';
import type { Tx } from '../../db/client';
import { defineJob } from '../../platform/jobs';
import { releasedAt } from './bookings.repo';
import type { BookingsContext } from './context';

const bookingId = z.string().min(1);

/** The bookings module's durable jobs and their payloads (platform/jobs.ts parses each before it runs). */
export const BOOKING_JOBS = {
  /** A hold whose time is up is expired, unless an order restarted it. */
  expireHold: defineJob('booking.expire-hold', z.object({ bookingId })),
  /** A paid session that is over becomes completed (its user's review then shows a verified session). */
  complete: defineJob('booking.complete', z.object({ bookingId })),
  /** One side's mail about a booking: confirmed, moved and cancelled at once, the reminder a day before. */
  mail: defineJob(
    'booking.mail',
    z.object({
      bookingId,
      kind: z.enum(['confirmed', 'reminder', 'cancelled', 'moved', 'offered', 'refunded']),
      to: z.enum(['user', 'trainer']),
      refunded: z.boolean().optional(),
      /** A cancelled session paid from a package: its value went back to the balance. */
      toBalance: z.boolean().optional(),
      /** A reminder: the start it reminds of (a session moved since is reminded of by its new jobs). */
      startsAt: z.string().optional(),
      /** A move: the session's start before it. */
      from: z.string().optional(),
      /** An operator's refund (docs/product.md#refunds-by-operators): how much, why, and whether it cancelled the session. */
      refundCents: z.number().int().positive().optional(),
      reason: z.string().max(500).optional(),
      cancelled: z.boolean().optional(),
    }),
  ),
};

/**
 * A slot was freed where somebody waits for a time of its trainer: offered to the first in line.
 * Queued by the database (migration 0017's trigger on bookings) whoever freed the slot.
 */
export const WAITLIST_OFFER_JOB = defineJob('booking.waitlist-offer', z.object({ trainerId: z.string(), startsAt: z.string() }));

/** A package balance's end (docs/product.md#packages): the reminder 14 days before, the expiry on the day. */
export const PACKAGE_JOBS = {
  remind: defineJob('booking.package-expiry-reminder', z.object({ balanceId: z.string() })),
  expire: defineJob('booking.package-expire', z.object({ balanceId: z.string() })),
  /** What a closed balance holds (a weekly series' week taken back in part) is refunded to the card. */
  refundClosed: defineJob('booking.balance-refund', z.object({ balanceId: z.string() }), { retries: 'until-done' }),
};

/** A late session released for resale (docs/product.md#releasing-a-late-session). */
export const RELEASE_JOBS = {
  /** Somebody else booked its slot: its user is refunded in full (once: the refund's key). */
  refund: defineJob('booking.refund-released', z.object({ bookingId }), { retries: 'until-done' }),
  /** The people who favourited its trainer are told the time opened up. */
  tellFavourites: defineJob('booking.released-offer', z.object({ bookingId })),
};

/**
 * Somebody just booked this slot: a released session of it is refunded, by a job queued in the
 * booking's transaction (run at once after the commit, with `runBookingMails`; retried if that fails).
 */
export async function queueResaleRefunds(
  ctx: Pick<BookingsContext, 'jobs' | 'now'>,
  tx: Tx,
  slot: { trainerId: string; startsAt: Date; bookingId: string },
): Promise<number[]> {
  const ids: number[] = [];
  for (const released of await releasedAt(tx, slot.trainerId, slot.startsAt, slot.bookingId))
    ids.push(
      await ctx.jobs.enqueue(tx, {
        kind: RELEASE_JOBS.refund,
        runAt: ctx.now(),
        payload: { bookingId: released },
        claimFor: RUN_NOW_CLAIM_MS,
      }),
    );
  return ids;
}

export type MailJob = z.output<typeof BOOKING_JOBS.mail.payload>;

/** How long a job enqueued for this process to run at once is kept from the pollers. */
export const RUN_NOW_CLAIM_MS = 2 * 60_000;

/** Mails to both sides, enqueued in the caller's transaction; run with `runBookingMails` after the commit. */
export async function enqueueBookingMails(
  ctx: Pick<BookingsContext, 'jobs' | 'now'>,
  tx: Tx,
  bookingId: string,
  kind: 'confirmed' | 'cancelled' | 'moved' | 'refunded',
  extra: {
    refunded?: boolean;
    from?: string;
    toBalance?: boolean;
    refundCents?: number;
    reason?: string;
    cancelled?: boolean;
  } = {},
): Promise<number[]> {
  const ids: number[] = [];
  for (const to of ['user', 'trainer'] as const) {
    ids.push(
      await ctx.jobs.enqueue(tx, {
        kind: BOOKING_JOBS.mail,
        runAt: ctx.now(),
        payload: { bookingId, kind, to, ...extra },
        claimFor: RUN_NOW_CLAIM_MS,
      }),
    );
  }
  return ids;
}

/** Runs mail jobs right away; a failure leaves them to the poller's retries. */
export async function runBookingMails(ctx: Pick<BookingsContext, 'jobs' | 'log'>, ids: number[]): Promise<void> {
  for (const id of ids) {
    await ctx.jobs.runClaimed(id).catch((err) => ctx.log.error({ err, job: id }, 'booking mail failed'));
  }
}
