import { BOOKING_MSG, type TBooking } from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import type { Caller } from '../../plugins/auth';
import { canMarkNoShow, toBooking } from './booking-view';
import * as bookingsRepo from './bookings.repo';
import { announceBooking, type BookingsContext } from './context';

/**
 * The session's trainer marks that the client did not come (docs/product.md#booking-and-payment):
 * a paid session, once it started and until 7 days after it ended (its frozen policy's `noShowHours`,
 * docs/decisions/052-frozen-session-policy.md). No money moves. 404 for anyone
 * who is not a party, 403 for its user, 409 before the start or when it is not a paid session.
 */
export async function markNoShow(
  ctx: BookingsContext,
  { caller, bookingId }: { caller: Caller; bookingId: string },
): Promise<{ message: string; booking: TBooking }> {
  const { db } = ctx;
  const row = await bookingsRepo.findBooking(db, bookingId);
  if (!row || (row.userId !== caller.id && row.trainerId !== caller.id)) throw new AppError('NOT_FOUND', BOOKING_MSG.notFound);
  if (row.trainerId !== caller.id) throw new AppError('FORBIDDEN', BOOKING_MSG.onlyTrainerNoShow);
  const at = ctx.now();
  if (row.status !== 'confirmed' && row.status !== 'completed')
    throw new AppError('BOOKING_CLOSED', BOOKING_MSG.noShowNotConfirmed);
  if (row.startsAt > at) throw new AppError('CONFLICT', BOOKING_MSG.noShowTooEarly);
  if (!canMarkNoShow(row, at)) throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
  const changed = await db.transaction(async (tx) => {
    if (!(await bookingsRepo.markNoShow(tx, row.id, at))) return false;
    await announceBooking(ctx, tx, row);
    return true;
  });
  if (!changed) throw new AppError('BOOKING_CLOSED', BOOKING_MSG.noShowNotConfirmed);
  return {
    message: BOOKING_MSG.noShowMarked,
    booking: toBooking((await bookingsRepo.findBooking(db, row.id))!, ctx.now(), 'trainer'),
  };
}
