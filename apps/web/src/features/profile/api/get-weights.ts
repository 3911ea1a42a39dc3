import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { accountKeys } from '@/lib/api/accounts';
import type { Role } from '@/lib/paths';

export type WeightEntry = { weight: number; recordedAt: string };

/** GET /api/{role}/weights: every weight saved in Contact Info, oldest first. */
const getWeights = (role: Role) => apiRequest<{ weights: WeightEntry[] }>(`/${role}/weights`).then(({ weights }) => weights);

/** Keyed under the account so saving contact info in settings refreshes it too. */
export function useWeights(role: Role) {
  return useQuery({ queryKey: accountKeys.weights(role), queryFn: () => getWeights(role) });
}
