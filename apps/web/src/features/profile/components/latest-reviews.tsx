import { Star } from 'lucide-react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import type { useTrainerReviews } from '../api/get-trainer-reviews';
import { cardLinkClass, ProfileCard } from './profile-card';
import { formatDate } from './weight-chart';

const SHOWN = 3;

type LatestReviewsProps = {
  trainerId: string;
  reviews: ReturnType<typeof useTrainerReviews>;
  isListed: boolean;
};

/** The newest reviews of the logged-in trainer. */
export function LatestReviews({ trainerId, reviews, isListed }: LatestReviewsProps) {
  return (
    <ProfileCard
      title="Latest reviews"
      action={
        isListed && reviews.data && reviews.data.length > SHOWN ? (
          <Link to={paths.trainerPublicProfile.getHref(trainerId)} className={cardLinkClass}>
            All {reviews.data.length} reviews
          </Link>
        ) : undefined
      }
    >
      {reviews.isPending ? (
        <>
          <span className="sr-only" role="status">
            Loading your reviews…
          </span>
          <div className="space-y-3">
            {[0, 1].map((i) => (
              <Skeleton key={i} className="h-16 w-full rounded-xl" />
            ))}
          </div>
        </>
      ) : reviews.isError ? (
        <Alert
          tone="error"
          title="We could not load your reviews."
          action={
            <Button variant="outline" onClick={() => void reviews.refetch()} isLoading={reviews.isFetching}>
              Retry
            </Button>
          }
        >
          {errorMessage(reviews.error)}
        </Alert>
      ) : reviews.data.length === 0 ? (
        <div className="rounded-xl border border-dashed border-line-strong bg-surface px-4 py-6 text-center">
          <p className="font-semibold text-ink">No reviews yet</p>
          <p className="mt-1 text-sm text-muted">
            {isListed
              ? 'Share your public profile with your clients and ask them for a review.'
              : 'Verify your e-mail so people can find your profile and review you.'}
          </p>
          {isListed && (
            <Link to={paths.trainerPublicProfile.getHref(trainerId)} className={cardLinkClass}>
              Open my public profile
            </Link>
          )}
        </div>
      ) : (
        <ul className="divide-y divide-line">
          {reviews.data.slice(0, SHOWN).map((review) => {
            const name = `${review.reviewerFirstName} ${review.reviewerLastName}`.trim() || 'Former member';
            return (
              <li key={review._id} className="py-3 first:pt-0 last:pb-0">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <p className="font-semibold text-ink">{name}</p>
                  <p className="flex items-center gap-0.5" aria-label={`${review.rating} out of 5 stars`} role="img">
                    {[1, 2, 3, 4, 5].map((n) => (
                      <Star
                        key={n}
                        aria-hidden="true"
                        className={n <= review.rating ? 'size-4 fill-current text-ink' : 'size-4 text-line-strong'}
                      />
                    ))}
                  </p>
                </div>
                <p className="mt-1 text-sm break-words text-muted">{review.comment}</p>
                <p className="mt-1 text-xs text-subtle">{formatDate(review.createdAt)}</p>
              </li>
            );
          })}
        </ul>
      )}
    </ProfileCard>
  );
}
