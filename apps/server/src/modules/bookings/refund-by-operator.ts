import { isId, MONEY_MSG } from '@spotter/shared';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { fromCents } from '../../lib/money';
import { ProviderUnavailableError } from '../money';
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
 */
export async function refundByOperator(
  ctx: BookingsContext,
  { bookingId, amountCents, reason }: { bookingId: string; amountCents?: number; reason: string },
  audit: RefundAudit,
) {
  const booking = isId(bookingId) ? await bookingsRepo.findBooking(ctx.db, bookingId) : undefined;
  if (!booking) throw new AppError('NOT_FOUND', MONEY_MSG.bookingNotFound);
  const payment = await paymentsRepo.findPaymentOfBooking(ctx.db, bookingId);
  if (!payment) return refundSessionFromBalance(ctx, { booking, amountCents, reason }, audit);
  // asked for so far (requested or completed): the key of this request, and the ceiling
  const asked = await paymentsRepo.askedRefundsOf(ctx.db, payment.provider, payment.providerOrderId);
  const left = payment.amountCents - asked;
  if (left <= 0) throw new AppError('CONFLICT', MONEY_MSG.nothingLeft);
  const cents = amountCents ?? left;
  if (cents > left)
    throw new AppError('VALIDATION_FAILED', MONEY_MSG.tooMuch(dollars(left)), { amount: MONEY_MSG.tooMuch(dollars(left)) });

  let pending = false;
  try {
    const outcome = await refundPart(ctx, { payment, amountCents: cents, reason, askedBefore: asked }, (tx, row) =>
      audit(tx, {
        before: { status: booking.status, refundedCents: asked },
        after: { status: booking.status, refundedCents: asked + cents, refundRequestedCents: row.amountCents },
        refundId: row.id,
      }),
    );
    pending = outcome.state === 'in-progress';
  } catch (err) {
    // written, with its job: the provider's silence is an unknown outcome that the job settles
    if (!(err instanceof ProviderUnavailableError)) throw err;
    pending = true;
  }
  const refunded = await paymentsRepo.completedRefundsOf(ctx.db, payment.provider, payment.providerOrderId);
  return {
    refund: {
      bookingId,
      amount: fromCents(cents),
      status: pending ? ('pending' as const) : ('completed' as const),
      refundedTotal: fromCents(refunded),
      left: fromCents(Math.max(0, payment.amountCents - refunded - (pending ? cents : 0))),
    },
    message: pending ? MONEY_MSG.pending(dollars(cents)) : MONEY_MSG.refunded(dollars(cents)),
  };
}
