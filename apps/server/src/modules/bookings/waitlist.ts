import type { z } from 'zod';
import {
  BOOKING_MSG,
  SERVER_MSG,
  WAITLIST_MSG,
  WAITLIST_RULES,
  type TWaitlistEntry,
  type ZJoinWaitlistRequest,
} from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import type { Caller } from '../../plugins/auth';
import * as bookingsRepo from './bookings.repo';
import { requireUser, type BookingsContext } from './context';
import * as repo from './waitlist.repo';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

/** A wait as its user sees it: in line, offered a held slot, or booked (docs/product.md#waitlist). */
function toEntry(row: repo.WaitlistRow, at: Date): TWaitlistEntry {
  const held = row.offerStatus === 'pending' && row.offerHoldExpiresAt !== null && row.offerHoldExpiresAt > at;
  const paid = row.offerStatus === 'confirmed' || row.offerStatus === 'completed' || row.offerStatus === 'no-show';
  return {
    _id: row.id,
    trainerId: row.trainerId,
    trainerFirstName: row.trainerFirstName,
    trainerLastName: row.trainerLastName,
    from: row.from.toISOString(),
    to: row.to.toISOString(),
    createdAt: row.createdAt.toISOString(),
    status: held ? 'offered' : paid ? 'booked' : 'waiting',
    offer:
      (held || paid) && row.offerBookingId && row.offerStartsAt
        ? {
            bookingId: row.offerBookingId,
            startsAt: row.offerStartsAt.toISOString(),
            holdExpiresAt: held ? row.offerHoldExpiresAt!.toISOString() : null,
          }
        : null,
  };
}

/**
 * A user joins a trainer's waitlist for a window of time: any one-hour slot in it that is freed
 * (cancelled, released, run out, moved away) is held for them (offer-freed-slot.ts).
 */
export async function joinWaitlist(
  ctx: BookingsContext,
  { caller, input }: { caller: Caller | undefined; input: z.output<typeof ZJoinWaitlistRequest> },
): Promise<{ message: string; entry: TWaitlistEntry }> {
  const { db, availability } = ctx;
  const user = requireUser(caller);
  if (!(await bookingsRepo.isVerifiedAccount(db, user.id))) throw new AppError('EMAIL_NOT_VERIFIED', BOOKING_MSG.verifyToBook);
  const trainer = await availability.findBookableTrainer(input.trainerId);
  if (!trainer || trainer.priceCents === null) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
  const at = ctx.now();
  const from = new Date(input.from);
  const to = new Date(input.to);
  const field = (key: 'from' | 'to', message: string) => new AppError('VALIDATION_FAILED', message, { [key]: message });
  if (to.getTime() - from.getTime() < HOUR) throw field('to', WAITLIST_MSG.windowOrder);
  if (to.getTime() - HOUR < at.getTime()) throw field('to', WAITLIST_MSG.windowPast);
  if (from.getTime() > at.getTime() + WAITLIST_RULES.daysAhead * DAY) throw field('from', WAITLIST_MSG.windowFar);
  const id = await db.transaction(async (tx) => {
    // one user's joins one at a time, so the cap and the overlap hold under concurrent requests
    await bookingsRepo.lockAccount(tx, user.id);
    if ((await repo.countWaiting(tx, user.id, at)) >= WAITLIST_RULES.maxEntries)
      throw new AppError('CONFLICT', WAITLIST_MSG.tooMany);
    if (await repo.hasOverlapping(tx, { userId: user.id, trainerId: trainer.id, from, to }))
      throw new AppError('CONFLICT', WAITLIST_MSG.already);
    return repo.insertEntry(tx, { userId: user.id, trainerId: trainer.id, from, to, now: at });
  });
  const [row] = await repo.listEntriesOf(db, user.id, at, id);
  return { message: WAITLIST_MSG.joined, entry: toEntry(row, at) };
}

/** The caller's waits whose window has not passed, oldest first. */
export async function listWaitlist(ctx: BookingsContext, { caller }: { caller: Caller | undefined }) {
  const user = requireUser(caller);
  const at = ctx.now();
  return { entries: (await repo.listEntriesOf(ctx.db, user.id, at)).map((r) => toEntry(r, at)) };
}

/** The caller leaves a wait; a slot already held for them stays theirs (cancel it like any hold). */
export async function leaveWaitlist(ctx: BookingsContext, { caller, id }: { caller: Caller | undefined; id: string }) {
  const user = requireUser(caller);
  if (!(await repo.removeEntry(ctx.db, id, user.id, ctx.now()))) throw new AppError('NOT_FOUND', WAITLIST_MSG.notFound);
  return { message: WAITLIST_MSG.left };
}
