import { DEFAULT_TIME_ZONE, isId, sessionPolicy, type TBooking } from '@spotter/shared';
import type { Db } from '../../db/client';
import type { JobRunner } from '../../platform/jobs';
import type { Caller } from '../../plugins/auth';
import type { Mailer } from '../mail';
import { FORMER_MEMBER } from '../accounts';
import { account, balance } from '../money';
import { favouritersOf } from '../favourites';
import { BOOKING_JOBS, PACKAGE_JOBS, RELEASE_JOBS, type MailJob } from './booking-jobs';
import { bookingMail, packageExpiryMail, timeOpenedMail } from './booking-mails';
import * as packagesRepo from './packages.repo';
import { toBooking } from './booking-view';
import type { PushNotify } from '../push';
import { bookingPushNotice } from './booking-push-notice';
import * as repo from './bookings.repo';

const JOB = BOOKING_JOBS;
/** At most this many people who favourited a trainer are told of one released time. */
const FAVOURITES_TOLD_MAX = 200;

type BookingsDeps = {
  db: Db;
  jobs: JobRunner;
  mailer: Mailer;
  publicUrl: string;
  now?: () => Date;
  /** The push module's: the booking mail's notification to that side's devices (docs/product.md#notifications). */
  notify?: PushNotify;
};

/**
 * The bookings' reads and durable jobs (hold expiry, completion, mails). The writes are use cases,
 * one per file (hold-slot.ts, create-order.ts, capture-order.ts, cancel-booking.ts…).
 */
export function createBookingsService({ db, jobs, mailer, publicUrl, now = () => new Date(), notify }: BookingsDeps) {
  /** Sends one side of a booking its mail; skipped for a deleted account or a reminder of a session no longer on. */
  async function sendBookingMail(job: MailJob, at: Date) {
    const row = await repo.findBooking(db, job.bookingId);
    if (!row) return;
    if (job.kind === 'reminder' && (row.status !== 'confirmed' || row.startsAt <= at)) return;
    // a reminder of a time the session was moved from (one queued before reminders named their
    // time: of any session moved since); the move queued the new time's reminders
    if (job.kind === 'reminder' && (job.startsAt ? Date.parse(job.startsAt) !== row.startsAt.getTime() : row.sequence > 0))
      return;
    // an offer from the waitlist that was paid, released or ran out meanwhile
    if (job.kind === 'offered' && (row.status !== 'pending' || !row.holdExpiresAt || row.holdExpiresAt <= at)) return;
    const toUser = job.to === 'user';
    if (toUser ? row.userDeletedAt : row.trainerDeletedAt) return;
    const timeZone = row.timeZone ?? DEFAULT_TIME_ZONE;
    await mailer.send(
      bookingMail({
        kind: job.kind,
        to: toUser
          ? { email: row.userEmail, firstName: row.userFirstName, role: 'user' }
          : { email: row.trainerEmail, firstName: row.trainerFirstName, role: 'trainer' },
        other: toUser
          ? {
              firstName: row.trainerDeletedAt ? FORMER_MEMBER.firstName : row.trainerFirstName,
              lastName: row.trainerDeletedAt ? FORMER_MEMBER.lastName : row.trainerLastName,
            }
          : {
              firstName: row.userDeletedAt ? FORMER_MEMBER.firstName : row.userFirstName,
              lastName: row.userDeletedAt ? FORMER_MEMBER.lastName : row.userLastName,
            },
        bookingId: row.id,
        startsAt: row.startsAt,
        endsAt: row.endsAt,
        timeZone,
        priceCents: row.priceCents,
        currency: row.currency,
        refunded: job.refunded,
        toBalance: job.toBalance,
        refundCents: job.refundCents,
        refundReason: job.reason,
        refundCancelled: job.cancelled,
        location: row.location ?? null,
        cancelHours: sessionPolicy(row.policy).cancelHours,
        movedFrom: job.from ? new Date(job.from) : undefined,
        sequence: row.sequence,
        cancelledBy: row.cancelledBy,
        cancelReason: row.cancelReason,
        holdExpiresAt: row.holdExpiresAt,
        // an offer is paid on the trainer's page ('Continue to payment'); the rest are in one's sessions
        link: job.kind === 'offered' ? `${publicUrl}/trainer/profile/${row.trainerId}` : `${publicUrl}/${job.to}/profile`,
        now: at,
      }),
    );
    // after the mail: a failed mail retries the job, which would queue the notification again
    await notify?.(
      db,
      toUser ? row.userId : row.trainerId,
      bookingPushNotice({
        kind: job.kind,
        bookingId: row.id,
        to: job.to,
        otherName: toUser
          ? row.trainerDeletedAt
            ? FORMER_MEMBER.firstName
            : row.trainerFirstName
          : row.userDeletedAt
            ? FORMER_MEMBER.firstName
            : row.userFirstName,
        startsAt: row.startsAt,
        timeZone,
        trainerId: row.trainerId,
      }),
    );
  }

  jobs.register(JOB.mail, async (payload, { now: at }) => sendBookingMail(payload, at));
  // a late session released for resale: the people who favourited its trainer are told (docs/product.md#releasing-a-late-session)
  jobs.register(RELEASE_JOBS.tellFavourites, async ({ bookingId }, { now: at }) => {
    const row = await repo.findBooking(db, bookingId);
    if (!row || row.status !== 'confirmed' || !row.releasedAt || row.startsAt <= at || row.trainerDeletedAt) return;
    for (const fan of await favouritersOf(db, row.trainerId, FAVOURITES_TOLD_MAX)) {
      if (fan.id === row.userId) continue;
      await mailer.send(
        timeOpenedMail({
          to: fan,
          trainer: { firstName: row.trainerFirstName, lastName: row.trainerLastName },
          startsAt: row.startsAt,
          timeZone: row.timeZone ?? DEFAULT_TIME_ZONE,
          priceCents: row.priceCents,
          link: `${publicUrl}/trainer/profile/${row.trainerId}`,
        }),
      );
    }
  });
  // a package balance ends in 14 days: its user is told what is left (docs/product.md#packages)
  jobs.register(PACKAGE_JOBS.remind, async ({ balanceId }, { now: at }) => {
    const b = await packagesRepo.findBalance(db, balanceId);
    if (!b || b.status !== 'active' || !b.expiresAt || b.expiresAt <= at) return;
    const left = await balance(db, account.balance(b.id), b.currency);
    const [user, trainer] = await Promise.all([repo.contactOf(db, b.userId), repo.contactOf(db, b.trainerId)]);
    if (left <= 0 || !user || user.deletedAt || !trainer) return;
    await mailer.send(
      packageExpiryMail({
        to: user,
        trainer,
        sessionsLeft: b.sessionsLeft,
        leftCents: left,
        expiresAt: b.expiresAt,
        timeZone: trainer.timeZone ?? DEFAULT_TIME_ZONE,
        link: `${publicUrl}/user/payments`,
      }),
    );
  });
  jobs.register(JOB.expireHold, async ({ bookingId }, { now: at }) => {
    await repo.changeStatus(db, bookingId, 'pending', 'expired', at, { requireLapsedHold: true });
  });
  jobs.register(JOB.complete, async ({ bookingId }, { now: at }) => {
    const row = await repo.findBooking(db, bookingId);
    if (!row || row.status !== 'confirmed' || row.endsAt > at) return;
    // the user's review of the trainer now shows a verified session
    await repo.changeStatus(db, row.id, 'confirmed', 'completed', at);
  });

  return {
    async listBookings(caller: Caller): Promise<TBooking[]> {
      const at = now();
      return (await repo.listBookingsOf(db, caller, at)).map((r) => toBooking(r, at, caller.role));
    },

    async listUpcomingConfirmed(caller: Caller): Promise<TBooking[]> {
      const at = now();
      return (await repo.listUpcomingConfirmed(db, caller, at)).map((r) => toBooking(r, at, caller.role));
    },

    /** The 'verified session' mark of a review (docs/product.md#reviews). */
    hasCompletedSession: (userId: string, trainerId: string) => hasCompletedSession(db, { userId, trainerId, now: now() }),
    /** The bookings clock (tests replace it): a read that marks sessions as over asks it for now. */
    now,
  };
}
export type BookingsService = ReturnType<typeof createBookingsService>;

/** Whether the user had a paid session with the trainer that has ended. */
export function hasCompletedSession(
  db: Db,
  { userId, trainerId, now = new Date() }: { userId: string; trainerId: string; now?: Date },
): Promise<boolean> {
  return isId(userId) && isId(trainerId) ? repo.hasCompletedSession(db, userId, trainerId, now) : Promise.resolve(false);
}
