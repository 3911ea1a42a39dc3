import type { z } from 'zod';
import { BOOKING_MSG, BOOKING_RULES, PACKAGE_MSG, SERVER_MSG, type TBooking, type ZCreateBookingRequest } from '@spotter/shared';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Caller } from '../../plugins/auth';
import { account, balance, post } from '../money';
import { BOOKING_JOBS, enqueueBookingMails, queueResaleRefunds, runBookingMails } from './booking-jobs';
import { toBooking } from './booking-view';
import * as bookingsRepo from './bookings.repo';
import { redeemEntries } from './redeem';
import { announceBooking, requireUser, type BookingsContext } from './context';
import * as repo from './packages.repo';
import { redemptionOf, refundWholeBalance } from './packages';
import { hasOwnRefunds, refundRestOfSession } from './refund-balance-session';
import { lockOrderRefunds } from './payments.repo';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The jobs of a confirmed session: the reminders 24 h before and the completion (as settle-order.ts confirms one). */
export async function sessionJobs(ctx: BookingsContext, tx: Tx, bookingId: string, startsAt: Date, endsAt: Date, at: Date) {
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

/** The user's active balance with the trainer, locked; 409 in the product's words when there is none to use. */
export async function lockedBalance(tx: Tx, userId: string, trainerId: string, at: Date) {
  const open = await repo.openBalanceOf(tx, userId, trainerId, true);
  if (!open || open.status !== 'active') throw new AppError('CONFLICT', PACKAGE_MSG.noBalance);
  if (open.expiresAt && open.expiresAt <= at) throw new AppError('CONFLICT', PACKAGE_MSG.balanceExpired);
  if (open.sessionsLeft <= 0) throw new AppError('CONFLICT', PACKAGE_MSG.balanceUsedUp);
  return open;
}

type SlotRule = Awaited<ReturnType<BookingsContext['availability']['slotRule']>>;

/**
 * In the caller's transaction, with the balance row locked: one session at `startsAt` confirmed and
 * paid from the balance (`redeem`), its jobs and mails queued and both sides told; or why not.
 */
export async function takeSession(
  ctx: BookingsContext,
  tx: Tx,
  s: { open: repo.BalanceRow; userId: string; startsAt: Date; rule: SlotRule; at: Date; seriesId: string | null },
): Promise<{ bookingId: string; mailJobs: number[] } | 'taken' | 'not-offered' | 'no-balance-left'> {
  const { open, startsAt, rule, at } = s;
  const fresh = (await repo.findBalance(tx, open.id))!;
  if (fresh.sessionsLeft <= 0) return 'no-balance-left';
  const left = await balance(tx, account.balance(open.id), open.currency);
  const cents = redemptionOf(left, fresh.sessionsLeft);
  if (cents <= 0) return 'no-balance-left';
  if (!rule.scheduled) return 'not-offered';
  const endsAt = new Date(startsAt.getTime() + BOOKING_RULES.sessionMinutes * MINUTE);
  await bookingsRepo.expireLapsedHoldAt(tx, open.trainerId, startsAt, at);
  if (rule.bufferMinutes > 0) {
    await bookingsRepo.lockAccount(tx, open.trainerId);
    const near = await bookingsRepo.hasLiveSessionNear(tx, {
      trainerId: open.trainerId,
      from: new Date(startsAt.getTime() - rule.bufferMinutes * MINUTE),
      until: new Date(endsAt.getTime() + rule.bufferMinutes * MINUTE),
      except: startsAt,
      now: at,
    });
    // within the buffer of another live session: not one of the times the trainer offers
    if (near) return 'not-offered';
  }
  const bookingId = await bookingsRepo.insertPaidFromBalance(tx, {
    trainerId: open.trainerId,
    userId: s.userId,
    startsAt,
    endsAt,
    priceCents: cents,
    location: rule.location,
    balanceId: open.id,
    seriesId: s.seriesId,
    now: at,
  });
  if (!bookingId) return 'taken';
  await post(tx, {
    key: `redeem:${bookingId}`,
    kind: 'redeem',
    bookingId,
    userId: s.userId,
    trainerId: open.trainerId,
    provider: open.provider,
    providerOrderId: open.providerOrderId,
    memo: s.seriesId ? 'a weekly session paid from a package' : 'a session paid from a package',
    at,
    entries: redeemEntries(open, cents),
  });
  await repo.setBalanceState(tx, open.id, { sessionsLeft: fresh.sessionsLeft - 1 });
  await announceBooking(ctx, tx, { id: bookingId, userId: s.userId, trainerId: open.trainerId });
  await sessionJobs(ctx, tx, bookingId, startsAt, endsAt, at);
  const mailJobs = await enqueueBookingMails(ctx, tx, bookingId, 'confirmed');
  mailJobs.push(...(await queueResaleRefunds(ctx, tx, { trainerId: open.trainerId, startsAt, bookingId })));
  return { bookingId, mailJobs };
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

  const { id, mailJobs } = await db.transaction(async (tx) => {
    const open = await lockedBalance(tx, user.id, trainer.id, at);
    const taken = await takeSession(ctx, tx, { open, userId: user.id, startsAt, rule, at, seriesId: null });
    if (taken === 'no-balance-left') throw new AppError('CONFLICT', PACKAGE_MSG.balanceUsedUp);
    if (taken === 'not-offered') throw notASlot();
    if (taken === 'taken') throw new AppError('SLOT_TAKEN', BOOKING_MSG.slotTaken);
    return { id: taken.bookingId, mailJobs: taken.mailJobs };
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
): Promise<'balance' | 'refunded' | false> {
  const balanceId = row.balanceId!;
  const at = ctx.now();
  const order = await repo.findBalance(ctx.db, balanceId);
  if (!order) return false;
  const mailJobs = await ctx.db.transaction(async (tx) => {
    // the order's refunds first (as refunds of it take it), then the balance: an operator's refund of
    // this session written at the same moment is seen here, or sees this cancellation
    if (order.provider && order.providerOrderId) await lockOrderRefunds(tx, order.provider, order.providerOrderId);
    // refunded, or being refunded, in part or whole by an operator: the rest goes to the card as well,
    // never the whole price back to the balance (docs/decisions/054-refunds-of-sessions-paid-from-a-balance.md)
    if (await hasOwnRefunds(tx, row.id)) return 'to-card' as const;
    const open = await repo.lockBalance(tx, balanceId);
    if (!open) return undefined;
    // a balance closed meanwhile (its rest refunded, or its end date passed) is not opened again:
    // the part is refunded through the provider just after (below); a newer balance stays the only open one.
    // A weekly series' payment by card is closed from its capture on: its part goes back to the card
    // (one being refunded already refunds it in turn when that refund is done: refunds.ts). Refunded
    // to the card, the session is `refunded`, as one paid on its own is.
    const toCard = open.status === 'closed' || open.kind === 'series';
    if (
      !(await bookingsRepo.changeStatus(tx, row.id, 'confirmed', toCard ? 'refunded' : 'cancelled', at, {
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
    if (!toCard) await repo.setBalanceState(tx, open.id, { sessionsLeft: Math.min(open.sessions, open.sessionsLeft + 1) });
    await announceBooking(ctx, tx, row);
    return {
      toCard,
      jobs: await enqueueBookingMails(ctx, tx, row.id, 'cancelled', toCard ? { refunded: true } : { toBalance: true }),
    };
  });
  if (mailJobs === 'to-card') return refundRestOfSession(ctx, { row, by, reason });
  if (!mailJobs) return false;
  await runBookingMails(ctx, mailJobs.jobs);
  if (mailJobs.toCard)
    await refundWholeBalance(ctx, balanceId).catch((err) =>
      ctx.log.error({ err, balanceId }, 'refund of a cancelled session’s part of a closed balance failed; its job retries'),
    );
  return mailJobs.toCard ? 'refunded' : 'balance';
}
