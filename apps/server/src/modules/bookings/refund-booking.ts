import type * as paymentsRepo from './payments.repo';
import type { BookingsContext } from './context';
import { refundPayment } from './refunds';

type Payment = NonNullable<Awaited<ReturnType<typeof paymentsRepo.findPaymentOfBooking>>>;

/**
 * Refunds a booking's payment in full through the provider it was made with and moves the booking
 * confirmed → refunded with the cancellation mails (refunds.ts: the refund is written first, the
 * ledger records it, concurrent calls make one provider call). True when this call refunded it;
 * false when it was no longer confirmed or another call is refunding it. `cancelledBy` and the
 * trainer's `cancelReason` are stored on the booking (its user sees them, and the mails state them).
 */
export async function refundBooking(
  ctx: BookingsContext,
  args: { payment: Payment; reason: string; cancelledBy?: 'user' | 'trainer'; cancelReason?: string | null },
): Promise<boolean> {
  const outcome = await refundPayment(ctx, args);
  return outcome.state === 'completed' && outcome.changed;
}
