import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TAvailability,
  TAvailabilityRequest,
  TBooking,
  TCreateBookingRequest,
  TDisputeRequest,
  TDisputeResponse,
  TRescheduleBookingRequest,
  TSeriesResponse,
} from '@spotter/shared';
import { apiRequest } from '../api-client';
import { notify } from '../toast';
import { balanceKeys } from './packages';
import { paymentKeys } from './payments';
import { trainerKeys } from './trainers';

/**
 * Bookings (docs/product.md#booking-and-payment): a trainer's weekly availability, a trainer's free slots, the caller's
 * sessions (a user's) or schedule (a trainer's), holding a slot, moving a session and cancelling. One fetcher per
 * endpoint and one key factory, so a booking or a cancellation refreshes every view of it.
 */
export const bookingKeys = {
  all: ['bookings'] as const,
  /** The caller's sessions or schedule; the token is part of the key, so an account switch never shows another's. */
  list: (viewer: string | null) => [...bookingKeys.all, 'list', viewer] as const,
  slotsAll: () => [...bookingKeys.all, 'slots'] as const,
  slots: (trainerId: string) => [...bookingKeys.slotsAll(), trainerId] as const,
  availability: () => [...bookingKeys.all, 'availability'] as const,
};

/** GET /api/trainer/availability: the logged-in trainer's weekly hours and time zone. */
const getAvailability = (signal?: AbortSignal) => apiRequest<TAvailability>('/trainer/availability', { signal });

export function useAvailability() {
  return useQuery({ queryKey: bookingKeys.availability(), queryFn: ({ signal }) => getAvailability(signal) });
}

/** PUT /api/trainer/availability: answers what was saved (days merged, hours sorted). */
const saveAvailability = (input: TAvailabilityRequest) =>
  apiRequest<TAvailability>('/trainer/availability', { method: 'PUT', body: input });

export function useSaveAvailability() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAvailability,
    onSuccess: (saved) => {
      queryClient.setQueryData(bookingKeys.availability(), saved);
      return queryClient.invalidateQueries({ queryKey: bookingKeys.slotsAll() });
    },
  });
}

/** GET /api/trainers/:id/slots: free one-hour slots of the next 14 days, UTC ISO start times, soonest first. */
const getSlots = (trainerId: string, signal?: AbortSignal) =>
  apiRequest<{ slots: string[]; timeZone: string }>(`/trainers/${encodeURIComponent(trainerId)}/slots`, { signal });

const slotsQueryOptions = (trainerId: string) =>
  queryOptions({ queryKey: bookingKeys.slots(trainerId), queryFn: ({ signal }) => getSlots(trainerId, signal) });

export function useSlots(trainerId: string) {
  // Slots go quickly: always ask again when the booking dialog opens.
  return useQuery({ ...slotsQueryOptions(trainerId), staleTime: 0 });
}

/** GET /api/bookings: a user's sessions or a trainer's schedule, upcoming first. */
const getBookings = async (signal?: AbortSignal) => {
  const { bookings } = await apiRequest<{ bookings: TBooking[] }>('/bookings', { signal });
  return bookings;
};

export function useBookings(viewer: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: bookingKeys.list(viewer), queryFn: ({ signal }) => getBookings(signal), enabled });
}

/**
 * POST /api/bookings: holds the slot for the user while they pay (201), 409 when it was just taken; with
 * `payWith: 'balance'` it is booked and paid from the package balance at once (confirmed).
 */
const createBooking = async (input: TCreateBookingRequest) => {
  const { booking } = await apiRequest<{ booking: TBooking }>('/bookings', { method: 'POST', body: input });
  return booking;
};

export function useCreateBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBooking,
    onSettled: (_booking, _error, { trainerId }) => queryClient.invalidateQueries({ queryKey: bookingKeys.slots(trainerId) }),
  });
}

/**
 * POST /api/bookings { weeks, payWith: 'balance' }: a standing weekly series paid from the package balance
 * (docs/product.md#standing-weekly-sessions): 201 with the weeks booked and the weeks that were not free, with why;
 * 409 when there is no balance or no week is free.
 */
const createSeries = (input: TCreateBookingRequest & { weeks: 4 | 8 | 12 }) =>
  apiRequest<TSeriesResponse>('/bookings', { method: 'POST', body: { ...input, payWith: 'balance' } });

export function useCreateSeries() {
  const refresh = useRefreshBookings();
  return useMutation({
    mutationFn: createSeries,
    // the slots, the sessions and the balance all changed (or a 409 says the ones on screen are stale)
    onSettled: (_answer, _error, { trainerId }) => refresh(trainerId),
  });
}

/**
 * POST /api/bookings { weeks }: a standing weekly series paid by card (docs/product.md#standing-weekly-sessions): 201
 * with the free weeks held for the user (pending, one `seriesId`, paid together with POST /api/orders { seriesId }) and
 * the weeks that were not free, with why; 409 when no week is free or the user holds too many times already.
 */
const holdSeries = (input: TCreateBookingRequest & { weeks: 4 | 8 | 12 }) =>
  apiRequest<TSeriesResponse>('/bookings', {
    method: 'POST',
    body: { trainerId: input.trainerId, startsAt: input.startsAt, weeks: input.weeks },
  });

export function useHoldSeries() {
  const refresh = useRefreshBookings();
  return useMutation({
    mutationFn: holdSeries,
    // the slots and the sessions changed (or a 409 says the ones on screen are stale)
    onSettled: (_answer, _error, { trainerId }) => refresh(trainerId),
  });
}

/** POST /api/bookings/:id/cancel: releases a hold, or refunds a paid session more than 24 h ahead. */
export const cancelBooking = (bookingId: string) =>
  apiRequest<{ message: string; booking: TBooking }>(`/bookings/${encodeURIComponent(bookingId)}/cancel`, { method: 'POST' });

/** What a booking, payment or cancellation changes: sessions, slots, payments, package balances and the trainer's subscribers. */
export function useRefreshBookings() {
  const queryClient = useQueryClient();
  return (trainerId?: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
      queryClient.invalidateQueries({ queryKey: paymentKeys.all }),
      queryClient.invalidateQueries({ queryKey: balanceKeys.all }),
      trainerId ? queryClient.invalidateQueries({ queryKey: trainerKeys.detail(trainerId) }) : undefined,
    ]);
}

export function useCancelBooking() {
  const refresh = useRefreshBookings();
  return useMutation({
    mutationFn: (booking: Pick<TBooking, '_id' | 'trainerId'>) => cancelBooking(booking._id),
    // the hook's toast, not the card's: the socket's booking frame can move the card (unmounting its
    // dialog) before this answer arrives, and a `mutate` callback would then never run
    onSuccess: ({ message }) => notify.success(message),
    // a 409 (too late, already over) means the list on screen is stale too
    onSettled: (_answer, _error, booking) => refresh(booking.trainerId),
  });
}

/** POST /api/bookings/:id/reschedule: its user moves a paid session to another free slot; no money moves. */
const rescheduleBooking = (bookingId: string, input: TRescheduleBookingRequest) =>
  apiRequest<{ message: string; booking: TBooking }>(`/bookings/${encodeURIComponent(bookingId)}/reschedule`, {
    method: 'POST',
    body: input,
  });

export function useRescheduleBooking() {
  const queryClient = useQueryClient();
  const refresh = useRefreshBookings();
  const lists = { queryKey: [...bookingKeys.all, 'list'] };
  return useMutation({
    mutationFn: ({ booking, startsAt }: { booking: Pick<TBooking, '_id' | 'trainerId'>; startsAt: string }) =>
      rescheduleBooking(booking._id, { startsAt }),
    // The card takes the new time as the request leaves: the server pushes the move over the socket
    // before it answers, and the push then finds nothing new to toast (ws-client.ts), so the person
    // sees one message, the server's. A refusal puts the old time back.
    onMutate: async ({ booking, startsAt }) => {
      await queryClient.cancelQueries(lists);
      const previous = queryClient.getQueriesData<TBooking[]>(lists);
      queryClient.setQueriesData<TBooking[]>(lists, (rows) =>
        rows?.map((row) =>
          row._id === booking._id
            ? {
                ...row,
                startsAt,
                endsAt: new Date(Date.parse(startsAt) + Date.parse(row.endsAt) - Date.parse(row.startsAt)).toISOString(),
              }
            : row,
        ),
      );
      return { previous };
    },
    onError: (_error, _input, context) => context?.previous.forEach(([key, rows]) => queryClient.setQueryData(key, rows)),
    onSuccess: ({ message, booking }) => {
      queryClient.setQueriesData<TBooking[]>(lists, (rows) => rows?.map((row) => (row._id === booking._id ? booking : row)));
      // the hook's toast, as cancelling's: the dialog may be gone by the time this answer arrives
      notify.success(message);
    },
    // the slots changed either way (the old time is free, or the new one was just taken: 409), and a
    // refusal (too late, no longer paid) means the list on screen is stale too
    onSettled: (_answer, _error, { booking }) => refresh(booking.trainerId),
  });
}

/**
 * POST /api/bookings/:id/release: its user offers a paid session inside 24 hours to others
 * (docs/product.md#releasing-a-late-session); it stays theirs and paid until somebody books the slot.
 */
const releaseBooking = (bookingId: string) =>
  apiRequest<{ message: string; booking: TBooking }>(`/bookings/${encodeURIComponent(bookingId)}/release`, { method: 'POST' });

export function useReleaseBooking() {
  const queryClient = useQueryClient();
  const refresh = useRefreshBookings();
  const lists = { queryKey: [...bookingKeys.all, 'list'] };
  return useMutation({
    mutationFn: (booking: Pick<TBooking, '_id' | 'trainerId'>) => releaseBooking(booking._id),
    onSuccess: ({ message, booking }) => {
      queryClient.setQueriesData<TBooking[]>(lists, (rows) => rows?.map((row) => (row._id === booking._id ? booking : row)));
      // the hook's toast, as cancelling's: the dialog may be gone by the time this answer arrives
      notify.success(message);
    },
    // a 409 (released already, too early, started) means the list on screen is stale too
    onSettled: (_answer, _error, booking) => refresh(booking.trainerId),
  });
}

/**
 * POST /api/bookings/:id/dispute: its user reports a problem with a paid session that has ended
 * (docs/product.md#disputes). 201 with the dispute and the server's words: decided at once by a rule, or open
 * for an operator; 409 when it was disputed already or cannot be.
 */
const disputeBooking = (bookingId: string, input: TDisputeRequest) =>
  apiRequest<TDisputeResponse>(`/bookings/${encodeURIComponent(bookingId)}/dispute`, { method: 'POST', body: input });

export function useDisputeBooking() {
  const queryClient = useQueryClient();
  const refresh = useRefreshBookings();
  const lists = { queryKey: [...bookingKeys.all, 'list'] };
  return useMutation({
    mutationFn: ({ booking, input }: { booking: Pick<TBooking, '_id' | 'trainerId'>; input: TDisputeRequest }) =>
      disputeBooking(booking._id, input),
    // the card says it is disputed at once (its Report a problem gone), before the lists are asked again
    onSuccess: ({ dispute }, { booking }) =>
      queryClient.setQueriesData<TBooking[]>(lists, (rows) =>
        rows?.map((row) => (row._id === booking._id ? { ...row, disputableUntil: null, disputeStatus: dispute.status } : row)),
      ),
    // a refund by rule changes the payments too; a 409 (disputed already) means the list on screen is stale
    onSettled: (_answer, _error, { booking }) => refresh(booking.trainerId),
  });
}
