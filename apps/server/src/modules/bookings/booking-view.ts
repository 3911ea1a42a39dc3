import { DEFAULT_TIME_ZONE, sessionPolicy, type TBooking } from '@spotter/shared';
import { fromCents } from '../../lib/money';
import { FORMER_MEMBER } from '../accounts';
import type { BookingRow } from './bookings.repo';

const HOUR = 60 * 60_000;

/** Who looks at a booking: its user, or its trainer. */
type BookingViewer = 'user' | 'trainer';

/**
 * What a booking looks like to its user or its trainer, with the status as of `now`
 * (docs/product.md#booking-and-payment): the user cancels a paid session for a refund until 24 hours
 * before it starts; the trainer cancels a paid session any time before it starts (always refunded in
 * full) and marks a no-show once it started. The hours are the session's own, frozen on it when it was
 * booked (docs/decisions/052-frozen-session-policy.md).
 */
export function toBooking(row: BookingRow, now: Date, viewer: BookingViewer): TBooking {
  const at = now.getTime();
  const lapsed = row.status === 'pending' && (!row.holdExpiresAt || row.holdExpiresAt <= now);
  const over = row.status === 'confirmed' && row.endsAt <= now;
  const status = lapsed ? 'expired' : over ? 'completed' : row.status;
  const started = row.startsAt.getTime() <= at;
  const policy = sessionPolicy(row.policy);
  const deadline = cancelDeadline(row);
  const isRefundable = status === 'confirmed' && (viewer === 'trainer' ? !started : deadline > at);
  const trainerGone = row.trainerDeletedAt !== null;
  const userGone = row.userDeletedAt !== null;
  const cancelled = row.status === 'cancelled' || row.status === 'refunded';
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
    cancellableUntil: (status === 'confirmed' || status === 'pending') && deadline > at ? new Date(deadline).toISOString() : null,
    policy,
    timeZone: row.timeZone ?? DEFAULT_TIME_ZONE,
    location: row.location ?? null,
    cancelledBy: cancelled ? (row.cancelledBy ?? null) : null,
    cancelReason: cancelled ? (row.cancelReason ?? null) : null,
    canMarkNoShow: viewer === 'trainer' && canMarkNoShow(row, now),
    paidFromBalance: row.balanceKind === 'package',
    seriesId: row.seriesId ?? null,
    releasedAt: row.releasedAt?.toISOString() ?? null,
    // inside its cancellation hours (no refund), before it starts, once (docs/product.md#releasing-a-late-session)
    canRelease: viewer === 'user' && status === 'confirmed' && !started && deadline <= at && !row.releasedAt,
    // its user moves a paid session while it can still be cancelled for a refund (reschedule-booking.ts)
    canReschedule: viewer === 'user' && status === 'confirmed' && deadline > at,
    disputableUntil: viewer === 'user' ? disputableUntil(row, now) : null,
    disputeStatus: row.disputeStatus ?? null,
  };
}

/**
 * Until when the session's user may dispute it (docs/decisions/047-disputes-by-rule.md): a paid session
 * (confirmed, completed or marked a no-show) that has ended and has no dispute, until the frozen
 * policy's window after its end; null otherwise.
 */
function disputableUntil(row: Pick<BookingRow, 'status' | 'endsAt' | 'policy' | 'disputeStatus'>, now: Date): string | null {
  const paid = row.status === 'confirmed' || row.status === 'completed' || row.status === 'no-show';
  if (!paid || row.disputeStatus || row.endsAt > now) return null;
  const until = row.endsAt.getTime() + sessionPolicy(row.policy).disputeHours * HOUR;
  return until > now.getTime() ? new Date(until).toISOString() : null;
}

/**
 * Until when (ms) its user may cancel the session for a full refund, or move it: its start minus its
 * own frozen policy's `cancelHours` (docs/decisions/052-frozen-session-policy.md).
 */
export function cancelDeadline(row: Pick<BookingRow, 'startsAt' | 'policy'>): number {
  return row.startsAt.getTime() - sessionPolicy(row.policy).cancelHours * HOUR;
}

/**
 * Whether the session's trainer may mark it a no-show at `now`: paid, started, and ended at most its
 * frozen policy's `noShowHours` ago (7 days today; docs/decisions/052-frozen-session-policy.md).
 */
export function canMarkNoShow(row: Pick<BookingRow, 'status' | 'startsAt' | 'endsAt' | 'policy'>, now: Date): boolean {
  const at = now.getTime();
  return (
    (row.status === 'confirmed' || row.status === 'completed') &&
    row.startsAt.getTime() <= at &&
    at < row.endsAt.getTime() + sessionPolicy(row.policy).noShowHours * HOUR
  );
}

/**
 * When a list of bookings shown at `at` changes by itself, without a write (ms; undefined: never):
 * a hold runs out (the booking leaves the list), the cancellation deadline passes (no longer
 * refundable), a session starts (the trainer can no longer cancel it, and can mark a no-show) or
 * ends (completed, and no longer upcoming), the no-show window closes; each by the session's own policy.
 */
export function nextChangeOf(list: readonly TBooking[], at: Date): number | undefined {
  let next = Infinity;
  const consider = (t: number) => {
    if (t > at.getTime() && t < next) next = t;
  };
  for (const b of list) {
    const endsAt = Date.parse(b.endsAt);
    consider(endsAt);
    if (b.status === 'pending' && b.holdExpiresAt) consider(Date.parse(b.holdExpiresAt));
    if (b.status === 'confirmed') {
      consider(Date.parse(b.startsAt) - b.policy.cancelHours * HOUR);
      consider(Date.parse(b.startsAt));
    }
    if (b.status === 'confirmed' || b.status === 'completed') consider(endsAt + b.policy.noShowHours * HOUR);
  }
  return next === Infinity ? undefined : next;
}
