import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import {
  BOOKING_MSG,
  BOOKING_RULES,
  isId,
  ROLE_MSG,
  SERVER_MSG,
  type TBooking,
  type ZCreateBookingRequest,
} from '@spotter/shared';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { JobRunner } from '../../platform/jobs';
import { fromCents } from '../../lib/money';
import type { Caller } from '../../plugins/auth';
import type { AvailabilityService } from './availability.service';
import type { Mailer } from '../mail';
import { FORMER_MEMBER } from '../accounts';
import { BOOKING_JOBS, type MailJob } from './booking-jobs';
import { bookingMail } from './booking-mails';
import * as repo from './bookings.repo';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const JOB = BOOKING_JOBS;

const HOLD_COOLDOWN_MS = BOOKING_RULES.holdCooldownMinutes * MINUTE;

/** 409 HOLD_COOLDOWN: the user's own hold on the slot ended too recently; the route sends `Retry-After`. */
export class HoldCooldown extends AppError {
  readonly retryAfterSeconds: number;
  constructor(waitMs: number) {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    super('HOLD_COOLDOWN', BOOKING_MSG.holdCooldown(Math.ceil(seconds / 60)));
    this.retryAfterSeconds = seconds;
  }
}

/** How long a job enqueued for this process to run at once is kept from the pollers. */
const RUN_NOW_CLAIM_MS = 2 * MINUTE;

/** What a booking looks like to the caller, with the status as of `now`. */
function toBooking(row: repo.BookingRow, now: Date): TBooking {
  const lapsed = row.status === 'pending' && (!row.holdExpiresAt || row.holdExpiresAt <= now);
  const over = row.status === 'confirmed' && row.endsAt <= now;
  const status = lapsed ? 'expired' : over ? 'completed' : row.status;
  const isRefundable = status === 'confirmed' && row.startsAt.getTime() - now.getTime() > BOOKING_RULES.cancelHours * HOUR;
  const trainerGone = row.trainerDeletedAt !== null;
  const userGone = row.userDeletedAt !== null;
  return {
    _id: row.id,
    trainerId: row.trainerId,
    userId: row.userId,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    status,
    price: fromCents(row.priceCents),
    currency: row.currency,
    holdExpiresAt: status === 'pending' && row.holdExpiresAt ? row.holdExpiresAt.toISOString() : null,
    trainerFirstName: trainerGone ? FORMER_MEMBER.firstName : row.trainerFirstName,
    trainerLastName: trainerGone ? FORMER_MEMBER.lastName : row.trainerLastName,
    userFirstName: userGone ? FORMER_MEMBER.firstName : row.userFirstName,
    userLastName: userGone ? FORMER_MEMBER.lastName : row.userLastName,
    canCancel: status === 'pending' || isRefundable,
    isRefundable,
  };
}

/**
 * When a list of bookings shown at `at` changes by itself, without a write (ms; undefined: never):
 * a hold runs out (the booking leaves the list), a session ends (completed, and no longer
 * upcoming), the cancellation deadline passes (no longer refundable).
 */
export function nextChangeOf(list: readonly TBooking[], at: Date): number | undefined {
  let next = Infinity;
  const consider = (t: number) => {
    if (t > at.getTime() && t < next) next = t;
  };
  for (const b of list) {
    consider(Date.parse(b.endsAt));
    if (b.status === 'pending' && b.holdExpiresAt) consider(Date.parse(b.holdExpiresAt));
    if (b.status === 'confirmed') consider(Date.parse(b.startsAt) - BOOKING_RULES.cancelHours * HOUR);
  }
  return next === Infinity ? undefined : next;
}

type BookingsDeps = {
  db: Db;
  availability: AvailabilityService;
  jobs: JobRunner;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
  now?: () => Date;
};

export function createBookingsService({ db, availability, jobs, mailer, publicUrl, log, now = () => new Date() }: BookingsDeps) {
  /** Sends one side of a booking its mail; skipped for a deleted account or a reminder of a session no longer on. */
  async function sendBookingMail(job: MailJob, at: Date) {
    const row = await repo.findBooking(db, job.bookingId);
    if (!row) return;
    if (job.kind === 'reminder' && (row.status !== 'confirmed' || row.startsAt <= at)) return;
    const toUser = job.to === 'user';
    if (toUser ? row.userDeletedAt : row.trainerDeletedAt) return;
    const { timeZone } = await availability.availabilityOf(row.trainerId);
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
        link: `${publicUrl}/${job.to}/profile`,
        now: at,
      }),
    );
  }

  jobs.register(JOB.mail, async (payload, { now: at }) => sendBookingMail(payload, at));
  jobs.register(JOB.expireHold, async ({ bookingId }, { now: at }) => {
    await repo.changeStatus(db, bookingId, 'pending', 'expired', at, { requireLapsedHold: true });
  });
  jobs.register(JOB.complete, async ({ bookingId }, { now: at }) => {
    const row = await repo.findBooking(db, bookingId);
    if (!row || row.status !== 'confirmed' || row.endsAt > at) return;
    // the user's review of the trainer now shows a verified session
    await repo.changeStatus(db, row.id, 'confirmed', 'completed', at);
  });

  /** Mails to both sides, enqueued in the caller's transaction; run with `runMails` after the commit. */
  async function enqueueMails(tx: Tx, bookingId: string, kind: 'confirmed' | 'cancelled', extra: { refunded?: boolean } = {}) {
    const ids: number[] = [];
    for (const to of ['user', 'trainer'] as const) {
      ids.push(
        await jobs.enqueue(tx, {
          kind: JOB.mail,
          runAt: now(),
          payload: { bookingId, kind, to, ...extra },
          claimFor: RUN_NOW_CLAIM_MS,
        }),
      );
    }
    return ids;
  }

  /** Runs mail jobs right away; a failure leaves them to the poller's retries. */
  async function runMails(ids: number[]) {
    for (const id of ids) {
      await jobs.runClaimed(id).catch((err) => log.error({ err, job: id }, 'booking mail failed'));
    }
  }

  return {
    /** A user holds a free slot for BOOKING_RULES.holdMinutes while paying for it. */
    async createBooking(caller: Caller | undefined, input: z.output<typeof ZCreateBookingRequest>): Promise<TBooking> {
      if (!caller) throw new AppError('UNAUTHENTICATED', ROLE_MSG.loginToBook);
      if (caller.role !== 'user') throw new AppError('FORBIDDEN_ROLE', ROLE_MSG.trainersCantBook);
      if (!(await repo.isVerifiedAccount(db, caller.id))) throw new AppError('EMAIL_NOT_VERIFIED', BOOKING_MSG.verifyToBook);
      const trainer = await availability.findBookableTrainer(input.trainerId);
      if (!trainer || trainer.priceCents === null) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
      const at = now();
      const startsAt = new Date(input.startsAt);
      if (!(await availability.isScheduledSlot(trainer.id, startsAt, at))) {
        throw new AppError('VALIDATION_FAILED', BOOKING_MSG.notASlot, { startsAt: BOOKING_MSG.notASlot });
      }
      const holdExpiresAt = new Date(at.getTime() + BOOKING_RULES.holdMinutes * MINUTE);
      const id = await db.transaction(async (tx) => {
        await repo.lockAccount(tx, caller.id);
        if ((await repo.countLiveHolds(tx, caller.id, at)) >= BOOKING_RULES.maxPendingHolds)
          throw new AppError('TOO_MANY_HOLDS', BOOKING_MSG.tooManyHolds);
        // the user's own hold on this slot ended a moment ago: not again yet (the account lock above
        // also serialises `releaseHold`, so a release racing this hold is seen or sees this hold)
        const endedAt = await repo.lastHoldEndedAt(tx, {
          userId: caller.id,
          trainerId: trainer.id,
          startsAt,
          since: new Date(at.getTime() - HOLD_COOLDOWN_MS),
          now: at,
        });
        if (endedAt) throw new HoldCooldown(endedAt.getTime() + HOLD_COOLDOWN_MS - at.getTime());
        await repo.expireLapsedHoldAt(tx, trainer.id, startsAt, at);
        const bookingId = await repo.insertHold(tx, {
          trainerId: trainer.id,
          userId: caller.id,
          startsAt,
          endsAt: new Date(startsAt.getTime() + BOOKING_RULES.sessionMinutes * MINUTE),
          priceCents: trainer.priceCents!,
          holdExpiresAt,
          now: at,
        });
        if (!bookingId) throw new AppError('SLOT_TAKEN', BOOKING_MSG.slotTaken);
        await jobs.enqueue(tx, { kind: JOB.expireHold, runAt: holdExpiresAt, payload: { bookingId } });
        return bookingId;
      });
      return toBooking((await repo.findBooking(db, id))!, at);
    },

    async listBookings(caller: Caller): Promise<TBooking[]> {
      const at = now();
      return (await repo.listBookingsOf(db, caller, at)).map((r) => toBooking(r, at));
    },

    async listUpcomingConfirmed(caller: Caller): Promise<TBooking[]> {
      const at = now();
      return (await repo.listUpcomingConfirmed(db, caller, at)).map((r) => toBooking(r, at));
    },

    /** The booking (its id validated by the route) if the caller is its user or its trainer; 404 for anyone else. */
    async bookingOf(caller: Caller, id: string): Promise<repo.BookingRow> {
      const row = await repo.findBooking(db, id);
      if (!row || (row.userId !== caller.id && row.trainerId !== caller.id))
        throw new AppError('NOT_FOUND', BOOKING_MSG.notFound);
      return row;
    },

    /** By an id from a body (an order's booking), where anything that is not an id names nothing. */
    findBooking: (id: string) => (isId(id) ? repo.findBooking(db, id) : Promise.resolve(undefined)),
    findBookingByOrder: (orderId: string) => repo.findBookingByOrder(db, orderId),
    attachOrder: (id: string, values: Parameters<typeof repo.attachOrder>[2]) => repo.attachOrder(db, id, values),
    extendLiveHold: (id: string, until: Date) => repo.extendLiveHold(db, id, until, now()),
    findBookableTrainer: (id: string) => availability.findBookableTrainer(id),

    /** A new hold expiry when an order extends the hold. */
    async scheduleHoldExpiry(bookingId: string, at: Date) {
      await jobs.enqueue(db, { kind: JOB.expireHold, runAt: at, payload: { bookingId } });
    },

    /**
     * pending → confirmed inside the payment's transaction, with its mails and jobs: the
     * confirmations (run at once after the commit), the reminders 24 h before and the completion.
     */
    async confirmInTransaction(tx: Tx, row: repo.BookingRow): Promise<{ confirmed: boolean; mailJobs: number[] }> {
      const at = now();
      if (!(await repo.confirmBooking(tx, row.id, at))) return { confirmed: false, mailJobs: [] };
      const mailJobs = await enqueueMails(tx, row.id, 'confirmed');
      const remindAt = new Date(row.startsAt.getTime() - BOOKING_RULES.reminderHours * HOUR);
      // a session booked for the next 24 hours gets no reminder: its confirmation is just out
      if (remindAt > at) {
        for (const to of ['user', 'trainer'] as const) {
          await jobs.enqueue(tx, { kind: JOB.mail, runAt: remindAt, payload: { bookingId: row.id, kind: 'reminder', to } });
        }
      }
      await jobs.enqueue(tx, { kind: JOB.complete, runAt: row.endsAt, payload: { bookingId: row.id } });
      return { confirmed: true, mailJobs };
    },

    /**
     * An unpaid hold is released; false when it was no longer pending. Under its user's account
     * lock, as `createBooking` is, so a hold of the same slot racing it sees the release.
     */
    async releaseHold(row: Pick<repo.BookingRow, 'id' | 'userId'>): Promise<boolean> {
      return db.transaction(async (tx) => {
        await repo.lockAccount(tx, row.userId);
        return repo.changeStatus(tx, row.id, 'pending', 'cancelled', now());
      });
    },

    /** confirmed → refunded inside the refund's transaction, with the cancellation mails. */
    async refundInTransaction(tx: Tx, id: string): Promise<{ changed: boolean; mailJobs: number[] }> {
      if (!(await repo.changeStatus(tx, id, 'confirmed', 'refunded', now()))) return { changed: false, mailJobs: [] };
      return { changed: true, mailJobs: await enqueueMails(tx, id, 'cancelled', { refunded: true }) };
    },

    runMails,

    toBooking: (row: repo.BookingRow) => toBooking(row, now()),

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
