import { BOOKING_RULES, type TBooking } from '@spotter/shared';
import { fromCents } from '../../lib/money';
import { FORMER_MEMBER } from '../accounts';
import type { BookingRow } from './bookings.repo';

const HOUR = 60 * 60_000;

/** What a booking looks like to the caller, with the status as of `now`. */
export function toBooking(row: BookingRow, now: Date): TBooking {
  const lapsed = row.status === 'pending' && (!row.holdExpiresAt || row.holdExpiresAt <= now);
  const over = row.status === 'confirmed' && row.endsAt <= now;
  const status = lapsed ? 'expired' : over ? 'completed' : row.status;
  const isRefundable = status === 'confirmed' && row.startsAt.getTime() - now.getTime() > BOOKING_RULES.cancelHours * HOUR;
  const trainerGone = row.trainerDeletedAt !== null;
  const userGone = row.userDeletedAt !== null;
  return {
    _id: row.id,
    trainerId: row.trainerId,
    userId: row.userId,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    status,
    price: fromCents(row.priceCents),
    currency: row.currency,
    holdExpiresAt: status === 'pending' && row.holdExpiresAt ? row.holdExpiresAt.toISOString() : null,
    trainerFirstName: trainerGone ? FORMER_MEMBER.firstName : row.trainerFirstName,
    trainerLastName: trainerGone ? FORMER_MEMBER.lastName : row.trainerLastName,
    userFirstName: userGone ? FORMER_MEMBER.firstName : row.userFirstName,
    userLastName: userGone ? FORMER_MEMBER.lastName : row.userLastName,
    canCancel: status === 'pending' || isRefundable,
    isRefundable,
    // TODO(issue 29): the trainer's zone and place, who cancelled, the trainer's actions
    cancellableUntil: isRefundable ? new Date(row.startsAt.getTime() - BOOKING_RULES.cancelHours * HOUR).toISOString() : null,
    timeZone: 'Africa/Cairo',
    location: null,
    cancelledBy: null,
    cancelReason: null,
    canMarkNoShow: false,
  };
}

/**
 * When a list of bookings shown at `at` changes by itself, without a write (ms; undefined: never):
 * a hold runs out (the booking leaves the list), a session ends (completed, and no longer
 * upcoming), the cancellation deadline passes (no longer refundable).
 */
export function nextChangeOf(list: readonly TBooking[], at: Date): number | undefined {
  let next = Infinity;
  const consider = (t: number) => {
    if (t > at.getTime() && t < next) next = t;
  };
  for (const b of list) {
    consider(Date.parse(b.endsAt));
    if (b.status === 'pending' && b.holdExpiresAt) consider(Date.parse(b.holdExpiresAt));
    if (b.status === 'confirmed') consider(Date.parse(b.startsAt) - BOOKING_RULES.cancelHours * HOUR);
  }
  return next === Infinity ? undefined : next;
}
