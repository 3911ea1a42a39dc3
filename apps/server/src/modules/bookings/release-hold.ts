import { announceBooking, type BookingsContext } from './context';
import * as repo from './bookings.repo';

/**
 * An unpaid hold is released; false when it was no longer pending. Under its user's account lock,
 * as `holdSlot` is, so a hold of the same slot racing it sees the release (and its 10-minute wait,
 * docs/decisions/035-hold-cooldown-and-whole-inbox.md).
 */
export async function releaseHold(
  ctx: Pick<BookingsContext, 'db' | 'now' | 'events'>,
  { booking, by }: { booking: Pick<repo.BookingRow, 'id' | 'userId' | 'trainerId'>; by: 'user' | 'trainer' },
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    await repo.lockAccount(tx, booking.userId);
    if (!(await repo.changeStatus(tx, booking.id, 'pending', 'cancelled', ctx.now(), { cancelledBy: by }))) return false;
    await announceBooking(ctx, tx, booking);
    return true;
  });
}
