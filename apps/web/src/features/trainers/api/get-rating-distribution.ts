import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { trainerQueryKey } from './get-trainer';

export const STAR_VALUES = [5, 4, 3, 2, 1] as const;
export type Distribution = Record<'1' | '2' | '3' | '4' | '5', number>;

/** GET /api/trainer/reviews/:id/distribution: how many reviews gave each number of stars. */
export const getRatingDistribution = async (trainerId: string, signal?: AbortSignal) => {
  const { distribution } = await apiRequest<{ distribution: Distribution }>(
    `/trainer/reviews/${encodeURIComponent(trainerId)}/distribution`,
    { signal },
  );
  return distribution;
};

export const ratingDistributionQueryOptions = (trainerId: string) =>
  queryOptions({
    queryKey: [...trainerQueryKey(trainerId), 'distribution'],
    queryFn: ({ signal }) => getRatingDistribution(trainerId, signal),
  });

export function useRatingDistribution(trainerId: string) {
  return useQuery(ratingDistributionQueryOptions(trainerId));
}
