import type { Tx } from '../../db/client';
import { account, balance, hasTransaction, post, type Posting } from '../money';
import { enqueueBookingMails, PACKAGE_JOBS, runBookingMails } from './booking-jobs';
import * as bookingsRepo from './bookings.repo';
import { announceBooking, type BookingsContext } from './context';
import * as packagesRepo from './packages.repo';
import * as paymentsRepo from './payments.repo';
import { redeemEntries } from './redeem';

type Payment = NonNullable<Awaited<ReturnType<typeof paymentsRepo.findPaymentByOrder>>>;

/** Money the provider gave back without Spotter asking: a refund made in its dashboard, or a reversal (a chargeback). */
type OutsideRefund = {
  kind: 'refund' | 'reversal';
  provider: 'paypal';
  /** The provider's id of the refund (or of the reversal): one movement, booked once. */
  providerRefundId: string;
  captureId?: string;
  orderId?: string;
  amountCents: number;
  currency: string;
};

const REASONS = {
  refund: 'Refunded at PayPal, outside Spotter',
  reversal: 'Reversed by PayPal (a chargeback or a dispute the payer won)',
} as const;

/**
 * A refund written before money went back outside Spotter, fitted to what is `left` to give back now:
 * as it was, smaller, or failed when nothing is left (undefined; the warning names `what`).
 */
export async function fitToWhatIsLeft(
  ctx: Pick<BookingsContext, 'db' | 'log' | 'now'>,
  refund: paymentsRepo.RefundRow,
  left: number,
  what: string,
): Promise<paymentsRepo.RefundRow | undefined> {
  if (left >= refund.amountCents) return refund;
  if (left > 0) return paymentsRepo.resizeRequestedRefund(ctx.db, refund.id, left);
  if (await paymentsRepo.failRequestedRefund(ctx.db, refund.id, ctx.now()))
    ctx.log.warn({ refundId: refund.id, key: refund.key }, `${what} found nothing left to give back`);
  return undefined;
}

/**
 * Books money the provider gave back without Spotter asking (docs/decisions/042-money-ledger.md#reversals):
 * a completed refunds row (so the payment's refunded total is true) and a ledger transaction that
 * gives it back to the world, taken from the booking's trainer share (pending, or payable once due)
 * and the fee in proportion; the part of a share already paid out comes from `platform:losses`.
 * Taken in full, the payment is refunded and an upcoming session is cancelled, both people mailed.
 * A refund Spotter asked for itself is left to its own writer. Answers what it did, for the log.
 */
export async function bookOutsideRefund(
  ctx: BookingsContext,
  r: OutsideRefund,
  /** A refund of Spotter's, still requested, that the provider refused because of this one: not in the way. */
  { besides }: { besides?: string } = {},
): Promise<string> {
  const payment =
    (r.captureId ? await paymentsRepo.findPaymentByCapture(ctx.db, r.provider, r.captureId) : undefined) ??
    (r.orderId ? await paymentsRepo.findPaymentByOrder(ctx.db, r.provider, r.orderId) : undefined);
  if (!payment) return bookOutsidePackageRefund(ctx, r);
  // a REFUNDED event about the capture itself (found by its order): its amount is the capture's, not a refund's
  if (r.providerRefundId === payment.captureId) return 'the capture itself, not a refund of it: not booked';
  if (r.currency !== payment.currency) return `a ${r.currency} movement on a ${payment.currency} payment: not booked`;

  const { outcome, mailJobs } = await ctx.db.transaction(async (tx) => {
    // one delivery at a time per order (PayPal may send two events about one movement at once)
    await paymentsRepo.lockOrderRefunds(tx, payment.provider, payment.providerOrderId);
    // and the session's share: the sweep making it payable meanwhile would move what is read here
    await paymentsRepo.lockShare(tx, payment.bookingId);
    const ours = await paymentsRepo.refundsOfOrder(tx, payment.provider, payment.providerOrderId);
    if (ours.some((o) => o.providerRefundId === r.providerRefundId))
      return { outcome: 'booked already (a refund Spotter made, or this event seen before)', mailJobs: [] };
    // Spotter asks for exactly its row's amount: a refund of another amount is not Spotter's (one
    // made in the dashboard before Spotter's, which PayPal then refuses) and is booked here
    if (r.kind === 'refund' && ours.some((o) => o.status === 'requested' && o.id !== besides && o.amountCents === r.amountCents))
      return { outcome: 'a refund Spotter asked for is being finished: its own job books it', mailJobs: [] };

    const refundedBefore = await paymentsRepo.completedRefundsOf(tx, payment.provider, payment.providerOrderId);
    const left = payment.amountCents - refundedBefore;
    const cents = Math.min(r.amountCents, left);
    if (cents <= 0) return { outcome: 'nothing left on the payment to give back', mailJobs: [] };
    const at = ctx.now();
    const row = await paymentsRepo.insertRefund(tx, {
      key: `outside:${r.provider}:${r.providerRefundId}`,
      bookingId: payment.bookingId,
      provider: payment.provider,
      providerOrderId: payment.providerOrderId,
      captureId: payment.captureId,
      amountCents: cents,
      currency: payment.currency,
      status: 'completed',
      reason: REASONS[r.kind],
      providerRefundId: r.providerRefundId,
      createdAt: at,
      completedAt: at,
    });
    if (!row) return { outcome: 'booked already', mailJobs: [] };
    await post(tx, {
      key: `${r.kind}:${row.id}`,
      kind: r.kind,
      bookingId: payment.bookingId,
      trainerId: payment.trainerId,
      userId: payment.userId,
      provider: payment.provider,
      providerOrderId: payment.providerOrderId,
      memo: REASONS[r.kind],
      at,
      entries: await takenBack(tx, payment, refundedBefore, cents),
    });
    if (cents < left) return { outcome: `booked: ${cents} of ${left} ${payment.currency} left on the payment`, mailJobs: [] };
    await paymentsRepo.markRefunded(tx, payment.id, { refundId: r.providerRefundId, refundRaw: null, at });
    // an upcoming session whose money is gone is cancelled; one that took place stays as it was
    const moved = await bookingsRepo.changeStatus(tx, payment.bookingId, 'confirmed', 'refunded', at, {
      cancelReason: REASONS[r.kind],
    });
    if (!moved) return { outcome: 'booked: the payment is refunded in full', mailJobs: [] };
    await announceBooking(ctx, tx, { id: payment.bookingId, userId: payment.userId, trainerId: payment.trainerId });
    return {
      outcome: 'booked: the payment is refunded in full and its session cancelled',
      mailJobs: await enqueueBookingMails(ctx, tx, payment.bookingId, 'cancelled', { refunded: true }),
    };
  });
  await runBookingMails(ctx, mailJobs);
  return outcome;
}

/**
 * The part of the fee in `cents` given back after `before` was: rounded on the running total, so
 * the parts of a payment given back in several pieces add up to its fee exactly.
 */
export function feePart(payment: { feeCents: number; amountCents: number }, before: number, cents: number): number {
  const upTo = (c: number) => Math.round((payment.feeCents * c) / payment.amountCents);
  return upTo(before + cents) - upTo(before);
}

/**
 * Where `cents` given back comes from: the fee in proportion, and the trainer's share from where
 * it is (pending; payable once due), as far as that balance reaches; the rest, already paid out
 * to the trainer, is Spotter's loss.
 */
export async function takenBack(tx: Tx, payment: Payment, before: number, cents: number): Promise<Posting[]> {
  const currency = payment.currency;
  // a capture that came too late was never the trainer's: its money waits in the order's suspense
  // account for Spotter's own refund, and what the provider gave back comes out of it
  const suspense = account.suspense(payment.provider, payment.providerOrderId);
  const parked = Math.min(cents, Math.max(0, await balance(tx, suspense, currency)));
  if (parked > 0)
    return [
      { account: account.world(payment.provider), amountCents: cents, currency },
      { account: suspense, amountCents: -parked, currency },
      { account: account.losses, amountCents: -(cents - parked), currency },
    ];
  const fee = feePart(payment, before, cents);
  const share = cents - fee;
  const due = await hasTransaction(tx, `payable:${payment.bookingId}`);
  const from = due ? account.trainerPayable(payment.trainerId) : account.trainerPending(payment.trainerId);
  const fromShare = Math.min(share, Math.max(0, await balance(tx, from, currency)));
  return [
    { account: account.world(payment.provider), amountCents: cents, currency },
    { account: account.fees, amountCents: -fee, currency },
    { account: from, amountCents: -fromShare, currency },
    { account: account.losses, amountCents: -(share - fromShare), currency },
  ];
}

/**
 * A dispute a payer opened (or that was resolved) at the provider about Spotter's captures
 * (docs/decisions/042-money-ledger.md#reversals): recorded per payment as a `dispute-opened` or
 * `dispute-resolved` payment event, once per dispute. While one is open, the session's share does
 * not become payable (payouts.repo.ts dueShares); money the payer wins back arrives as a reversal.
 * Answers how many of Spotter's payments it concerns.
 */
export async function recordDispute(
  ctx: BookingsContext,
  d: { state: 'opened' | 'resolved'; provider: 'paypal'; disputeId: string; captureIds: string[]; outcome?: string },
): Promise<number> {
  let found = 0;
  for (const captureId of new Set(d.captureIds)) {
    const payment = await paymentsRepo.findPaymentByCapture(ctx.db, d.provider, captureId);
    // a package's or a weekly series' capture: recorded on its order (no one booking)
    const purchase = payment ? undefined : await packagesRepo.findBalanceByCapture(ctx.db, d.provider, captureId);
    const on = payment
      ? { bookingId: payment.bookingId, provider: payment.provider, providerOrderId: payment.providerOrderId }
      : purchase?.provider && purchase.providerOrderId
        ? { bookingId: null, provider: purchase.provider, providerOrderId: purchase.providerOrderId }
        : undefined;
    if (!on) continue;
    found++;
    await paymentsRepo.recordDisputeEvent(ctx.db, {
      kind: d.state === 'opened' ? 'dispute-opened' : 'dispute-resolved',
      ...on,
      disputeId: d.disputeId,
      outcome: d.outcome ?? null,
      at: ctx.now(),
    });
  }
  return found;
}

/**
 * Money the provider gave back by itself from a package's capture (docs/product.md#packages): booked
 * once, by its id, up to what is left of the payment, as a completed refunds row and a `refund` or
 * `reversal` transaction taken from the user's balance first; what sessions already took of it
 * (they stay booked) comes from `platform:losses`. A balance left with nothing pays for no more
 * sessions.
 */
async function bookOutsidePackageRefund(ctx: BookingsContext, r: OutsideRefund): Promise<string> {
  const purchase =
    (r.captureId ? await packagesRepo.findBalanceByCapture(ctx.db, r.provider, r.captureId) : undefined) ??
    (r.orderId ? await packagesRepo.findBalanceByOrder(ctx.db, r.orderId) : undefined);
  if (!purchase || purchase.provider !== r.provider || !purchase.providerOrderId || !purchase.captureId)
    return 'no payment of Spotter has that capture';
  if (r.providerRefundId === purchase.captureId) return 'the capture itself, not a refund of it: not booked';
  if (r.currency !== purchase.currency) return `a ${r.currency} movement on a ${purchase.currency} payment: not booked`;
  const orderId = purchase.providerOrderId;
  const mailJobs: number[] = [];
  const outcome = await ctx.db.transaction(async (tx) => {
    await paymentsRepo.lockOrderRefunds(tx, r.provider, orderId);
    const locked = await packagesRepo.lockBalance(tx, purchase.id);
    if (!locked || locked.status === 'pending') return 'the package is not paid';
    const ours = await paymentsRepo.refundsOfOrder(tx, r.provider, orderId);
    if (ours.some((o) => o.providerRefundId === r.providerRefundId))
      return 'booked already (a refund Spotter made, or this event seen before)';
    if (r.kind === 'refund' && ours.some((o) => o.status === 'requested' && o.amountCents === r.amountCents))
      return 'a refund Spotter asked for is being finished: its own job books it';
    const refundedBefore = await paymentsRepo.completedRefundsOf(tx, r.provider, orderId);
    const cents = Math.min(r.amountCents, locked.priceCents - refundedBefore);
    if (cents <= 0) return 'nothing left on the payment to give back';
    const at = ctx.now();
    const row = await paymentsRepo.insertRefund(tx, {
      key: `outside:${r.provider}:${r.providerRefundId}`,
      bookingId: null,
      provider: r.provider,
      providerOrderId: orderId,
      captureId: purchase.captureId!,
      amountCents: cents,
      currency: purchase.currency,
      status: 'completed',
      reason: REASONS[r.kind],
      providerRefundId: r.providerRefundId,
      createdAt: at,
      completedAt: at,
    });
    if (!row) return 'booked already';
    const currency = purchase.currency;
    const inBalance = Math.max(0, await balance(tx, account.balance(purchase.id), currency));
    const fromBalance = Math.min(cents, inBalance);
    // a weekly series paid by card: what the balance does not hold takes back its weeks to come, the
    // latest first, each cancelled whole (docs/decisions/045-weekly-series-paid-by-card.md)
    const weeks =
      purchase.kind === 'series' ? await takeBackWeeks(ctx, tx, purchase, r, row.id, cents - fromBalance, at) : undefined;
    const fromWeeks = weeks?.cents ?? 0;
    const entries: Posting[] = [{ account: account.world(r.provider), amountCents: cents - fromWeeks, currency }];
    if (fromBalance > 0) entries.push({ account: account.balance(purchase.id), amountCents: -fromBalance, currency });
    // what sessions took of it already (and delivered): they stay booked, and Spotter bears it
    if (cents > fromBalance + fromWeeks)
      entries.push({ account: account.losses, amountCents: -(cents - fromBalance - fromWeeks), currency });
    if (cents > fromWeeks)
      await post(tx, {
        key: `${r.kind}:${row.id}`,
        kind: r.kind,
        trainerId: purchase.trainerId,
        userId: purchase.userId,
        provider: r.provider,
        providerOrderId: orderId,
        memo: `${REASONS[r.kind]} (${purchase.kind === 'series' ? 'a weekly series' : 'a package'})`,
        at,
        entries,
      });
    if (purchase.kind === 'package' && fromBalance === inBalance)
      await packagesRepo.setBalanceState(tx, purchase.id, { status: 'closed', sessionsLeft: 0 });
    mailJobs.push(...(weeks?.mailJobs ?? []));
    // a week taken back in part: the rest of its price goes back to the card too
    if (weeks?.leftover)
      await ctx.jobs.enqueue(tx, { kind: PACKAGE_JOBS.refundClosed, runAt: at, payload: { balanceId: purchase.id } });
    return `booked: ${cents} ${currency} of a ${purchase.kind}, ${fromBalance} from its balance, ${fromWeeks} from ${weeks?.cancelled ?? 0} week(s) to come`;
  });
  await runBookingMails(ctx, mailJobs);
  return outcome;
}

/**
 * In the outside refund's transaction: the weeks to come of a weekly series paid by card, the latest
 * first, are cancelled (`refunded`) until `cents` is covered: each one's `redeem` taken back (the
 * trainer's pending share and the fee), its price to the world up to what is left of `cents`, and
 * what is left of the last one's price back to the (closed) balance, to be refunded to the card.
 */
async function takeBackWeeks(
  ctx: BookingsContext,
  tx: Tx,
  purchase: NonNullable<Awaited<ReturnType<typeof packagesRepo.findBalance>>>,
  r: OutsideRefund,
  refundId: string,
  cents: number,
  at: Date,
): Promise<{ cents: number; leftover: number; cancelled: number; mailJobs: number[] }> {
  const out = { cents: 0, leftover: 0, cancelled: 0, mailJobs: [] as number[] };
  if (cents <= 0) return out;
  const currency = purchase.currency;
  const paid = await packagesRepo.weeksPaidBy(tx, purchase.id);
  const toCome = (await bookingsRepo.seriesBookingsOf(tx, purchase.seriesId!, purchase.userId))
    .filter((b) => paid.has(b.id) && b.status === 'confirmed' && b.startsAt > at)
    .reverse();
  for (const week of toCome) {
    if (out.cents >= cents) break;
    if (!(await bookingsRepo.changeStatus(tx, week.id, 'confirmed', 'refunded', at, { cancelReason: REASONS[r.kind] }))) continue;
    const take = Math.min(week.priceCents, cents - out.cents);
    const back = redeemEntries(purchase, week.priceCents).map((e) => ({ ...e, amountCents: -e.amountCents }));
    // the redeem reversed: its price leaves the balance again, to the world and (the rest) back to the balance
    const entries: Posting[] = back.filter((e) => e.account !== account.balance(purchase.id));
    entries.push({ account: account.world(r.provider), amountCents: take, currency });
    if (week.priceCents > take)
      entries.push({ account: account.balance(purchase.id), amountCents: week.priceCents - take, currency });
    await post(tx, {
      key: `${r.kind}:${refundId}:${week.id}`,
      kind: r.kind,
      bookingId: week.id,
      trainerId: purchase.trainerId,
      userId: purchase.userId,
      provider: r.provider,
      providerOrderId: purchase.providerOrderId,
      memo: `${REASONS[r.kind]} (a week of a weekly series)`,
      at,
      entries,
    });
    out.cents += take;
    out.leftover += week.priceCents - take;
    out.cancelled++;
    await announceBooking(ctx, tx, week);
    out.mailJobs.push(...(await enqueueBookingMails(ctx, tx, week.id, 'cancelled', { refunded: true })));
  }
  return out;
}
