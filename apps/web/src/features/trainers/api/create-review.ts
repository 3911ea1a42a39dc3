import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TReview } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';
import { trainerQueryKey } from './get-trainer';

export type CreateReviewInput = { trainerId: string; rating: number; comment: string };

/** POST /api/reviews/new; posting again edits the caller's review (DECISIONS 15). */
export const createReview = ({ trainerId, rating, comment }: CreateReviewInput) =>
  apiRequest<{ message: string; review: TReview }>('/reviews/new', {
    method: 'POST',
    body: { trainerId, rating, comment },
  });

export function useCreateReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReview,
    // The review list, the distribution and the trainer's average and count all change.
    onSuccess: (_answer, { trainerId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: trainerQueryKey(trainerId) }),
        queryClient.invalidateQueries({ queryKey: ['trainers'] }),
      ]),
  });
}
