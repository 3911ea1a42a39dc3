import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TBalance, TPutPackagesRequest, TTrainerPackage, TTrainerProfile } from '@spotter/shared';
import { apiRequest } from '../api-client';
import { paymentKeys } from './payments';
import { trainerKeys } from './trainers';

/**
 * Packages (docs/product.md#packages): what a trainer sells (on their public profile), and what a user
 * bought: a money balance per trainer, shown in the booking dialog, on the profile and the payments page.
 */
export const balanceKeys = {
  all: ['balances'] as const,
  /** The token is part of the key, so an account switch never shows another's balances. */
  list: (viewer: string | null) => [...balanceKeys.all, 'list', viewer] as const,
};

/** GET /api/balances: the user's package balances, one per trainer. */
const getBalances = async (signal?: AbortSignal) => {
  const { balances } = await apiRequest<{ balances: TBalance[] }>('/balances', { signal });
  return balances;
};

export function useBalances(viewer: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: balanceKeys.list(viewer), queryFn: ({ signal }) => getBalances(signal), enabled });
}

/** A balance that pays for a session now: active, with a session left and not expired. */
export const isUsable = (balance: TBalance, now = Date.now()) =>
  balance.status === 'active' && balance.sessionsLeft > 0 && (balance.expiresAt === null || Date.parse(balance.expiresAt) > now);

/** The user's balance with one trainer, if any (any status). */
export function useBalanceWith(trainerId: string, viewer: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  const balances = useBalances(viewer, { enabled });
  return balances.data?.find((balance) => balance.trainerId === trainerId) ?? null;
}

/** POST /api/balances/:trainerId/refund: the unused rest back through the provider (409: nothing to refund). */
const refundBalance = (trainerId: string) =>
  apiRequest<{ message: string; refundedAmount: number }>(`/balances/${encodeURIComponent(trainerId)}/refund`, {
    method: 'POST',
  });

export function useRefundBalance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundBalance,
    // a 409 (refunded already, nothing left) means the list on screen is stale too
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: balanceKeys.all }),
        queryClient.invalidateQueries({ queryKey: paymentKeys.all }),
      ]),
  });
}

/** PUT /api/trainer/packages: the trainer's packages as they are to be; answers them as saved. */
const savePackages = (input: TPutPackagesRequest) =>
  apiRequest<{ message: string; packages: TTrainerPackage[] }>('/trainer/packages', { method: 'PUT', body: input });

/** Saves the packages of the trainer `trainerId` and puts them on their public profile's copy. */
export function useSavePackages(trainerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePackages,
    onSuccess: ({ packages }) => {
      queryClient.setQueryData<TTrainerProfile>(trainerKeys.detail(trainerId), (profile) =>
        profile ? { ...profile, packages } : profile,
      );
      return queryClient.invalidateQueries({ queryKey: trainerKeys.detail(trainerId) });
    },
  });
}
