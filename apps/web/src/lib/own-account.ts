import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TOwnAccount, TOwnTrainer } from '@spotter/shared';
import { apiRequest } from './api-client';
import type { Role } from './paths';
import { storage } from './storage';

/**
 * The logged-in account (GET /api/userData or /api/trainerData). Lives in lib because the layout
 * (verification reminder), login and profile all read it.
 */
export type OwnAccount = TOwnAccount | TOwnTrainer;

export async function getOwnAccount(role: Role): Promise<OwnAccount> {
  if (role === 'trainer') {
    const { trainerData } = await apiRequest<{ trainerData: TOwnTrainer }>('/trainerData');
    return trainerData;
  }
  const { userData } = await apiRequest<{ userData: TOwnAccount }>('/userData');
  storage.setUserData(userData); // spec section 3: the profile is kept for users
  return userData;
}

export const ownAccountQueryKey = (role: Role) => ['account', role, 'own'] as const;

export const ownAccountQueryOptions = (role: Role) =>
  queryOptions({ queryKey: ownAccountQueryKey(role), queryFn: () => getOwnAccount(role) });

export function useOwnAccount(role: Role | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    ...ownAccountQueryOptions(role ?? 'user'),
    enabled: enabled && role !== null,
  });
}
