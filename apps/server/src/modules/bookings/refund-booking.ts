import { enqueueBookingMails, runBookingMails } from './booking-jobs';
import * as bookingsRepo from './bookings.repo';
import { providerOf, type BookingsContext } from './context';
import * as paymentsRepo from './payments.repo';

type Payment = NonNullable<Awaited<ReturnType<typeof paymentsRepo.findPaymentOfBooking>>>;

/**
 * Refunds a booking's payment in full through the provider it was made with, then marks the payment
 * refunded and its booking confirmed → refunded in one transaction, with the cancellation mails.
 * The request id makes a repeated refund a no-op at the provider. False when the booking was no
 * longer confirmed.
 */
export async function refundBooking(
  ctx: BookingsContext,
  { payment, reason }: { payment: Payment; reason: string },
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
    if (!(await bookingsRepo.changeStatus(tx, payment.bookingId, 'confirmed', 'refunded', ctx.now())))
      return { changed: false, mailJobs: [] };
    return { changed: true, mailJobs: await enqueueBookingMails(ctx, tx, payment.bookingId, 'cancelled', { refunded: true }) };
  });
  await runBookingMails(ctx, mailJobs);
  return changed;
}
