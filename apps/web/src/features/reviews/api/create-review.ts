import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createReview, reviewKeys } from '@/lib/api/reviews';
import { trainerKeys } from '@/lib/api/trainers';

/**
 * Posts a review (POST /api/reviews/new). The trainer's reviews and distribution, the profile's
 * average and count, and every list showing that trainer change, so all of them refresh.
 */
export function useCreateReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReview,
    onSuccess: (_answer, { trainerId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.ofTrainer(trainerId) }),
        // The profile (trainerKeys.detail), the lists and the favourites: only those on screen refetch now.
        queryClient.invalidateQueries({ queryKey: trainerKeys.all }),
      ]),
  });
}
