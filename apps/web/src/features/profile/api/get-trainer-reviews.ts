import { useQuery } from '@tanstack/react-query';
import type { TReview } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';

/** GET /api/trainer/reviews/:id, newest first. */
export const getTrainerReviews = (trainerId: string) =>
  apiRequest<{ allReviews: TReview[] }>(`/trainer/reviews/${encodeURIComponent(trainerId)}`).then(
    ({ allReviews }) => allReviews,
  );

export function useTrainerReviews(trainerId: string) {
  return useQuery({ queryKey: ['profile', 'trainer', trainerId, 'reviews'], queryFn: () => getTrainerReviews(trainerId) });
}
