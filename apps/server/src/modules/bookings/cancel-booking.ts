import { BOOKING_MSG, type TBooking } from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import type { Caller } from '../../plugins/auth';
import { toBooking } from './booking-view';
import * as bookingsRepo from './bookings.repo';
import type { BookingsContext } from './context';
import * as paymentsRepo from './payments.repo';
import { refundBooking } from './refund-booking';
import { releaseHold } from './release-hold';

/**
 * Cancels a booking (its id validated by the route) for its user or trainer; 404 for anyone else.
 * A hold is released; a confirmed session more than 24 h ahead is refunded through the provider and
 * its slot freed; later than that, 409.
 */
export async function cancelBooking(
  ctx: BookingsContext,
  { caller, bookingId }: { caller: Caller; bookingId: string },
): Promise<{ message: string; booking: TBooking }> {
  const { db, log } = ctx;
  const row = await bookingsRepo.findBooking(db, bookingId);
  if (!row || (row.userId !== caller.id && row.trainerId !== caller.id)) throw new AppError('NOT_FOUND', BOOKING_MSG.notFound);
  const bookingNow = async () => toBooking((await bookingsRepo.findBooking(db, row.id))!, ctx.now());
  const view = toBooking(row, ctx.now());
  if (view.status === 'pending') {
    if (!(await releaseHold(ctx, { booking: row }))) throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
    return { message: BOOKING_MSG.cancelled, booking: await bookingNow() };
  }
  if (view.status !== 'confirmed') throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
  if (!view.isRefundable) throw new AppError('CANCEL_TOO_LATE', BOOKING_MSG.tooLateToCancel);

  const payment = await paymentsRepo.findPaymentOfBooking(db, row.id);
  if (!payment || payment.status !== 'completed') {
    log.error({ bookingId: row.id }, 'a confirmed booking without a completed payment');
    throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
  }
  const changed = await refundBooking(ctx, { payment, reason: 'cancelled by ' + caller.role });
  if (!changed) throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
  return { message: BOOKING_MSG.refunded, booking: await bookingNow() };
}
