import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TReview } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';
import { trainerQueryKey } from './get-trainer';

/** GET /api/trainer/reviews/:id, newest first; `isMine` marks the caller's own review. */
export const getReviews = async (trainerId: string, signal?: AbortSignal) => {
  const { allReviews } = await apiRequest<{ allReviews: TReview[] }>(`/trainer/reviews/${encodeURIComponent(trainerId)}`, {
    signal,
  });
  return allReviews;
};

/** The token is part of the key: `isMine` depends on who asks. */
export const reviewsQueryOptions = (trainerId: string, token: string | null) =>
  queryOptions({
    queryKey: [...trainerQueryKey(trainerId), 'reviews', token],
    queryFn: ({ signal }) => getReviews(trainerId, signal),
  });

export function useReviews(trainerId: string, token: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...reviewsQueryOptions(trainerId, token), enabled });
}
