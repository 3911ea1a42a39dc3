import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  BOOKING_MSG,
  BOOKING_RULES,
  isId,
  PAYMENT_MSG,
  SERVER_MSG,
  type TCaptureResponse,
  type TOrderResponse,
  type TSeriesResponse,
  type ZCreateBookingRequest,
} from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import { centsToDecimalString } from '../../lib/money';
import type { Caller } from '../../plugins/auth';
import { account, post, type ProviderCapture } from '../money';
import { lockedBalance, sessionJobs, takeSession } from './book-from-balance';
import { BOOKING_JOBS, enqueueBookingMails, queueResaleRefunds, runBookingMails } from './booking-jobs';
import { plainName } from './booking-mails';
import { toBooking } from './booking-view';
import * as bookingsRepo from './bookings.repo';
import { announceBooking, providerOf, requireUser, type BookingsContext } from './context';
import { refundWholeBalance, refundWholePurchase } from './packages';
import * as repo from './packages.repo';
import { capturePurchase, checkProviderOrder } from './payment-jobs';
import * as paymentsRepo from './payments.repo';
import { redeemEntries } from './redeem';
import { sameLocalTimeWeeksLater } from './slots';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const HOLD_COOLDOWN_MS = BOOKING_RULES.holdCooldownMinutes * MINUTE;
/** An order restarts the holds for this long, but a hold never outlives its booking by more than HOLD_CAP_MS (as create-order.ts). */
const HOLD_CAP_MS = 30 * MINUTE;
/** A capture in progress keeps the holds this long, past any provider timeout (as capture-order.ts). */
const CAPTURE_HOLD_MS = 5 * MINUTE;

type SeriesInput = z.output<typeof ZCreateBookingRequest> & { weeks: number };
type Unavailable = TSeriesResponse['unavailable'];

const notASlot = () => new AppError('VALIDATION_FAILED', BOOKING_MSG.notASlot, { startsAt: BOOKING_MSG.notASlot });

/**
 * The weeks of a series from its first start: the same weekday and local hour in the trainer's zone
 * (undefined where that hour does not exist that day), each with its slot rule. The first week must be
 * a time the booking dialog offers now (400 otherwise); later ones are looked up beyond its 14 days.
 */
async function weeksOf(ctx: BookingsContext, trainerId: string, input: SeriesInput, at: Date) {
  const first = new Date(input.startsAt);
  const firstRule = await ctx.availability.slotRule(trainerId, first, at);
  if (!firstRule.scheduled) throw notASlot();
  const horizon = input.weeks * 7 + 1;
  return Promise.all(
    Array.from({ length: input.weeks }, async (_, k) => {
      const t = sameLocalTimeWeeksLater(first.getTime(), k, firstRule.timeZone);
      const startsAt = t === undefined ? undefined : new Date(t);
      return {
        startsAt,
        iso: new Date(t ?? first.getTime() + k * 7 * DAY).toISOString(),
        rule: startsAt ? await ctx.availability.slotRule(trainerId, startsAt, at, horizon) : undefined,
      };
    }),
  );
}

async function seriesAnswer(ctx: BookingsContext, userId: string, seriesId: string, ids: string[], unavailable: Unavailable) {
  const now = ctx.now();
  const rows = await bookingsRepo.seriesBookingsOf(ctx.db, seriesId, userId);
  return { seriesId, bookings: rows.filter((r) => ids.includes(r.id)).map((r) => toBooking(r, now, 'user')), unavailable };
}

/**
 * A standing weekly series paid from the user's package balance with the trainer
 * (docs/product.md#standing-weekly-sessions), in one transaction with the balance locked: the weeks
 * that are free are booked at once (each its own session, cancelled or moved on its own); those that
 * are not (taken, not among the trainer's hours that day, or past what the balance pays for) are
 * answered with why.
 */
export async function bookSeries(
  ctx: BookingsContext,
  { caller, input }: { caller: Caller | undefined; input: SeriesInput },
): Promise<TSeriesResponse> {
  const { db, availability } = ctx;
  const user = requireUser(caller);
  if (!(await bookingsRepo.isVerifiedAccount(db, user.id))) throw new AppError('EMAIL_NOT_VERIFIED', BOOKING_MSG.verifyToBook);
  const trainer = await availability.findBookableTrainer(input.trainerId);
  if (!trainer) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
  const at = ctx.now();
  const weeks = await weeksOf(ctx, trainer.id, input, at);
  const seriesId = randomUUID();
  const { ids, mailJobs, unavailable } = await db.transaction(async (tx) => {
    const open = await lockedBalance(tx, user.id, trainer.id, at);
    const ids: string[] = [];
    const mailJobs: number[] = [];
    const unavailable: Unavailable = [];
    for (const w of weeks) {
      if (!w.startsAt || !w.rule) {
        unavailable.push({ startsAt: w.iso, reason: 'not-offered' });
        continue;
      }
      const taken = await takeSession(ctx, tx, { open, userId: user.id, startsAt: w.startsAt, rule: w.rule, at, seriesId });
      if (typeof taken === 'string') unavailable.push({ startsAt: w.iso, reason: taken });
      else {
        ids.push(taken.bookingId);
        mailJobs.push(...taken.mailJobs);
      }
    }
    if (!ids.length) throw new AppError('SLOT_TAKEN', BOOKING_MSG.seriesNoneFree);
    return { ids, mailJobs, unavailable };
  });
  await runBookingMails(ctx, mailJobs);
  return seriesAnswer(ctx, user.id, seriesId, ids, unavailable);
}

/**
 * A standing weekly series paid by card (docs/product.md#standing-weekly-sessions): each free week
 * is held for the user, as one slot is while they pay, and the weeks that are not free are listed,
 * before anything is paid. The held weeks are paid together with `POST /api/orders { seriesId }`;
 * they count as one of the user's holds.
 */
export async function holdSeries(
  ctx: BookingsContext,
  { caller, input }: { caller: Caller | undefined; input: SeriesInput },
): Promise<TSeriesResponse> {
  const { db, availability, jobs } = ctx;
  const user = requireUser(caller);
  if (!(await bookingsRepo.isVerifiedAccount(db, user.id))) throw new AppError('EMAIL_NOT_VERIFIED', BOOKING_MSG.verifyToBook);
  const trainer = await availability.findBookableTrainer(input.trainerId);
  if (!trainer || trainer.priceCents === null) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
  const priceCents = trainer.priceCents;
  const at = ctx.now();
  const weeks = await weeksOf(ctx, trainer.id, input, at);
  const seriesId = randomUUID();
  const holdExpiresAt = new Date(at.getTime() + BOOKING_RULES.holdMinutes * MINUTE);
  const { ids, unavailable } = await db.transaction(async (tx) => {
    await bookingsRepo.lockAccount(tx, user.id);
    if ((await bookingsRepo.countLiveHolds(tx, user.id, at)) >= BOOKING_RULES.maxPendingHolds)
      throw new AppError('TOO_MANY_HOLDS', BOOKING_MSG.tooManyHolds);
    const ids: string[] = [];
    const unavailable: Unavailable = [];
    for (const w of weeks) {
      const startsAt = w.startsAt;
      if (!startsAt || !w.rule?.scheduled) {
        unavailable.push({ startsAt: w.iso, reason: 'not-offered' });
        continue;
      }
      const endsAt = new Date(startsAt.getTime() + BOOKING_RULES.sessionMinutes * MINUTE);
      // the user's own hold on this slot ended a moment ago: not theirs again yet (hold-slot.ts)
      const endedAt = await bookingsRepo.lastHoldEndedAt(tx, {
        userId: user.id,
        trainerId: trainer.id,
        startsAt,
        since: new Date(at.getTime() - HOLD_COOLDOWN_MS),
        now: at,
      });
      if (endedAt) {
        unavailable.push({ startsAt: w.iso, reason: 'taken' });
        continue;
      }
      await bookingsRepo.expireLapsedHoldAt(tx, trainer.id, startsAt, at);
      if (w.rule.bufferMinutes > 0) {
        await bookingsRepo.lockAccount(tx, trainer.id);
        const near = await bookingsRepo.hasLiveSessionNear(tx, {
          trainerId: trainer.id,
          from: new Date(startsAt.getTime() - w.rule.bufferMinutes * MINUTE),
          until: new Date(endsAt.getTime() + w.rule.bufferMinutes * MINUTE),
          except: startsAt,
          now: at,
        });
        if (near) {
          unavailable.push({ startsAt: w.iso, reason: 'not-offered' });
          continue;
        }
      }
      const id = await bookingsRepo.insertHold(tx, {
        trainerId: trainer.id,
        userId: user.id,
        startsAt,
        endsAt,
        priceCents,
        location: w.rule.location,
        holdExpiresAt,
        seriesId,
        now: at,
      });
      if (!id) {
        unavailable.push({ startsAt: w.iso, reason: 'taken' });
        continue;
      }
      await jobs.enqueue(tx, { kind: BOOKING_JOBS.expireHold, runAt: holdExpiresAt, payload: { bookingId: id } });
      ids.push(id);
    }
    if (!ids.length) throw new AppError('SLOT_TAKEN', BOOKING_MSG.seriesNoneFree);
    return { ids, unavailable };
  });
  return seriesAnswer(ctx, user.id, seriesId, ids, unavailable);
}

/** The series' weeks still held: their holds moved to `until` (and their expiry with them); how many were. */
async function extendHolds(ctx: BookingsContext, rows: bookingsRepo.BookingRow[], until: Date, at: Date): Promise<number> {
  let alive = 0;
  for (const r of rows) {
    if (r.status !== 'pending' || !r.holdExpiresAt || r.holdExpiresAt <= at) continue;
    if (!(await bookingsRepo.extendLiveHold(ctx.db, r.id, until, at))) continue;
    alive++;
    if (until > r.holdExpiresAt)
      await ctx.jobs.enqueue(ctx.db, { kind: BOOKING_JOBS.expireHold, runAt: until, payload: { bookingId: r.id } });
  }
  return alive;
}

/**
 * One order for the caller's held weeks of a weekly series, for the prices frozen when they were held
 * (docs/product.md#standing-weekly-sessions); asking again answers the same order. Its payment is a
 * `series` balance that the capture spends on the weeks.
 */
export async function createSeriesOrder(
  ctx: BookingsContext,
  { caller, seriesId }: { caller: Caller | undefined; seriesId: string },
): Promise<TOrderResponse> {
  const { db, provider } = ctx;
  const user = requireUser(caller);
  const rows = isId(seriesId) ? await bookingsRepo.seriesBookingsOf(db, seriesId, user.id) : [];
  if (!rows.length) throw new AppError('NOT_FOUND', BOOKING_MSG.seriesNotFound);
  const at = ctx.now();
  const held = rows.filter((r) => r.status === 'pending' && r.holdExpiresAt && r.holdExpiresAt > at);
  if (!held.length) {
    if (rows.some((r) => r.status === 'confirmed' || r.status === 'completed'))
      throw new AppError('ALREADY_PAID', BOOKING_MSG.alreadyPaid);
    throw new AppError('HOLD_EXPIRED', BOOKING_MSG.seriesNotHeld);
  }
  const trainer = await ctx.availability.findBookableTrainer(held[0].trainerId);
  if (!trainer) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
  const heldSince = Math.min(...held.map((r) => r.createdAt.getTime()));
  const holdUntil = new Date(Math.min(at.getTime() + BOOKING_RULES.holdMinutes * MINUTE, heldSince + HOLD_CAP_MS));
  const currency = held[0].currency;

  // one order per series: its payment found or written under the user's lock, with the weeks it pays
  // for marked as its own; asking again (at once, too) answers the same order, since the provider's
  // request id is the payment's (weeks no longer held when it is captured are refunded then)
  const purchase = await db.transaction(async (tx) => {
    await bookingsRepo.lockAccount(tx, user.id);
    const pending = await repo.findPendingSeriesPurchase(tx, seriesId, user.id);
    if (pending) return pending;
    const stillHeld = (await bookingsRepo.seriesBookingsOf(tx, seriesId, user.id)).filter(
      (r) => r.status === 'pending' && r.holdExpiresAt && r.holdExpiresAt > at,
    );
    if (!stillHeld.length) throw new AppError('HOLD_EXPIRED', BOOKING_MSG.seriesNotHeld);
    const id = await repo.insertSeriesPurchase(tx, {
      userId: user.id,
      trainerId: trainer.id,
      seriesId,
      sessions: stillHeld.length,
      priceCents: stillHeld.reduce((sum, r) => sum + r.priceCents, 0),
      currency,
      now: at,
    });
    await bookingsRepo.markHeldFor(
      tx,
      stillHeld.map((r) => r.id),
      id,
    );
    return (await repo.findBalance(tx, id))!;
  });
  await extendHolds(ctx, held, holdUntil, at);
  const amount = { currency_code: purchase.currency, value: centsToDecimalString(purchase.priceCents) };
  if (purchase.providerOrderId) return { id: purchase.providerOrderId, status: 'CREATED', amount };
  const order = await provider.createOrder({
    requestId: `spotter-series-${purchase.id}`,
    amountCents: purchase.priceCents,
    currency: purchase.currency,
    description: `Spotter: ${purchase.sessions} weekly sessions with ${plainName(`${held[0].trainerFirstName} ${held[0].trainerLastName}`)}`,
    referenceId: purchase.id,
  });
  await repo.attachPurchaseOrder(db, purchase.id, provider.name, order.id);
  const attached = (await repo.findBalance(db, purchase.id))!;
  return { id: attached.providerOrderId ?? order.id, status: order.status, amount };
}

/**
 * A series' capture the provider completed, from the capture call or the reconciliation job, recorded
 * once: for the order's own amount and currency the money goes to the series' balance (`package`),
 * and each week still held is confirmed and paid from it at its price (`redeem`), with its jobs and
 * mails, in one transaction; the balance is closed. What weeks no longer held leave is refunded at
 * once; another amount or currency is refunded in full.
 */
async function settleSeries(
  ctx: BookingsContext,
  row: repo.BalanceRow,
  { orderId, result, via }: { orderId: string; result: ProviderCapture; via: 'capture' | 'check' | 'webhook' },
): Promise<'paid' | 'mismatch'> {
  const p = providerOf(ctx, row.provider);
  const capture = result.capture!;
  const currency = capture.currency ?? row.currency;
  const amountCents = capture.amountCents ?? (p.name === 'demo' ? row.priceCents : undefined);
  if (amountCents === undefined || amountCents !== row.priceCents || currency !== row.currency) {
    await refundWholePurchase(ctx, row, { orderId, capture, via, amountCents, currency });
    return 'mismatch';
  }
  const at = ctx.now();
  const done = await ctx.db.transaction(async (tx) => {
    await bookingsRepo.lockAccount(tx, row.userId);
    const locked = await repo.lockBalance(tx, row.id);
    if (!locked || locked.status !== 'pending') return undefined;
    await post(tx, {
      key: `capture:${p.name}:${capture.id}`,
      kind: 'package',
      userId: row.userId,
      trainerId: row.trainerId,
      provider: p.name,
      providerOrderId: orderId,
      memo: `${row.sessions} weekly sessions`,
      at,
      entries: [
        { account: account.world(p.name), amountCents: -amountCents, currency },
        { account: account.balance(row.id), amountCents, currency },
      ],
    });
    await repo.settleBalance(tx, row.id, { captureId: capture.id, paidAt: at, expiresAt: null, sessions: row.sessions });
    let left = amountCents;
    const paid: string[] = [];
    const mailJobs: number[] = [];
    for (const h of await bookingsRepo.seriesBookingsOf(tx, row.seriesId!, row.userId)) {
      // only the weeks this order is for; one released, run out and taken, or started meanwhile is not
      // paid for: its part is refunded below
      if (h.status !== 'pending' || h.balanceId !== row.id || h.priceCents > left) continue;
      if (!(await bookingsRepo.confirmBooking(tx, h.id, at, { balanceId: row.id }))) continue;
      left -= h.priceCents;
      paid.push(h.id);
      await post(tx, {
        key: `redeem:${h.id}`,
        kind: 'redeem',
        bookingId: h.id,
        userId: row.userId,
        trainerId: row.trainerId,
        provider: p.name,
        providerOrderId: orderId,
        memo: 'a weekly session paid by card',
        at,
        entries: redeemEntries(row, h.priceCents),
      });
      await announceBooking(ctx, tx, h);
      await sessionJobs(ctx, tx, h.id, h.startsAt, h.endsAt, at);
      mailJobs.push(...(await enqueueBookingMails(ctx, tx, h.id, 'confirmed')));
      mailJobs.push(...(await queueResaleRefunds(ctx, tx, { trainerId: h.trainerId, startsAt: h.startsAt, bookingId: h.id })));
    }
    await repo.setBalanceState(tx, row.id, { status: 'closed', sessionsLeft: 0 });
    await paymentsRepo.recordPaymentEvent(tx, {
      kind: 'capture-settled',
      bookingId: null,
      provider: p.name,
      providerOrderId: orderId,
      details: { via, outcome: 'series', balanceId: row.id, captureId: capture.id, paid: paid.length, refunded: left },
      at,
    });
    return { left, mailJobs };
  });
  if (!done) return 'paid';
  await runBookingMails(ctx, done.mailJobs);
  if (done.left > 0)
    await refundWholeBalance(ctx, row.id).catch((err) =>
      ctx.log.error(
        { err, balanceId: row.id },
        'refund of the weeks a series’ payment could not pay for failed; its job retries',
      ),
    );
  return 'paid';
}

/** The capture answer of a series' order: its capture, and the series' sessions as they are now. */
async function captureAnswer(ctx: BookingsContext, row: repo.BalanceRow, orderId: string): Promise<TCaptureResponse> {
  const fresh = (await repo.findBalance(ctx.db, row.id))!;
  const now = ctx.now();
  const rows = await bookingsRepo.seriesBookingsOf(ctx.db, row.seriesId!, row.userId);
  const paid = await repo.weeksPaidBy(ctx.db, row.id);
  // money that paid for no week (its holds ran out and were taken, the trainer left) was refunded: say so
  if (!paid.size) throw new AppError('BOOKING_CLOSED', PAYMENT_MSG.lateCaptureRefunded);
  return {
    id: orderId,
    status: 'COMPLETED',
    purchase_units: [
      {
        reference_id: row.id,
        payments: {
          captures: fresh.captureId
            ? [
                {
                  id: fresh.captureId,
                  status: 'COMPLETED',
                  amount: { currency_code: fresh.currency, value: centsToDecimalString(fresh.priceCents) },
                },
              ]
            : [],
        },
      },
    ],
    bookings: rows.filter((r) => paid.has(r.id)).map((r) => toBooking(r, now, 'user')),
  };
}

/**
 * Captures the caller's order of a weekly series (capture-order.ts hands it over): the weeks still
 * held stay so during the capture; a second capture answers the sessions as they are now and
 * charges nothing; an outcome not known is recorded and reconciled by the job
 * (docs/decisions/042-money-ledger.md#unknown-outcomes).
 */
export async function captureSeriesOrder(
  ctx: BookingsContext,
  { user, row, orderId }: { user: Caller; row: repo.BalanceRow; orderId: string },
): Promise<TCaptureResponse> {
  if (row.userId !== user.id) throw new AppError('FORBIDDEN', PAYMENT_MSG.orderNotFound);
  const p = providerOf(ctx, row.provider);
  if (row.status !== 'pending') {
    if (await paymentsRepo.hasPaymentEvent(ctx.db, p.name, orderId, 'capture-mismatch'))
      throw new AppError('PAYMENT_MISMATCH', PAYMENT_MSG.amountMismatch);
    return captureAnswer(ctx, row, orderId);
  }
  const at = ctx.now();
  const rows = (await bookingsRepo.seriesBookingsOf(ctx.db, row.seriesId!, user.id)).filter((r) => r.balanceId === row.id);
  // the weeks stay held through the capture, but captures the provider refuses never hold them past the cap
  const heldSince = Math.min(...rows.map((r) => r.createdAt.getTime()));
  const until = new Date(Math.min(at.getTime() + CAPTURE_HOLD_MS, heldSince + HOLD_CAP_MS + CAPTURE_HOLD_MS));
  if (!rows.length || !(await extendHolds(ctx, rows, until, at))) throw new AppError('HOLD_EXPIRED', BOOKING_MSG.seriesNotHeld);
  const captured = await capturePurchase(
    ctx,
    { id: row.id, provider: row.provider, details: { balanceId: row.id, seriesId: row.seriesId } },
    orderId,
  );
  if ('answer' in captured) return captured.answer;
  const result = captured.completed;
  if ((await settleSeries(ctx, row, { orderId, result, via: 'capture' })) === 'mismatch')
    throw new AppError('PAYMENT_MISMATCH', PAYMENT_MSG.amountMismatch);
  return captureAnswer(ctx, row, orderId);
}

/** The reconciliation job's part for a series order (capture-order.ts `checkOrder`). */
export async function checkSeriesOrder(
  ctx: BookingsContext,
  row: repo.BalanceRow,
  { provider, orderId }: { provider: 'paypal' | 'demo'; orderId: string },
) {
  if (row.status !== 'pending') return;
  await checkProviderOrder(ctx, { provider, orderId, bookingId: null, details: { balanceId: row.id } }, (result) =>
    settleSeries(ctx, row, { orderId, via: 'check', result }),
  );
}
