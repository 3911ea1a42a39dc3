import { enqueueBookingMails, runBookingMails } from './booking-jobs';
import * as bookingsRepo from './bookings.repo';
import { announceBooking, providerOf, type BookingsContext } from './context';
import * as paymentsRepo from './payments.repo';

type Payment = NonNullable<Awaited<ReturnType<typeof paymentsRepo.findPaymentOfBooking>>>;

/**
 * Refunds a booking's payment in full through the provider it was made with, then marks the payment
 * refunded and its booking confirmed → refunded in one transaction, with the cancellation mails.
 * The request id makes a repeated refund a no-op at the provider. False when the booking was no
 * longer confirmed. `cancelledBy` and the trainer's `cancelReason` are stored on the booking (its
 * user sees them, and the mails state them).
 */
export async function refundBooking(
  ctx: BookingsContext,
  {
    payment,
    reason,
    cancelledBy,
    cancelReason,
  }: { payment: Payment; reason: string; cancelledBy?: 'user' | 'trainer'; cancelReason?: string | null },
): Promise<boolean> {
  const refund = await providerOf(ctx, payment.provider).refundCapture({
    captureId: payment.captureId,
    amountCents: payment.amountCents,
    currency: payment.currency,
    requestId: `spotter-refund-${payment.id}`,
  });
  ctx.log.info({ paymentId: payment.id, refundId: refund.id, reason }, 'payment refunded');
  const { changed, mailJobs } = await ctx.db.transaction(async (tx) => {
    const at = ctx.now();
    await paymentsRepo.markRefunded(tx, payment.id, { refundId: refund.id, refundRaw: refund.raw, at });
    if (
      !(await bookingsRepo.changeStatus(tx, payment.bookingId, 'confirmed', 'refunded', ctx.now(), { cancelledBy, cancelReason }))
    )
      return { changed: false, mailJobs: [] };
    await announceBooking(ctx, tx, { id: payment.bookingId, userId: payment.userId, trainerId: payment.trainerId });
    return { changed: true, mailJobs: await enqueueBookingMails(ctx, tx, payment.bookingId, 'cancelled', { refunded: true }) };
  });
  await runBookingMails(ctx, mailJobs);
  return changed;
}
