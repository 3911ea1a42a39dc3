import { createHash } from 'node:crypto';
import { isId, MONEY_MSG } from '@spotter/shared';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { fromCents } from '../../lib/money';
import * as bookingsRepo from './bookings.repo';
import type { BookingsContext } from './context';
import * as paymentsRepo from './payments.repo';
import { refundPart } from './refunds';
import { refundSessionFromBalance } from './refund-balance-session';

const dollars = (cents: number) => `$${fromCents(cents).toFixed(2)}`;

/** What the console's audit entry of the refund needs, written in the refund's own transaction. */
type RefundAudit = (tx: Tx, entry: { before: object; after: object; refundId: string }) => Promise<void>;

/**
 * An operator refunds a session's card payment in full or in part, at any time, with a reason
 * (docs/product.md#refunds-by-operators): through the money layer (refunds.ts `refundPart`: the refund
 * row and its retry job first, then the provider, then the ledger and the mails), with the audit
 * entry in the refund row's transaction. A provider that does not answer leaves it pending for its job.
 * The same request again (its Idempotency-Key, or without one its content) answers the first one's
 * refund, with no second refund and no second audit entry; the same key with another request is a 409.
 */
export async function refundByOperator(
  ctx: BookingsContext,
  { bookingId, amountCents, reason }: { bookingId: string; amountCents?: number; reason: string },
  audit: RefundAudit,
  /** Who asks, and the request's Idempotency-Key header when it came with one. */
  request: { operatorId: string; idempotencyKey?: string },
) {
  const booking = isId(bookingId) ? await bookingsRepo.findBooking(ctx.db, bookingId) : undefined;
  if (!booking) throw new AppError('NOT_FOUND', MONEY_MSG.bookingNotFound);
  const payment = await paymentsRepo.findPaymentOfBooking(ctx.db, bookingId);
  if (!payment) {
    // a session paid from a package or a weekly series: the same keys and answers, its own ceiling;
    // keyed by the booking (no payment of its own), as long as a card payment's key
    const key = operatorRefundKey(bookingId, { ...request, bookingId, amountCents, reason });
    const reused = async () => {
      const existing = await paymentsRepo.findRefundByKey(ctx.db, key);
      if (existing && request.idempotencyKey !== undefined && !sameRequest(existing, { amountCents, reason }))
        throw new AppError('CONFLICT', MONEY_MSG.keyReused);
    };
    await reused();
    const answer = await refundSessionFromBalance(ctx, { booking, amountCents, reason, key }, audit);
    // another request with the same key written at the same moment
    await reused();
    return answer;
  }
  const key = operatorRefundKey(payment.id, { ...request, bookingId, amountCents, reason });
  const outcome = await refundPart(ctx, { payment, amountCents: amountCents ?? 'rest', reason, key }, (tx, row, asked) =>
    audit(tx, {
      before: { status: booking.status, refundedCents: asked },
      after: { status: booking.status, refundedCents: asked + row.amountCents, refundRequestedCents: row.amountCents },
      refundId: row.id,
    }),
  );
  const { row } = outcome;
  // the same Idempotency-Key sent with another request: refused, the first one's refund unchanged
  if (!outcome.mine && request.idempotencyKey !== undefined && !sameRequest(row, { amountCents, reason }))
    throw new AppError('CONFLICT', MONEY_MSG.keyReused);
  // the refund as it is now (a repeat: the first request's, which its job may have finished since)
  const now = (await paymentsRepo.findRefund(ctx.db, row.id)) ?? row;
  // found owing nothing when it was to be made (the money went back another way meanwhile): not done
  if (now.status === 'failed') throw new AppError('CONFLICT', MONEY_MSG.nothingLeft);
  const pending = now.status === 'requested';
  const [refunded, asked] = await Promise.all([
    paymentsRepo.completedRefundsOf(ctx.db, payment.provider, payment.providerOrderId),
    paymentsRepo.askedRefundsOf(ctx.db, payment.provider, payment.providerOrderId),
  ]);
  return {
    refund: {
      refundId: now.id,
      bookingId,
      amount: fromCents(now.amountCents),
      status: pending ? ('pending' as const) : ('completed' as const),
      refundedTotal: fromCents(refunded),
      left: fromCents(Math.max(0, payment.amountCents - asked)),
    },
    message: pending ? MONEY_MSG.pending(dollars(now.amountCents)) : MONEY_MSG.refunded(dollars(now.amountCents)),
  };
}

/**
 * The refund key of an operator's request (docs/product.md#refunds-by-operators): its Idempotency-Key,
 * the operator's own (two operators' keys never meet); without one, what it asks (the operator, the
 * session, the amount or 'rest', the reason), so the same request sent again is the same refund. A
 * SHA-256 in base64url keeps the provider's request id made of it (refunds.ts requestIdOf) short.
 */
function operatorRefundKey(
  paymentId: string,
  r: { operatorId: string; idempotencyKey?: string; bookingId: string; amountCents?: number; reason: string },
): string {
  const named =
    r.idempotencyKey !== undefined
      ? `${r.operatorId}:${r.idempotencyKey}`
      : JSON.stringify(['request', r.operatorId, r.bookingId, r.amountCents ?? 'rest', r.reason]);
  return `operator:${paymentId}:${createHash('sha256').update(named).digest('base64url')}`;
}

/**
 * Whether a request sent again with an Idempotency-Key asks what the first one did: the same reason,
 * and the same amount (none: the rest, whatever the first one found left).
 */
const sameRequest = (row: paymentsRepo.RefundRow, r: { amountCents?: number; reason: string }) =>
  row.reason === r.reason && (r.amountCents === undefined || r.amountCents === row.amountCents);
