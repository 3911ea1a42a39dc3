import { MONEY_MSG } from '@spotter/shared';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { fromCents } from '../../lib/money';
import { account, balance, hasTransaction, PaymentRejectedError, post, ProviderUnavailableError, type Posting } from '../money';
import * as sessionsRepo from './balance-sessions.repo';
import { enqueueBookingMails, runBookingMails } from './booking-jobs';
import * as bookingsRepo from './bookings.repo';
import { announceBooking, providerOf, type BookingsContext } from './context';
import { bookOutsideRefund, feePart, fitToWhatIsLeft } from './outside-refund';
import { PAYMENT_JOBS } from './payment-jobs';
import * as paymentsRepo from './payments.repo';

// Refunds of a session paid from a balance (a package, or a weekly series paid by card), by an
// operator or a dispute's decision, in full or in part
// (docs/decisions/054-refunds-of-sessions-paid-from-a-balance.md): the money goes back to the card
// through the capture of the balance that paid for it; it comes out of the session's own trainer
// share and fee in proportion (a share already paid out from the platform's losses), as a card
// session's part refund does; the balance itself (its money and its sessions left) is not touched.

type BalanceSession = sessionsRepo.BalanceSession;
type Cancellation = { cancelledBy?: 'user' | 'trainer'; cancelReason?: string | null };
type RefundOutcome = { state: 'completed'; changed: boolean } | { state: 'in-progress' };

/** The provider's refusals that say the money went back already (a refund made at the provider, outside Spotter). */
const GIVEN_BACK_ALREADY = new Set(['CAPTURE_FULLY_REFUNDED', 'REFUND_AMOUNT_EXCEEDED']);
/** A retry of a refund waits this long after it was written (the first call normally finishes it). */
const FINISH_AFTER_MS = 2 * 60_000;
const dollars = (cents: number) => `$${fromCents(cents).toFixed(2)}`;

/** The session paid from a balance, if the booking is one (its `redeem` in the ledger, its purchase captured). */
export const findBalanceSession = (ctx: Pick<BookingsContext, 'db'>, bookingId: string) =>
  sessionsRepo.findBalanceSession(ctx.db, bookingId);

/**
 * What of the session went back so far: `asked` (its refunds requested or completed), `given`
 * (completed); all of its price when it went back whole (cancelled back to its balance, or taken back
 * by money the provider gave back by itself). Its ceiling is its price less `asked`.
 */
export const refundsOfSession = (ctx: Pick<BookingsContext, 'db'>, s: BalanceSession) => sessionsRepo.refundsOfSession(ctx.db, s);

/**
 * Refunds `amountCents` of a session paid from a balance: in one transaction, under the lock of the
 * balance's order refunds, the ceiling checked again (its price less what was asked: 409 with nothing
 * left, 400 above it), the refund row written with its unique `key` (the caller's: a repeat writes
 * nothing) and the job that finishes it, and `withRow` (the audit entry, a dispute's decision); then the
 * provider is asked and the ledger written (`finishSessionRefund`).
 */
export async function refundBalanceSession(
  ctx: BookingsContext,
  r: { session: BalanceSession; amountCents: number | 'rest'; reason: string; key: string } & Cancellation,
  withRow?: (tx: Tx, row: paymentsRepo.RefundRow) => Promise<void>,
): Promise<RefundOutcome> {
  const { session: s } = r;
  const cancellation: Cancellation = { cancelledBy: r.cancelledBy, cancelReason: r.cancelReason };
  const written = await ctx.db.transaction(async (tx) => {
    await paymentsRepo.lockOrderRefunds(tx, s.provider, s.providerOrderId);
    const { asked } = await sessionsRepo.refundsOfSession(tx, s);
    const left = s.priceCents - asked;
    const existing = await paymentsRepo.findRefundByKey(tx, r.key);
    if (existing) return undefined;
    // 'rest' (a cancellation's): what is left now, under the lock; nothing left, nothing to write
    if (r.amountCents === 'rest' && left <= 0) return 'nothing' as const;
    const amountCents = r.amountCents === 'rest' ? left : r.amountCents;
    if (left <= 0) throw new AppError('CONFLICT', MONEY_MSG.nothingLeft);
    if (amountCents > left)
      throw new AppError('VALIDATION_FAILED', MONEY_MSG.tooMuch(dollars(left)), { amount: MONEY_MSG.tooMuch(dollars(left)) });
    const row = await paymentsRepo.insertRefund(tx, {
      key: r.key,
      bookingId: s.bookingId,
      provider: s.provider,
      providerOrderId: s.providerOrderId,
      captureId: s.captureId,
      amountCents,
      currency: s.currency,
      status: 'requested',
      reason: r.reason,
      createdAt: ctx.now(),
    });
    if (row) {
      await ctx.jobs.enqueue(tx, {
        kind: PAYMENT_JOBS.finishRefund,
        runAt: new Date(ctx.now().getTime() + FINISH_AFTER_MS),
        payload: {
          refundId: row.id,
          ...(cancellation.cancelledBy ? { cancelledBy: cancellation.cancelledBy } : {}),
          cancelReason: cancellation.cancelReason ?? null,
        },
      });
      if (withRow) await withRow(tx, row);
    }
    return row;
  });
  if (written === 'nothing') return { state: 'completed', changed: false };
  if (!written) {
    const existing = await paymentsRepo.findRefundByKey(ctx.db, r.key);
    return existing?.status === 'completed' ? { state: 'completed', changed: false } : { state: 'in-progress' };
  }
  return finishSessionRefund(ctx, written, cancellation);
}

/**
 * A session paid from a balance and refunded in part before is cancelled by its user or trainer
 * (book-from-balance.ts `returnToBalance`): what is left of its price goes to the card too, not back
 * to the balance (the balance's equal parts stay equal), and the session is `refunded`. False when
 * nothing is left (it went back whole meanwhile).
 */
export async function refundRestOfSession(
  ctx: BookingsContext,
  { row, by, reason }: { row: { id: string }; by: 'user' | 'trainer'; reason?: string | null },
): Promise<'refunded' | false> {
  const s = await sessionsRepo.findBalanceSession(ctx.db, row.id);
  if (!s || s.status !== 'confirmed') return false;
  try {
    await refundBalanceSession(ctx, {
      session: s,
      // what is left, read under the order's refunds lock: an operator's refund at the same moment is counted
      amountCents: 'rest',
      reason: `cancelled by ${by}`,
      key: `cancel:${s.bookingId}`,
      cancelledBy: by,
      cancelReason: reason ?? null,
    });
  } catch (err) {
    // written, with its job: the provider's silence is an unknown outcome that the job settles
    if (!(err instanceof ProviderUnavailableError)) throw err;
  }
  return 'refunded';
}

/**
 * Whether a session paid from a balance has refunds of its own, requested or made (its cancellation
 * then refunds the rest to the card, never the whole price to the balance). Read in the caller's
 * transaction under the order's refunds lock (book-from-balance.ts `returnToBalance`).
 */
export async function hasOwnRefunds(q: Tx, bookingId: string): Promise<boolean> {
  const s = await sessionsRepo.findBalanceSession(q, bookingId);
  if (!s) return false;
  const { asked } = await sessionsRepo.refundsOfSession(q, s);
  return asked > 0;
}

/**
 * For the job that finishes refunds (`payment.finish-refund`, bookings.module.ts): a refund of a
 * session paid from a balance is finished here (true); any other is left to refunds.ts (false).
 */
export async function finishBalanceSessionRefund(
  ctx: BookingsContext,
  payload: { refundId: string } & Cancellation,
): Promise<boolean> {
  const refund = await paymentsRepo.findRefund(ctx.db, payload.refundId);
  if (!refund || !(await sessionsRepo.isBalanceSessionRefund(ctx.db, refund))) return false;
  await finishSessionRefund(ctx, refund, payload);
  return true;
}

/**
 * Asks the provider for a written refund of a session paid from a balance (again: the request id is
 * the key's, so a repeat is one refund), then in one transaction: the refund completed, its ledger
 * `refund` (`takenFromSession`), and once all of the session's price went back, an upcoming session
 * `refunded`; both people mailed. A provider that does not answer leaves it requested, for the job.
 */
async function finishSessionRefund(
  ctx: BookingsContext,
  written: paymentsRepo.RefundRow,
  cancellation: Cancellation,
): Promise<RefundOutcome> {
  if (written.status !== 'requested') return { state: 'completed', changed: false };
  const s = await sessionsRepo.findBalanceSession(ctx.db, written.bookingId!);
  if (!s) throw new AppError('NOT_FOUND', `the session of refund ${written.id} is not a session paid from a balance`);
  const refund = await stillOwed(ctx, s, written);
  if (!refund) return { state: 'completed', changed: false };
  let answer;
  try {
    answer = await providerOf(ctx, refund.provider).refundCapture({
      captureId: refund.captureId,
      amountCents: refund.amountCents,
      currency: refund.currency,
      requestId: `spotter-refund-${refund.key.replace(/:/g, '-')}`,
    });
  } catch (err) {
    if (err instanceof PaymentRejectedError && GIVEN_BACK_ALREADY.has(err.details?.[0]?.issue ?? ''))
      return givenBackAlready(ctx, refund, err);
    if (err instanceof ProviderUnavailableError)
      await paymentsRepo.recordPaymentEvent(ctx.db, {
        kind: 'refund-unknown',
        bookingId: refund.bookingId,
        provider: refund.provider,
        providerOrderId: refund.providerOrderId,
        details: { refundId: refund.id, reason: err.reason },
        at: ctx.now(),
      });
    throw err;
  }
  ctx.log.info(
    { refundId: refund.id, providerRefundId: answer.id, reason: refund.reason },
    'a session paid from a balance refunded',
  );

  const { changed, mailJobs } = await ctx.db.transaction(async (tx) => {
    const at = ctx.now();
    // one refund of the order booked at a time: each reads the session's refunds before it (the fee's running total)
    await paymentsRepo.lockOrderRefunds(tx, s.provider, s.providerOrderId);
    if (!(await paymentsRepo.completeRefund(tx, refund.id, { providerRefundId: answer.id, raw: answer.raw, at })))
      return { changed: false, mailJobs: [] as number[] };
    // the session's share as it is now: the sweep making it payable meanwhile would move what is read here
    await paymentsRepo.lockShare(tx, s.bookingId);
    const { given } = await sessionsRepo.refundsOfSession(tx, s);
    await post(tx, {
      key: `refund:${refund.id}`,
      kind: 'refund',
      bookingId: s.bookingId,
      trainerId: s.trainerId,
      userId: s.userId,
      provider: s.provider,
      providerOrderId: s.providerOrderId,
      memo: refund.reason,
      at,
      entries: await takenFromSession(tx, s, given - refund.amountCents, refund.amountCents),
    });
    let moved = false;
    // a cancellation's refund (the rest of a session refunded in part before): the session is cancelled,
    // whatever other refund of it is still on its way; otherwise all of it: an upcoming session is
    // cancelled, and one that took place stays as it was
    if (cancellation.cancelledBy || (given >= s.priceCents && s.startsAt > at)) {
      moved = await bookingsRepo.changeStatus(tx, s.bookingId, 'confirmed', 'refunded', at, {
        cancelledBy: cancellation.cancelledBy,
        cancelReason: cancellation.cancelledBy ? (cancellation.cancelReason ?? null) : refund.reason,
      });
      if (moved) await announceBooking(ctx, tx, { id: s.bookingId, userId: s.userId, trainerId: s.trainerId });
    }
    const jobs = await enqueueBookingMails(ctx, tx, s.bookingId, 'refunded', {
      refundCents: refund.amountCents,
      reason: cancellation.cancelledBy ? (cancellation.cancelReason ?? refund.reason) : refund.reason,
      cancelled: moved,
    });
    return { changed: moved, mailJobs: jobs };
  });
  await runBookingMails(ctx, mailJobs);
  return { state: 'completed', changed };
}

/**
 * The refund as it is to be asked for now: no more than is left of the session's price (money the
 * provider gave back by itself may have taken the week back since it was written); with nothing left
 * it has failed (undefined).
 */
async function stillOwed(
  ctx: BookingsContext,
  s: BalanceSession,
  refund: paymentsRepo.RefundRow,
): Promise<paymentsRepo.RefundRow | undefined> {
  const { whole, asked } = await sessionsRepo.refundsOfSession(ctx.db, s);
  // its price less what the others asked (this one is among `asked` while requested); nothing when it went back whole
  const left = whole ? 0 : s.priceCents - (asked - refund.amountCents);
  return fitToWhatIsLeft(ctx, refund, left, 'a refund of a session paid from a balance');
}

/**
 * The provider refused the refund because the money went back already, outside Spotter: its own
 * refunds of the capture are booked (outside-refund.ts, from the balance first, then from the
 * platform's losses), and this refund has failed (nothing is left on the capture to give back).
 */
async function givenBackAlready(
  ctx: BookingsContext,
  refund: paymentsRepo.RefundRow,
  err: PaymentRejectedError,
): Promise<RefundOutcome> {
  if (refund.provider === 'paypal') {
    const state = await providerOf(ctx, refund.provider).getOrder({ orderId: refund.providerOrderId });
    for (const r of state.refunds ?? [])
      await bookOutsideRefund(
        ctx,
        { kind: 'refund', provider: 'paypal', providerRefundId: r.id, orderId: refund.providerOrderId, ...r },
        { besides: refund.id },
      );
  }
  await paymentsRepo.failRequestedRefund(ctx.db, refund.id, ctx.now());
  ctx.log.warn(
    { refundId: refund.id, issue: err.details?.[0]?.issue },
    'a refund of a session paid from a balance found the capture given back already, outside Spotter',
  );
  return { state: 'completed', changed: false };
}

/**
 * Where `cents` given back of a session paid from a balance comes from, after `before` was: the fee
 * its `redeem` took, in proportion (rounded on the running total, so the parts add up to it exactly),
 * and the trainer's share from where it is (pending; payable once due), as far as that balance
 * reaches; the rest, already paid out to the trainer, is Spotter's loss. The balance is not touched.
 */
async function takenFromSession(tx: Tx, s: BalanceSession, before: number, cents: number): Promise<Posting[]> {
  const fee = feePart({ feeCents: s.feeCents, amountCents: s.priceCents }, before, cents);
  const share = cents - fee;
  const due = await hasTransaction(tx, `payable:${s.bookingId}`);
  const from = due ? account.trainerPayable(s.trainerId) : account.trainerPending(s.trainerId);
  const fromShare = Math.min(share, Math.max(0, await balance(tx, from, s.currency)));
  return [
    { account: account.world(s.provider), amountCents: cents, currency: s.currency },
    { account: account.fees, amountCents: -fee, currency: s.currency },
    { account: from, amountCents: -fromShare, currency: s.currency },
    { account: account.losses, amountCents: -(share - fromShare), currency: s.currency },
  ];
}

/** What the console's audit entry of the refund needs, written in the refund's own transaction. */
type RefundAudit = (tx: Tx, entry: { before: object; after: object; refundId: string }) => Promise<void>;

/**
 * An operator refunds a session paid from a balance in full or in part, at any time, with a reason
 * (POST /api/console/bookings/:id/refund; docs/product.md#refunds-by-operators): at most its price
 * less what was asked back of it; the audit entry in the refund row's transaction. `key` is the
 * request's (refund-by-operator.ts): a repeat answers the refund it made, with no second one. Answers
 * as a card session's refund does, its totals the session's own. 409 when nothing was paid for it (a hold).
 */
export async function refundSessionFromBalance(
  ctx: BookingsContext,
  {
    booking,
    amountCents,
    reason,
    key,
  }: { booking: { id: string; status: string }; amountCents?: number; reason: string; key: string },
  audit: RefundAudit,
) {
  const s = await sessionsRepo.findBalanceSession(ctx.db, booking.id);
  if (!s) throw new AppError('CONFLICT', MONEY_MSG.notCardPaid);
  if (!(await paymentsRepo.findRefundByKey(ctx.db, key))) {
    const { asked } = await sessionsRepo.refundsOfSession(ctx.db, s);
    const left = s.priceCents - asked;
    if (left <= 0) throw new AppError('CONFLICT', MONEY_MSG.nothingLeft);
    const cents = amountCents ?? left;
    if (cents > left)
      throw new AppError('VALIDATION_FAILED', MONEY_MSG.tooMuch(dollars(left)), { amount: MONEY_MSG.tooMuch(dollars(left)) });
    try {
      await refundBalanceSession(ctx, { session: s, amountCents: cents, reason, key }, (tx, row) =>
        audit(tx, {
          before: { status: booking.status, refundedCents: asked },
          after: { status: booking.status, refundedCents: asked + cents, refundRequestedCents: row.amountCents },
          refundId: row.id,
        }),
      );
    } catch (err) {
      // written, with its job: the provider's silence is an unknown outcome that the job settles
      if (!(err instanceof ProviderUnavailableError)) throw err;
    }
  }
  // the refund of this request as it is now (a repeat: the first request's, which its job may have finished since)
  const row = await paymentsRepo.findRefundByKey(ctx.db, key);
  // none, or found owing nothing when it was to be made (the money went back another way meanwhile): not done
  if (!row || row.status === 'failed') throw new AppError('CONFLICT', MONEY_MSG.nothingLeft);
  const pending = row.status === 'requested';
  const { given, asked } = await sessionsRepo.refundsOfSession(ctx.db, s);
  return {
    refund: {
      refundId: row.id,
      bookingId: s.bookingId,
      amount: fromCents(row.amountCents),
      status: pending ? ('pending' as const) : ('completed' as const),
      refundedTotal: fromCents(given),
      left: fromCents(Math.max(0, s.priceCents - asked)),
    },
    message: pending ? MONEY_MSG.pending(dollars(row.amountCents)) : MONEY_MSG.refunded(dollars(row.amountCents)),
  };
}
