import { BOOKING_MSG, sessionPolicy, type TBooking } from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import type { Caller } from '../../plugins/auth';
import { returnToBalance } from './book-from-balance';
import { RELEASE_JOBS, RUN_NOW_CLAIM_MS, runBookingMails } from './booking-jobs';
import { cancelDeadline, toBooking } from './booking-view';
import * as bookingsRepo from './bookings.repo';
import { announceBooking, type BookingsContext } from './context';
import * as paymentsRepo from './payments.repo';
import { refundPayment } from './refunds';

/**
 * Its user gives a paid session inside 24 hours back for resale (docs/product.md#releasing-a-late-session):
 * it stays theirs and paid, and its slot is free for others: the waitlist is offered it (the
 * database's trigger, offer-freed-slot.ts), the people who favourited the trainer are told, and
 * anyone may book it. When somebody does, the user is refunded in full (`refundReleased`); if nobody
 * does, nothing changes.
 */
export async function releaseBooking(
  ctx: BookingsContext,
  { caller, bookingId }: { caller: Caller; bookingId: string },
): Promise<{ message: string; booking: TBooking }> {
  if (caller.role !== 'user') throw new AppError('FORBIDDEN_ROLE', BOOKING_MSG.onlyClientReleases);
  const row = await bookingsRepo.findBooking(ctx.db, bookingId);
  if (!row || row.userId !== caller.id) throw new AppError('NOT_FOUND', BOOKING_MSG.notFound);
  const at = ctx.now();
  const view = toBooking(row, at, 'user');
  if (view.status !== 'confirmed') throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
  if (row.startsAt <= at) throw new AppError('BOOKING_CLOSED', BOOKING_MSG.releaseStarted);
  if (row.releasedAt) throw new AppError('CONFLICT', BOOKING_MSG.alreadyReleased);
  // before its own cancellation deadline it is cancelled for a refund instead (docs/decisions/052-frozen-session-policy.md)
  if (cancelDeadline(row) > at.getTime())
    throw new AppError('CONFLICT', BOOKING_MSG.releaseTooEarlyFor(sessionPolicy(row.policy).cancelHours));
  const jobs = await ctx.db.transaction(async (tx) => {
    if (!(await bookingsRepo.markReleased(tx, row.id, at))) throw new AppError('CONFLICT', BOOKING_MSG.alreadyReleased);
    await announceBooking(ctx, tx, row);
    return [
      await ctx.jobs.enqueue(tx, {
        kind: RELEASE_JOBS.tellFavourites,
        runAt: at,
        payload: { bookingId: row.id },
        claimFor: RUN_NOW_CLAIM_MS,
      }),
    ];
  });
  await runBookingMails(ctx, jobs);
  return {
    message: BOOKING_MSG.released,
    booking: toBooking((await bookingsRepo.findBooking(ctx.db, row.id))!, ctx.now(), 'user'),
  };
}

/**
 * The job run when somebody else booked a released session's slot: the session is cancelled and its
 * user refunded in full through the provider (or, paid from a package, its part put back in the
 * balance), with the mails. Once, whatever retries happen: the refund's key is the payment's, and a
 * session no longer confirmed is left alone.
 */
export async function refundReleased(ctx: BookingsContext, bookingId: string): Promise<void> {
  const row = await bookingsRepo.findBooking(ctx.db, bookingId);
  if (!row || row.status !== 'confirmed' || !row.releasedAt) return;
  if (row.balanceId) {
    await returnToBalance(ctx, { row, by: 'user', reason: null });
    return;
  }
  const payment = await paymentsRepo.findPaymentOfBooking(ctx.db, row.id);
  if (!payment || payment.status !== 'completed') {
    ctx.log.error({ bookingId }, 'a released session without a completed payment');
    return;
  }
  // a provider that does not answer leaves the refund to its own job (refunds.ts)
  await refundPayment(ctx, { payment, reason: 'released, and booked by someone else', cancelledBy: 'user', cancelReason: null });
}
