import type { TBooking } from '@spotter/shared';
import type { Db } from '../../db/client';
import { toBooking } from './booking-view';
import * as repo from './bookings.repo';

/**
 * A booking as each of its two people sees it, for the socket's `booking` frame after the module
 * announced a change (context.ts `announceBooking`); undefined when it no longer exists.
 */
export async function bookingViewsForPush(
  db: Db,
  bookingId: string,
  now: Date,
): Promise<{ userId: string; trainerId: string; user: TBooking; trainer: TBooking } | undefined> {
  const row = await repo.findBooking(db, bookingId);
  if (!row) return undefined;
  return {
    userId: row.userId,
    trainerId: row.trainerId,
    user: toBooking(row, now, 'user'),
    trainer: toBooking(row, now, 'trainer'),
  };
}
