import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { TOwnAccount, TOwnTrainer } from '@spotter/shared';
import { apiRequest } from '../api-client';
import type { Role } from '../paths';
import { storage } from '../storage';

/**
 * The logged-in account (GET /api/userData or /api/trainerData) and what hangs off it. The
 * layout (verification reminder), login, profile, settings and the review form all read it.
 */
export type OwnAccount = TOwnAccount | TOwnTrainer;

export const accountKeys = {
  all: ['account'] as const,
  /** Everything of one role's account: a save in settings invalidates this. */
  ofRole: (role: Role) => [...accountKeys.all, role] as const,
  own: (role: Role) => [...accountKeys.ofRole(role), 'own'] as const,
  weights: (role: Role) => [...accountKeys.ofRole(role), 'weights'] as const,
};

async function getOwnAccount(role: Role): Promise<OwnAccount> {
  if (role === 'trainer') {
    const { trainerData } = await apiRequest<{ trainerData: TOwnTrainer }>('/trainerData');
    return trainerData;
  }
  const { userData } = await apiRequest<{ userData: TOwnAccount }>('/userData');
  storage.setUserData(userData); // docs/product.md#browser-storage: the profile is kept for users
  return userData;
}

export const ownAccountQueryOptions = (role: Role) =>
  queryOptions({ queryKey: accountKeys.own(role), queryFn: () => getOwnAccount(role) });

export function useOwnAccount(role: Role | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    ...ownAccountQueryOptions(role ?? 'user'),
    enabled: enabled && role !== null,
  });
}

/** POST /api/verify/resend: a new verification link for the logged-in account. */
const resendVerification = () => apiRequest<{ message: string }>('/verify/resend', { method: 'POST' });

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
