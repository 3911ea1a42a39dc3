import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TTrainerProfile } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';

/** GET /api/trainerData/:id, the public profile (no contact data, DECISIONS 26). */
export const getTrainer = async (id: string, signal?: AbortSignal) => {
  const { trainerData } = await apiRequest<{ trainerData: TTrainerProfile }>(`/trainerData/${encodeURIComponent(id)}`, {
    signal,
  });
  return trainerData;
};

export const trainerQueryKey = (id: string) => ['trainer', id] as const;

export const trainerQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...trainerQueryKey(id), 'profile'],
    queryFn: ({ signal }) => getTrainer(id, signal),
  });

export function useTrainer(id: string) {
  return useQuery(trainerQueryOptions(id));
}
