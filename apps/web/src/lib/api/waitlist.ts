import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TJoinWaitlistRequest, TWaitlistEntry } from '@spotter/shared';
import { apiRequest } from '../api-client';
import { useSession } from '../session';
import { bookingKeys } from './bookings';

/**
 * The waitlist (docs/product.md#waitlist): a user waits for a time of a trainer; a slot freed in the
 * window is held for them. The keys sit under the bookings' (`bookingKeys.all`), so whatever refreshes
 * the bookings (a payment, a cancellation, the socket's booking frame) refreshes the waits too.
 */
const waitlistKeys = {
  all: [...bookingKeys.all, 'waitlist'] as const,
  /** The token is part of the key, so an account switch never shows another's waits. */
  list: (viewer: string | null) => [...waitlistKeys.all, viewer] as const,
};

/** GET /api/waitlist: the caller's waits whose window has not passed, oldest first. */
const getWaitlist = async (signal?: AbortSignal) => {
  const { entries } = await apiRequest<{ entries: TWaitlistEntry[] }>('/waitlist', { signal });
  return entries;
};

/** The signed-in user's waits; nothing is asked for visitors and trainers. */
export function useWaitlist() {
  const { token, role } = useSession();
  return useQuery({
    queryKey: waitlistKeys.list(token),
    queryFn: ({ signal }) => getWaitlist(signal),
    enabled: token !== null && role === 'user',
  });
}

/** POST /api/waitlist: 201 `{ message, entry }`; 400 with `errors.from`/`errors.to`, 409 when already waiting. */
const joinWaitlist = (input: TJoinWaitlistRequest) =>
  apiRequest<{ message: string; entry: TWaitlistEntry }>('/waitlist', { method: 'POST', body: input });

export function useJoinWaitlist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: joinWaitlist,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: waitlistKeys.all }),
  });
}

/** DELETE /api/waitlist/:id: a slot already held stays the user's until they cancel it or it runs out. */
const leaveWaitlist = (id: string) =>
  apiRequest<{ message: string }>(`/waitlist/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useLeaveWaitlist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: leaveWaitlist,
    // a 404 (already gone) means the list on screen is stale too
    onSettled: () => queryClient.invalidateQueries({ queryKey: waitlistKeys.all }),
  });
}
