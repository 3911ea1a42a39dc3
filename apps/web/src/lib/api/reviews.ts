import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TReview } from '@spotter/shared';
import { apiRequest } from '../api-client';

/** Reviews of a trainer (GET /api/trainer/reviews/:id and its distribution): fetchers and keys. */
export const reviewKeys = {
  all: ['reviews'] as const,
  /** Everything about one trainer's reviews: a new review invalidates this. */
  ofTrainer: (trainerId: string) => [...reviewKeys.all, trainerId] as const,
  /** The viewer is part of the key: `isMine` depends on who asks. */
  list: (trainerId: string, viewer: string | null) => [...reviewKeys.ofTrainer(trainerId), 'list', viewer] as const,
  distribution: (trainerId: string) => [...reviewKeys.ofTrainer(trainerId), 'distribution'] as const,
};

/** GET /api/trainer/reviews/:id, newest first; `isMine` marks the caller's own review. */
const getReviews = async (trainerId: string, signal?: AbortSignal) => {
  const { allReviews } = await apiRequest<{ allReviews: TReview[] }>(`/trainer/reviews/${encodeURIComponent(trainerId)}`, {
    signal,
  });
  return allReviews;
};

const reviewsQueryOptions = (trainerId: string, viewer: string | null) =>
  queryOptions({ queryKey: reviewKeys.list(trainerId, viewer), queryFn: ({ signal }) => getReviews(trainerId, signal) });

/** `viewer` is the caller's token (or null for a visitor). */
export function useReviews(trainerId: string, viewer: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...reviewsQueryOptions(trainerId, viewer), enabled });
}

export const STAR_VALUES = [5, 4, 3, 2, 1] as const;
type Distribution = Record<'1' | '2' | '3' | '4' | '5', number>;

/** GET /api/trainer/reviews/:id/distribution: how many reviews gave each number of stars. */
const getRatingDistribution = async (trainerId: string, signal?: AbortSignal) => {
  const { distribution } = await apiRequest<{ distribution: Distribution }>(
    `/trainer/reviews/${encodeURIComponent(trainerId)}/distribution`,
    { signal },
  );
  return distribution;
};

export const ratingDistributionQueryOptions = (trainerId: string) =>
  queryOptions({
    queryKey: reviewKeys.distribution(trainerId),
    queryFn: ({ signal }) => getRatingDistribution(trainerId, signal),
  });

export function useRatingDistribution(trainerId: string) {
  return useQuery(ratingDistributionQueryOptions(trainerId));
}

type CreateReviewInput = { trainerId: string; rating: number; comment: string };

/** POST /api/reviews/new; posting again edits the caller's review (docs/product.md#reviews). */
export const createReview = ({ trainerId, rating, comment }: CreateReviewInput) =>
  apiRequest<{ message: string; review: TReview }>('/reviews/new', {
    method: 'POST',
    body: { trainerId, rating, comment },
  });
