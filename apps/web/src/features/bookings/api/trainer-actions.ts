import { useMutation } from '@tanstack/react-query';
import type { TBooking } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';
import { useRefreshBookings } from '@/lib/api/bookings';
import { notify } from '@/lib/toast';

/**
 * The trainer's actions on a schedule row (docs/product.md#booking-and-payment): cancel with a reason
 * the client sees (always a full refund), and mark a no-show after the start. Either refreshes every
 * view of bookings and payments, also after a refusal, which means the list on screen was stale.
 */

/** POST /api/bookings/:id/cancel with `{ reason }`. */
const cancelWithReason = ({ booking, reason }: { booking: Pick<TBooking, '_id'>; reason: string }) =>
  apiRequest<{ message: string; booking: TBooking }>(`/bookings/${encodeURIComponent(booking._id)}/cancel`, {
    method: 'POST',
    body: reason.trim() ? { reason: reason.trim() } : {},
  });

export function useTrainerCancel() {
  const refresh = useRefreshBookings();
  // the toast is the hook's, not the row's: the socket's booking frame can move the row to the history
  // (unmounting it) before this answer arrives, and a `mutate` callback would then never run
  return useMutation({
    mutationFn: cancelWithReason,
    onSuccess: ({ message }) => notify.success(message),
    onSettled: () => refresh(),
  });
}

/** POST /api/bookings/:id/no-show. */
const markNoShow = (booking: Pick<TBooking, '_id'>) =>
  apiRequest<{ message: string; booking: TBooking }>(`/bookings/${encodeURIComponent(booking._id)}/no-show`, { method: 'POST' });

export function useMarkNoShow() {
  const refresh = useRefreshBookings();
  return useMutation({ mutationFn: markNoShow, onSuccess: ({ message }) => notify.success(message), onSettled: () => refresh() });
}
