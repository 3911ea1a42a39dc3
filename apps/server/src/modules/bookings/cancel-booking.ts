import { BOOKING_MSG, PACKAGE_MSG, sessionPolicy, type TBooking } from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import type { Caller } from '../../plugins/auth';
import { returnToBalance } from './book-from-balance';
import { toBooking } from './booking-view';
import * as bookingsRepo from './bookings.repo';
import type { BookingsContext } from './context';
import * as paymentsRepo from './payments.repo';
import { refundPayment } from './refunds';
import { releaseHold } from './release-hold';

/**
 * Cancels a booking (its id validated by the route) for its user or trainer; 404 for anyone else
 * (docs/product.md#booking-and-payment). A hold is released. A confirmed session is refunded in full
 * through the provider and its slot freed: by its user until 24 h before it starts (later, 409; the
 * hours of the policy frozen on it, docs/decisions/052-frozen-session-policy.md), by its trainer at
 * any time before it starts, with a reason the user sees.
 */
export async function cancelBooking(
  ctx: BookingsContext,
  { caller, bookingId, reason }: { caller: Caller; bookingId: string; reason?: string },
): Promise<{ message: string; booking: TBooking }> {
  const { db, log } = ctx;
  const row = await bookingsRepo.findBooking(db, bookingId);
  if (!row || (row.userId !== caller.id && row.trainerId !== caller.id)) throw new AppError('NOT_FOUND', BOOKING_MSG.notFound);
  const by = row.trainerId === caller.id ? 'trainer' : 'user';
  const bookingNow = async () => toBooking((await bookingsRepo.findBooking(db, row.id))!, ctx.now(), by);
  const view = toBooking(row, ctx.now(), by);
  if (view.status === 'pending') {
    if (!(await releaseHold(ctx, { booking: row, by }))) throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
    return { message: BOOKING_MSG.cancelled, booking: await bookingNow() };
  }
  if (view.status !== 'confirmed') throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
  // the user's hours (the session's own policy, `toBooking`); the trainer's: until it starts
  if (!view.isRefundable) {
    throw by === 'user'
      ? new AppError('CANCEL_TOO_LATE', BOOKING_MSG.tooLateToCancelFor(sessionPolicy(row.policy).cancelHours))
      : new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
  }

  // paid from a package: its value goes back to the balance, not to the card (docs/product.md#packages)
  // (a weekly series paid by card, or a balance closed since: to the card)
  if (row.balanceId) {
    const back = await returnToBalance(ctx, { row, by, reason: by === 'trainer' ? reason || null : null });
    if (!back) throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
    return {
      message:
        by === 'trainer'
          ? BOOKING_MSG.trainerCancelled
          : back === 'balance'
            ? PACKAGE_MSG.returnedToBalance
            : BOOKING_MSG.refunded,
      booking: await bookingNow(),
    };
  }
  const payment = await paymentsRepo.findPaymentOfBooking(db, row.id);
  if (!payment || payment.status !== 'completed') {
    log.error({ bookingId: row.id }, 'a confirmed booking without a completed payment');
    throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
  }
  const outcome = await refundPayment(ctx, {
    payment,
    reason: 'cancelled by ' + by,
    cancelledBy: by,
    cancelReason: by === 'trainer' ? reason || null : null,
  });
  // a concurrent cancel wrote the refund first: it makes the one provider call
  if (outcome.state === 'in-progress') throw new AppError('BOOKING_CLOSED', BOOKING_MSG.cancelInProgress);
  if (!outcome.changed) throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
  return { message: by === 'trainer' ? BOOKING_MSG.trainerCancelled : BOOKING_MSG.refunded, booking: await bookingNow() };
}
