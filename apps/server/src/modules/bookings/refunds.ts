import { MONEY_MSG, PLATFORM_FEE_PERCENT } from '@spotter/shared';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { fromCents, percentOf } from '../../lib/money';
import { account, balance, hasTransaction, PaymentRejectedError, post, ProviderUnavailableError, type Posting } from '../money';
import { enqueueBookingMails, runBookingMails } from './booking-jobs';
import * as bookingsRepo from './bookings.repo';
import { announceBooking, providerOf, type BookingsContext } from './context';
import { bookOutsideRefund, feePart, fitToWhatIsLeft, takenBack } from './outside-refund';
import { PAYMENT_JOBS } from './payment-jobs';
import * as packagesRepo from './packages.repo';
import * as paymentsRepo from './payments.repo';

type Payment = NonNullable<Awaited<ReturnType<typeof paymentsRepo.findPaymentOfBooking>>>;
type Cancellation = { cancelledBy?: 'user' | 'trainer'; cancelReason?: string | null };

/** The provider's refusals that say the money went back already (a refund made at the provider, outside Spotter). */
const GIVEN_BACK_ALREADY = new Set(['CAPTURE_FULLY_REFUNDED', 'REFUND_AMOUNT_EXCEEDED']);

/** A retry of a refund waits this long after it was written (the first call normally finishes it). */
const FINISH_AFTER_MS = 2 * 60_000;

/** The provider's request id of a refund: the key's, so every retry of one refund is one refund at the provider. */
function requestIdOf(key: string): string {
  if (key.startsWith('full:')) return `spotter-refund-${key.slice('full:'.length)}`; // as before the ledger
  return `spotter-refund-${key.replace(/:/g, '-')}`;
}

/** The key of a booking's payment refunded in full. */
const fullRefundKey = (paymentId: string) => `full:${paymentId}`;
/** The key of money that no booking took (a wrong amount, a late capture), refunded in full. */
const unplacedRefundKey = (provider: string, captureId: string) => `unplaced:${provider}:${captureId}`;

type RefundOutcome =
  /** done now; `changed`: the booking went confirmed → refunded with this call */
  | { state: 'completed'; changed: boolean }
  /** another call wrote it first and has not finished (or the provider did not answer: a job retries) */
  | { state: 'in-progress' };

/**
 * Refunds a booking's payment in full (docs/decisions/042-money-ledger.md#refunds): the refund row
 * is written first, with its unique key and a job that finishes it if this call cannot; only the
 * writer of the row calls the provider, so concurrent cancels make one call. Then, in one
 * transaction: the refund completed, its ledger transaction, the payment refunded, the booking
 * confirmed → refunded with the cancellation mails.
 */
export async function refundPayment(
  ctx: BookingsContext,
  { payment, reason, ...cancellation }: { payment: Payment; reason: string } & Cancellation,
): Promise<RefundOutcome> {
  // what is left of it: a refund made at the provider, outside Spotter, took the rest (outside-refund.ts)
  const left = payment.amountCents - (await paymentsRepo.completedRefundsOf(ctx.db, payment.provider, payment.providerOrderId));
  return writeAndFinish(
    ctx,
    {
      key: fullRefundKey(payment.id),
      bookingId: payment.bookingId,
      provider: payment.provider,
      orderId: payment.providerOrderId,
      captureId: payment.captureId,
      amountCents: left > 0 ? left : payment.amountCents,
      currency: payment.currency,
      reason,
    },
    cancellation,
  );
}

/** The keys of part refunds (an operator's, a dispute's): keyed by who asked, never by what was asked before. */
const isPartKey = (key: string) => key.startsWith('operator:') || key.startsWith('dispute:') || key.startsWith('dispute-open:');

const dollars = (cents: number) => `$${fromCents(cents).toFixed(2)}`;

/** What `refundPart` answers: the refund row of its key and whether this call wrote it. */
type PartOutcome = RefundOutcome & {
  row: paymentsRepo.RefundRow;
  /** false: the key's row was there already (a repeat, or another request at once): this call wrote and asked nothing */
  mine: boolean;
};

/**
 * A refund of a session's card payment in full or in part, at any time (docs/product.md#refunds-by-operators):
 * an operator's, or a dispute's. `key` names the request (the caller's: an operator's Idempotency-Key or
 * the request's content, a dispute's id), so a repeat (a double click, a retry) writes nothing twice and
 * answers the row the first one wrote (`mine` false). Under the order's refund lock, what was asked back so
 * far is read again and `amountCents` ('rest': all that is left) checked against it, so two requests at once
 * never ask more than was paid. `withRow` runs in the refund row's transaction (an audit entry, a dispute's
 * decision) with what was asked before. What is given back comes from the trainer's share and the fee in
 * proportion, a share already paid out from the platform's losses; all of it refunds the payment and
 * cancels an upcoming session. Both sides are mailed. A provider that does not answer leaves it
 * requested for its job (state 'in-progress').
 */
export async function refundPart(
  ctx: BookingsContext,
  { payment, amountCents, reason, key }: { payment: Payment; amountCents: number | 'rest'; reason: string; key: string },
  withRow: (tx: Tx, row: paymentsRepo.RefundRow, askedBefore: number) => Promise<void>,
): Promise<PartOutcome> {
  const written = await ctx.db.transaction(async (tx) => {
    await paymentsRepo.lockOrderRefunds(tx, payment.provider, payment.providerOrderId);
    // the key's row, written by an earlier request (the lock waits for one under way): that one's
    const existing = await paymentsRepo.findRefundByKey(tx, key);
    if (existing) return { row: existing, mine: false };
    const asked = await paymentsRepo.askedRefundsOf(tx, payment.provider, payment.providerOrderId);
    const left = payment.amountCents - asked;
    if (left <= 0) throw new AppError('CONFLICT', MONEY_MSG.nothingLeft);
    const cents = amountCents === 'rest' ? left : amountCents;
    if (cents > left)
      throw new AppError('VALIDATION_FAILED', MONEY_MSG.tooMuch(dollars(left)), { amount: MONEY_MSG.tooMuch(dollars(left)) });
    const row = await paymentsRepo.insertRefund(tx, {
      key,
      bookingId: payment.bookingId,
      provider: payment.provider,
      providerOrderId: payment.providerOrderId,
      captureId: payment.captureId,
      amountCents: cents,
      currency: payment.currency,
      status: 'requested',
      reason,
      createdAt: ctx.now(),
    });
    // the key is unique and every writer of a part refund holds the order's lock: never taken here
    if (!row) throw new Error(`refund ${key} written meanwhile without the order's lock`);
    await enqueueFinish(ctx, tx, row.id, {});
    await withRow(tx, row, asked);
    return { row, mine: true };
  });
  if (!written.mine) {
    const { row } = written;
    return row.status === 'requested'
      ? { state: 'in-progress', row, mine: false }
      : { state: 'completed', changed: false, row, mine: false };
  }
  try {
    return { ...(await finishRefund(ctx, written.row, {})), row: written.row, mine: true };
  } catch (err) {
    // written, with its job: the provider's silence is an unknown outcome that the job settles
    if (!(err instanceof ProviderUnavailableError)) throw err;
    return { state: 'in-progress', row: written.row, mine: true };
  }
}

type Unplaced = {
  provider: 'paypal' | 'demo';
  orderId: string;
  captureId: string;
  amountCents: number;
  currency: string;
  /** null: a package's money (docs/product.md#packages) */
  bookingId: string | null;
};

/**
 * Refunds money no booking took (captured with a wrong amount or currency, or after its hold ended)
 * from its suspense account; a payments row that records it (a late capture) is marked refunded.
 */
export async function refundUnplaced(ctx: BookingsContext, u: Unplaced, reason: string): Promise<RefundOutcome> {
  return writeAndFinish(ctx, { ...u, key: unplacedRefundKey(u.provider, u.captureId), reason }, {});
}

/** The key of a package balance's rest refunded (docs/product.md#packages): one per request. */
const balanceRefundKey = (balanceId: string, at: Date) => `package:${balanceId}:${at.getTime()}`;
const balanceOfKey = (key: string) => key.split(':')[1];
/** Why a weekly series' payment gives money back: weeks cancelled, or no longer held when it arrived. */
const SERIES_REFUND_REASON = 'weeks of a weekly series cancelled, or no longer held when the payment arrived';

/**
 * Refunds what is left of a package balance through the provider that took it, in the
 * transaction `amountOf` runs in (the balance locked and set refunding there, so no session takes
 * it meanwhile): the refund row is written with its job, then the provider asked; the ledger's
 * `refund` (balance → world) is written when it answers.
 */
export async function refundBalance(
  ctx: BookingsContext,
  b: {
    id: string;
    kind?: 'package' | 'series';
    provider: 'paypal' | 'demo';
    orderId: string;
    captureId: string;
    currency: string;
  },
  /** In the refund's transaction: locks the balance, sets it refunding, and answers the amount (0: nothing to refund; or throws). */
  amountOf: (tx: Tx) => Promise<number>,
): Promise<RefundOutcome> {
  const at = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    const amountCents = await amountOf(tx);
    if (amountCents <= 0) return 'nothing' as const;
    const inserted = await paymentsRepo.insertRefund(tx, {
      key: balanceRefundKey(b.id, at),
      bookingId: null,
      provider: b.provider,
      providerOrderId: b.orderId,
      captureId: b.captureId,
      amountCents,
      currency: b.currency,
      status: 'requested',
      reason: b.kind === 'series' ? SERIES_REFUND_REASON : 'the unused balance of a package, asked for by its user',
      createdAt: at,
    });
    if (inserted) await enqueueFinish(ctx, tx, inserted.id, {});
    return inserted;
  });
  if (row === 'nothing') return { state: 'completed', changed: false };
  if (!row) return { state: 'in-progress' };
  return finishRefund(ctx, row, {});
}

/**
 * Writes the refund row (its key unique) with the job that finishes it, then, for the writer of the
 * row only, asks the provider; a second writer learns whether it is done or under way.
 */
async function writeAndFinish(
  ctx: BookingsContext,
  r: Unplaced & { key: string; reason: string },
  cancellation: Cancellation,
): Promise<RefundOutcome> {
  const written = await ctx.db.transaction(async (tx) => {
    const row = await paymentsRepo.insertRefund(tx, {
      key: r.key,
      bookingId: r.bookingId,
      provider: r.provider,
      providerOrderId: r.orderId,
      captureId: r.captureId,
      amountCents: r.amountCents,
      currency: r.currency,
      status: 'requested',
      reason: r.reason,
      createdAt: ctx.now(),
    });
    if (row) await enqueueFinish(ctx, tx, row.id, cancellation);
    return row;
  });
  if (!written) {
    const existing = await paymentsRepo.findRefundByKey(ctx.db, r.key);
    return existing?.status === 'completed' ? { state: 'completed', changed: false } : { state: 'in-progress' };
  }
  return finishRefund(ctx, written, cancellation);
}

async function enqueueFinish(ctx: BookingsContext, tx: Tx, refundId: string, c: Cancellation) {
  await ctx.jobs.enqueue(tx, {
    kind: PAYMENT_JOBS.finishRefund,
    runAt: new Date(ctx.now().getTime() + FINISH_AFTER_MS),
    payload: { refundId, ...(c.cancelledBy ? { cancelledBy: c.cancelledBy } : {}), cancelReason: c.cancelReason ?? null },
  });
}

/**
 * Asks the provider for a written refund (again: the request id makes a repeat one refund) and
 * records its outcome. A provider that does not answer leaves it requested, for the job.
 */
async function finishRefund(
  ctx: BookingsContext,
  written: paymentsRepo.RefundRow,
  cancellation: Cancellation,
  /** How many times it was asked of the provider in this call (a refusal that found money given back asks once more). */
  asked = 1,
): Promise<RefundOutcome> {
  if (written.status !== 'requested') return { state: 'completed', changed: false };
  const refund = await stillOwed(ctx, written);
  if (!refund) return { state: 'completed', changed: false };
  let answer;
  try {
    answer = await providerOf(ctx, refund.provider).refundCapture({
      captureId: refund.captureId,
      amountCents: refund.amountCents,
      currency: refund.currency,
      requestId: requestIdOf(refund.key),
    });
  } catch (err) {
    if (err instanceof PaymentRejectedError && GIVEN_BACK_ALREADY.has(err.details?.[0]?.issue ?? ''))
      return givenBackAlready(ctx, refund, err, cancellation, asked);
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
  ctx.log.info({ refundId: refund.id, providerRefundId: answer.id, reason: refund.reason }, 'payment refunded');

  const { changed, mailJobs } = await ctx.db.transaction(async (tx) => {
    // the session's share first, as the sweep takes it before making the share payable
    // (modules/money/payouts.service.ts makeDueSharesPayable): where it is stays true until this posts
    if (refund.bookingId) await paymentsRepo.lockShare(tx, refund.bookingId);
    const at = ctx.now();
    if (!(await paymentsRepo.completeRefund(tx, refund.id, { providerRefundId: answer.id, raw: answer.raw, at })))
      return { changed: false, mailJobs: [] as number[] };
    if (refund.key.startsWith('package:')) {
      await post(tx, {
        key: `refund:${refund.id}`,
        kind: 'refund',
        provider: refund.provider,
        providerOrderId: refund.providerOrderId,
        memo: refund.reason,
        at,
        entries: fromBalance(refund),
      });
      const id = balanceOfKey(refund.key);
      const left = await balance(tx, account.balance(id), refund.currency);
      const paid = await packagesRepo.lockBalance(tx, id);
      if (paid?.kind === 'series') {
        // a weekly series' payment pays for nothing more: what a session cancelled meanwhile put back is refunded in turn
        await packagesRepo.setBalanceState(tx, id, { status: left > 0 ? 'refunding' : 'closed' });
        if (left > 0) {
          const next = await paymentsRepo.insertRefund(tx, {
            key: balanceRefundKey(id, new Date(at.getTime() + 1)),
            bookingId: null,
            provider: refund.provider,
            providerOrderId: refund.providerOrderId,
            captureId: refund.captureId,
            amountCents: left,
            currency: refund.currency,
            status: 'requested',
            reason: SERIES_REFUND_REASON,
            createdAt: at,
          });
          if (next) await enqueueFinish(ctx, tx, next.id, {});
        }
        return { changed: true, mailJobs: [] as number[] };
      }
      // what a cancelled session put back meanwhile stays, and can pay or be refunded in turn
      await packagesRepo.setBalanceState(tx, id, { status: left > 0 ? 'active' : 'closed' });
      return { changed: true, mailJobs: [] as number[] };
    }
    const payment = await paymentsRepo.findPaymentByOrder(tx, refund.provider, refund.providerOrderId);
    const full = refund.key.startsWith('full:');
    if (isPartKey(refund.key) && payment) return finishOperatorRefund(ctx, tx, refund, payment, answer, at);
    await post(tx, {
      key: `refund:${refund.id}`,
      kind: 'refund',
      bookingId: refund.bookingId,
      trainerId: payment?.trainerId ?? null,
      userId: payment?.userId ?? null,
      provider: refund.provider,
      providerOrderId: refund.providerOrderId,
      memo: refund.reason,
      at,
      entries: full && payment ? await sharesBack(tx, payment, refund.amountCents) : fromSuspense(refund),
    });
    if (payment) await paymentsRepo.markRefunded(tx, payment.id, { refundId: answer.id, refundRaw: answer.raw, at });
    if (!full || !payment) return { changed: false, mailJobs: [] as number[] };
    const moved = await bookingsRepo.changeStatus(tx, payment.bookingId, 'confirmed', 'refunded', at, cancellation);
    if (!moved) return { changed: false, mailJobs: [] as number[] };
    await announceBooking(ctx, tx, { id: payment.bookingId, userId: payment.userId, trainerId: payment.trainerId });
    return { changed: true, mailJobs: await enqueueBookingMails(ctx, tx, payment.bookingId, 'cancelled', { refunded: true }) };
  });
  await runBookingMails(ctx, mailJobs);
  return { state: 'completed', changed };
}

/**
 * The provider refused a refund because the money went back already, outside Spotter (its webhook
 * not here yet, or webhooks off): its own refunds of the order are read and each one Spotter has
 * not booked is booked now (outside-refund.ts), which refunds the payment and cancels its session
 * when that was all of it. This refund is then 'failed' (nothing was left to give back); when
 * something is left, it is asked for once more, cut to what is left (`stillOwed`), and failing that
 * it stays requested for its job.
 */
async function givenBackAlready(
  ctx: BookingsContext,
  refund: paymentsRepo.RefundRow,
  err: PaymentRejectedError,
  cancellation: Cancellation,
  asked: number,
): Promise<RefundOutcome> {
  const state = await providerOf(ctx, refund.provider).getOrder({ orderId: refund.providerOrderId });
  let changed = false;
  if (refund.provider === 'paypal')
    for (const r of state.refunds ?? []) {
      const outcome = await bookOutsideRefund(
        ctx,
        { kind: 'refund', provider: 'paypal', providerRefundId: r.id, orderId: refund.providerOrderId, ...r },
        { besides: refund.id },
      );
      changed ||= outcome.endsWith('its session cancelled');
    }
  const payment = await paymentsRepo.findPaymentByOrder(ctx.db, refund.provider, refund.providerOrderId);
  if (payment && payment.status !== 'refunded') {
    // not all of it went back: what is left is asked for now (once; else the job asks again later)
    const now = asked < 2 ? await paymentsRepo.findRefund(ctx.db, refund.id) : undefined;
    if (!now) throw err;
    return finishRefund(ctx, now, cancellation, asked + 1);
  }
  await paymentsRepo.failRequestedRefund(ctx.db, refund.id, ctx.now());
  ctx.log.warn(
    { refundId: refund.id, issue: err.details?.[0]?.issue },
    'a refund found the money given back already, outside Spotter',
  );
  return { state: 'completed', changed };
}

/**
 * The refund as it is to be asked for now: money the provider gave back outside Spotter since it was
 * written (outside-refund.ts: a refund in its dashboard, a reversal) is not asked for again, since the
 * provider refuses a refund of more than is left (and would for ever). Its amount is cut to what is
 * left of the payment (a full refund) or in the order's suspense (unplaced money); with nothing left
 * it has failed (undefined).
 */
async function stillOwed(ctx: BookingsContext, refund: paymentsRepo.RefundRow): Promise<paymentsRepo.RefundRow | undefined> {
  let left: number;
  if (refund.key.startsWith('full:') || isPartKey(refund.key)) {
    const payment = await paymentsRepo.findPaymentByOrder(ctx.db, refund.provider, refund.providerOrderId);
    if (!payment) return refund;
    left = payment.amountCents - (await paymentsRepo.completedRefundsOf(ctx.db, refund.provider, refund.providerOrderId));
  } else if (refund.key.startsWith('package:')) {
    left = await balance(ctx.db, account.balance(balanceOfKey(refund.key)), refund.currency);
  } else if (refund.key.startsWith('unplaced:')) {
    left = await balance(ctx.db, account.suspense(refund.provider, refund.providerOrderId), refund.currency);
  } else return refund;
  return fitToWhatIsLeft(ctx, refund, left, 'a refund (the provider gave it back outside Spotter)');
}

/**
 * An operator's refund the provider made: its ledger transaction (the share and the fee in
 * proportion, a paid-out share from losses), the payment refunded once all of it went back (an
 * upcoming session then cancelled), and the mails that say how much and why.
 */
async function finishOperatorRefund(
  ctx: BookingsContext,
  tx: Tx,
  refund: paymentsRepo.RefundRow,
  payment: Payment,
  answer: { id: string; raw: unknown },
  at: Date,
): Promise<{ changed: boolean; mailJobs: number[] }> {
  const given = await paymentsRepo.completedRefundsOf(tx, refund.provider, refund.providerOrderId);
  await post(tx, {
    key: `refund:${refund.id}`,
    kind: 'refund',
    bookingId: refund.bookingId,
    trainerId: payment.trainerId,
    userId: payment.userId,
    provider: refund.provider,
    providerOrderId: refund.providerOrderId,
    memo: refund.reason,
    at,
    entries: await takenBack(tx, payment, given - refund.amountCents, refund.amountCents),
  });
  let changed = false;
  if (given >= payment.amountCents) {
    await paymentsRepo.markRefunded(tx, payment.id, { refundId: answer.id, refundRaw: answer.raw, at });
    changed = !!(await bookingsRepo.changeStatus(tx, payment.bookingId, 'confirmed', 'refunded', at, {
      cancelReason: refund.reason,
    }));
    if (changed) await announceBooking(ctx, tx, { id: payment.bookingId, userId: payment.userId, trainerId: payment.trainerId });
  }
  const mailJobs = await enqueueBookingMails(ctx, tx, payment.bookingId, 'refunded', {
    refundCents: refund.amountCents,
    reason: refund.reason,
    cancelled: changed,
  });
  return { changed, mailJobs };
}

/**
 * A full refund of a paid session (`cents`: all of it, or the rest a refund outside Spotter left): the
 * trainer's share (pending, or payable once due) and the fee go back out, in proportion.
 */
async function sharesBack(tx: Tx, payment: Payment, cents: number): Promise<Posting[]> {
  const fee = feePart(payment, payment.amountCents - cents, cents);
  const due = await hasTransaction(tx, `payable:${payment.bookingId}`);
  return [
    { account: account.world(payment.provider), amountCents: cents, currency: payment.currency },
    {
      account: due ? account.trainerPayable(payment.trainerId) : account.trainerPending(payment.trainerId),
      amountCents: -(cents - fee),
      currency: payment.currency,
    },
    { account: account.fees, amountCents: -fee, currency: payment.currency },
  ];
}

const fromBalance = (r: paymentsRepo.RefundRow): Posting[] => [
  { account: account.world(r.provider), amountCents: r.amountCents, currency: r.currency },
  { account: account.balance(balanceOfKey(r.key)), amountCents: -r.amountCents, currency: r.currency },
];

const fromSuspense = (r: paymentsRepo.RefundRow): Posting[] => [
  { account: account.world(r.provider), amountCents: r.amountCents, currency: r.currency },
  { account: account.suspense(r.provider, r.providerOrderId), amountCents: -r.amountCents, currency: r.currency },
];

/** What a captured payment posts: the user's money in, split into the trainer's share and the fee. */
export function paymentEntries(p: { provider: string; trainerId: string; amountCents: number; currency: string }): {
  entries: Posting[];
  feeCents: number;
} {
  const feeCents = percentOf(p.amountCents, PLATFORM_FEE_PERCENT);
  return {
    feeCents,
    entries: [
      { account: account.world(p.provider), amountCents: -p.amountCents, currency: p.currency },
      { account: account.trainerPending(p.trainerId), amountCents: p.amountCents - feeCents, currency: p.currency },
      { account: account.fees, amountCents: feeCents, currency: p.currency },
    ],
  };
}

/** Runs the finish job: the refund's outcome, once the provider answers. */
export async function runFinishRefund(ctx: BookingsContext, payload: { refundId: string } & Cancellation): Promise<void> {
  const refund = await paymentsRepo.findRefund(ctx.db, payload.refundId);
  if (!refund) throw new AppError('NOT_FOUND', `refund ${payload.refundId} not found`);
  await finishRefund(ctx, refund, payload);
}
