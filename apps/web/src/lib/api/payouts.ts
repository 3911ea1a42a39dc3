import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TPayoutAddressRequest, TPayoutAddressResponse, TPayoutsResponse } from '@spotter/shared';
import { apiRequest } from '../api-client';

/**
 * A trainer's payouts (docs/decisions/042-money-ledger.md#payouts): the PayPal address they go to and
 * the payouts made. Settings, the earnings page and the first-run checklist all read these, so a saved
 * address shows everywhere at once.
 */
const payoutKeys = {
  all: ['payouts'] as const,
  /** The token is part of each key, so an account switch never shows another trainer's address or payouts. */
  address: (viewer: string | null) => [...payoutKeys.all, 'address', viewer] as const,
  list: (viewer: string | null) => [...payoutKeys.all, 'list', viewer] as const,
};

/** GET /api/trainer/payout: the address, `email` null when none is set yet. */
const getPayoutAddress = (signal?: AbortSignal) => apiRequest<TPayoutAddressResponse>('/trainer/payout', { signal });

export function usePayoutAddress(viewer: string | null) {
  return useQuery({ queryKey: payoutKeys.address(viewer), queryFn: ({ signal }) => getPayoutAddress(signal) });
}

/** PUT /api/trainer/payout: answers the saved address and the message to show. */
const savePayoutAddress = (input: TPayoutAddressRequest) =>
  apiRequest<TPayoutAddressResponse>('/trainer/payout', { method: 'PUT', body: input });

export function useSavePayoutAddress(viewer: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePayoutAddress,
    onSuccess: (saved) => queryClient.setQueryData<TPayoutAddressResponse>(payoutKeys.address(viewer), { email: saved.email }),
  });
}

/** GET /api/payouts: the trainer's payouts, newest first. */
const getPayouts = (signal?: AbortSignal) => apiRequest<TPayoutsResponse>('/payouts', { signal });

export function usePayouts(viewer: string | null) {
  return useQuery({ queryKey: payoutKeys.list(viewer), queryFn: ({ signal }) => getPayouts(signal) });
}
