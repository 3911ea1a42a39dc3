import { BOOKING_RULES, DEFAULT_TIME_ZONE, POLICY_V1, type TBooking } from '@spotter/shared';
import { fromCents } from '../../lib/money';
import { FORMER_MEMBER } from '../accounts';
import type { BookingRow } from './bookings.repo';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
/** A trainer may mark a session a no-show from its start until this long after its end. */
const NO_SHOW_WINDOW_MS = 7 * DAY;

/** Who looks at a booking: its user, or its trainer. */
type BookingViewer = 'user' | 'trainer';

/**
 * What a booking looks like to its user or its trainer, with the status as of `now`
 * (docs/product.md#booking-and-payment): the user cancels a paid session for a refund until 24 hours
 * before it starts; the trainer cancels a paid session any time before it starts (always refunded in
 * full) and marks a no-show once it started.
 */
export function toBooking(row: BookingRow, now: Date, viewer: BookingViewer): TBooking {
  const at = now.getTime();
  const lapsed = row.status === 'pending' && (!row.holdExpiresAt || row.holdExpiresAt <= now);
  const over = row.status === 'confirmed' && row.endsAt <= now;
  const status = lapsed ? 'expired' : over ? 'completed' : row.status;
  const started = row.startsAt.getTime() <= at;
  const deadline = row.startsAt.getTime() - BOOKING_RULES.cancelHours * HOUR;
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
    timeZone: row.timeZone ?? DEFAULT_TIME_ZONE,
    location: row.location ?? null,
    cancelledBy: cancelled ? (row.cancelledBy ?? null) : null,
    cancelReason: cancelled ? (row.cancelReason ?? null) : null,
    canMarkNoShow: viewer === 'trainer' && canMarkNoShow(row, now),
    paidFromBalance: row.balanceKind === 'package',
    seriesId: row.seriesId ?? null,
    releasedAt: row.releasedAt?.toISOString() ?? null,
    // inside the 24 hours (no refund), before it starts, once (docs/product.md#releasing-a-late-session)
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
  const until = row.endsAt.getTime() + (row.policy ?? POLICY_V1).disputeHours * HOUR;
  return until > now.getTime() ? new Date(until).toISOString() : null;
}

/** Whether the session's trainer may mark it a no-show at `now`: paid, started, and ended at most 7 days ago. */
export function canMarkNoShow(row: Pick<BookingRow, 'status' | 'startsAt' | 'endsAt'>, now: Date): boolean {
  const at = now.getTime();
  return (
    (row.status === 'confirmed' || row.status === 'completed') &&
    row.startsAt.getTime() <= at &&
    at < row.endsAt.getTime() + NO_SHOW_WINDOW_MS
  );
}

/**
 * When a list of bookings shown at `at` changes by itself, without a write (ms; undefined: never):
 * a hold runs out (the booking leaves the list), the cancellation deadline passes (no longer
 * refundable), a session starts (the trainer can no longer cancel it, and can mark a no-show) or
 * ends (completed, and no longer upcoming), the no-show window closes.
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
      consider(Date.parse(b.startsAt) - BOOKING_RULES.cancelHours * HOUR);
      consider(Date.parse(b.startsAt));
    }
    if (b.status === 'confirmed' || b.status === 'completed') consider(endsAt + NO_SHOW_WINDOW_MS);
  }
  return next === Infinity ? undefined : next;
}
