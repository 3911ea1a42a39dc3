import type { z } from 'zod';
import {
  BOOKING_MSG,
  BOOKING_RULES,
  PACKAGE_MSG,
  PLATFORM_FEE_PERCENT,
  SERVER_MSG,
  type TBooking,
  type ZCreateBookingRequest,
} from '@spotter/shared';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { percentOf } from '../../lib/money';
import type { Caller } from '../../plugins/auth';
import { account, balance, post, type Posting } from '../money';
import { BOOKING_JOBS, enqueueBookingMails, runBookingMails } from './booking-jobs';
import { toBooking } from './booking-view';
import * as bookingsRepo from './bookings.repo';
import { announceBooking, requireUser, type BookingsContext } from './context';
import * as repo from './packages.repo';
import { redemptionOf } from './packages';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** What a session paid from a balance moves: the balance pays the trainer's share and the fee. */
function redeemEntries(b: { id: string; trainerId: string; currency: string }, cents: number): Posting[] {
  const fee = percentOf(cents, PLATFORM_FEE_PERCENT);
  return [
    { account: account.balance(b.id), amountCents: -cents, currency: b.currency },
    { account: account.trainerPending(b.trainerId), amountCents: cents - fee, currency: b.currency },
    { account: account.fees, amountCents: fee, currency: b.currency },
  ];
}

/** The jobs of a confirmed session: the reminders 24 h before and the completion (as settle-order.ts confirms one). */
async function sessionJobs(ctx: BookingsContext, tx: Tx, bookingId: string, startsAt: Date, endsAt: Date, at: Date) {
  const remindAt = new Date(startsAt.getTime() - BOOKING_RULES.reminderHours * HOUR);
  if (remindAt > at)
    for (const to of ['user', 'trainer'] as const)
      await ctx.jobs.enqueue(tx, {
        kind: BOOKING_JOBS.mail,
        runAt: remindAt,
        payload: { bookingId, kind: 'reminder', to, startsAt: startsAt.toISOString() },
      });
  await ctx.jobs.enqueue(tx, { kind: BOOKING_JOBS.complete, runAt: endsAt, payload: { bookingId } });
}

/**
 * Books a free slot paid at once from the user's package balance with the trainer
 * (docs/product.md#packages): no hold and no checkout. The balance row is locked, so concurrent
 * bookings against it take its sessions one at a time and none takes what is not there; the session
 * takes an equal part of what is left (`redemptionOf`), moved by the ledger's `redeem` to the
 * trainer's pending share and the fee, in the transaction that confirms the session.
 */
export async function bookFromBalance(
  ctx: BookingsContext,
  { caller, input }: { caller: Caller | undefined; input: z.output<typeof ZCreateBookingRequest> },
): Promise<TBooking> {
  const { db, availability } = ctx;
  const user = requireUser(caller);
  if (!(await bookingsRepo.isVerifiedAccount(db, user.id))) throw new AppError('EMAIL_NOT_VERIFIED', BOOKING_MSG.verifyToBook);
  const trainer = await availability.findBookableTrainer(input.trainerId);
  if (!trainer) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
  const at = ctx.now();
  const startsAt = new Date(input.startsAt);
  const rule = await availability.slotRule(trainer.id, startsAt, at);
  const notASlot = () => new AppError('VALIDATION_FAILED', BOOKING_MSG.notASlot, { startsAt: BOOKING_MSG.notASlot });
  if (!rule.scheduled) throw notASlot();
  const endsAt = new Date(startsAt.getTime() + BOOKING_RULES.sessionMinutes * MINUTE);

  const { id, mailJobs } = await db.transaction(async (tx) => {
    const open = await repo.openBalanceOf(tx, user.id, trainer.id, true);
    if (!open || open.status !== 'active') throw new AppError('CONFLICT', PACKAGE_MSG.noBalance);
    if (open.expiresAt && open.expiresAt <= at) throw new AppError('CONFLICT', PACKAGE_MSG.balanceExpired);
    if (open.sessionsLeft <= 0) throw new AppError('CONFLICT', PACKAGE_MSG.balanceUsedUp);
    const left = await balance(tx, account.balance(open.id), open.currency);
    const cents = redemptionOf(left, open.sessionsLeft);
    if (cents <= 0) throw new AppError('CONFLICT', PACKAGE_MSG.balanceUsedUp);
    await bookingsRepo.expireLapsedHoldAt(tx, trainer.id, startsAt, at);
    if (rule.bufferMinutes > 0) {
      await bookingsRepo.lockAccount(tx, trainer.id);
      const near = await bookingsRepo.hasLiveSessionNear(tx, {
        trainerId: trainer.id,
        from: new Date(startsAt.getTime() - rule.bufferMinutes * MINUTE),
        until: new Date(endsAt.getTime() + rule.bufferMinutes * MINUTE),
        except: startsAt,
        now: at,
      });
      if (near) throw notASlot();
    }
    const bookingId = await bookingsRepo.insertPaidFromBalance(tx, {
      trainerId: trainer.id,
      userId: user.id,
      startsAt,
      endsAt,
      priceCents: cents,
      location: rule.location,
      balanceId: open.id,
      now: at,
    });
    if (!bookingId) throw new AppError('SLOT_TAKEN', BOOKING_MSG.slotTaken);
    await post(tx, {
      key: `redeem:${bookingId}`,
      kind: 'redeem',
      bookingId,
      userId: user.id,
      trainerId: trainer.id,
      provider: open.provider,
      providerOrderId: open.providerOrderId,
      memo: 'a session paid from a package',
      at,
      entries: redeemEntries(open, cents),
    });
    await repo.setBalanceState(tx, open.id, { sessionsLeft: open.sessionsLeft - 1 });
    await announceBooking(ctx, tx, { id: bookingId, userId: user.id, trainerId: trainer.id });
    await sessionJobs(ctx, tx, bookingId, startsAt, endsAt, at);
    return { id: bookingId, mailJobs: await enqueueBookingMails(ctx, tx, bookingId, 'confirmed') };
  });
  await runBookingMails(ctx, mailJobs);
  return toBooking((await bookingsRepo.findBooking(db, id))!, ctx.now(), 'user');
}

/**
 * A session paid from a balance is cancelled (its user more than 24 hours ahead, its trainer any
 * time before it starts): what it took goes back to the balance (`unredeem`, the exact reverse of
 * its `redeem`) with its session, and the booking is cancelled with the mails. False when it was no
 * longer confirmed.
 */
export async function returnToBalance(
  ctx: BookingsContext,
  { row, by, reason }: { row: bookingsRepo.BookingRow; by: 'user' | 'trainer'; reason?: string | null },
): Promise<boolean> {
  const balanceId = row.balanceId!;
  const at = ctx.now();
  const mailJobs = await ctx.db.transaction(async (tx) => {
    const open = await repo.lockBalance(tx, balanceId);
    if (!open) return undefined;
    if (
      !(await bookingsRepo.changeStatus(tx, row.id, 'confirmed', 'cancelled', at, {
        cancelledBy: by,
        cancelReason: reason ?? null,
      }))
    )
      return undefined;
    const back = redeemEntries(open, row.priceCents).map((e) => ({ ...e, amountCents: -e.amountCents }));
    await post(tx, {
      key: `unredeem:${row.id}`,
      kind: 'unredeem',
      bookingId: row.id,
      userId: row.userId,
      trainerId: row.trainerId,
      provider: open.provider,
      providerOrderId: open.providerOrderId,
      memo: `cancelled by ${by}`,
      at,
      entries: back,
    });
    // a balance whose rest was refunded meanwhile holds this session's money again: it can pay or be refunded
    await repo.setBalanceState(tx, open.id, {
      sessionsLeft: Math.min(open.sessions, open.sessionsLeft + 1),
      ...(open.status === 'closed' ? { status: 'active' as const } : {}),
    });
    await announceBooking(ctx, tx, row);
    return enqueueBookingMails(ctx, tx, row.id, 'cancelled', { toBalance: true });
  });
  if (!mailJobs) return false;
  await runBookingMails(ctx, mailJobs);
  return true;
}
