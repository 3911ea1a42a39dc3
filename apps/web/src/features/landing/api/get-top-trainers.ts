import { useQuery } from '@tanstack/react-query';
import type { TTrainersResponse } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';

export const TOP_TRAINERS_LIMIT = 4;

/** GET /api/trainers?sort=rating&limit=4: the best-rated trainers for the landing page. */
export const getTopTrainers = ({ signal }: { signal?: AbortSignal } = {}) =>
  apiRequest<TTrainersResponse>(`/trainers?sort=rating&limit=${TOP_TRAINERS_LIMIT}`, { signal });

export function useTopTrainers() {
  return useQuery({
    queryKey: ['trainers', 'top', { sort: 'rating', limit: TOP_TRAINERS_LIMIT }],
    queryFn: ({ signal }) => getTopTrainers({ signal }),
    select: (data) => data.viewAllTrainers,
    staleTime: 5 * 60_000,
  });
}
