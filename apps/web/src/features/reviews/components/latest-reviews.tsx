import { Link } from 'react-router';
import { cardLinkClass, SectionCard } from '@/components/section-card';
import { Stars } from '@/components/stars';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useReviews } from '@/lib/api/reviews';
import { formatDate } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';

const SHOWN = 3;

type LatestReviewsProps = {
  trainerId: string;
  isListed: boolean;
};

/** The newest reviews of the logged-in trainer. */
export function LatestReviews({ trainerId, isListed }: LatestReviewsProps) {
  const { token } = useSession();
  const reviews = useReviews(trainerId, token);
  return (
    <SectionCard
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
                  <p aria-label={`${review.rating} out of 5 stars`} role="img">
                    <Stars value={review.rating} />
                  </p>
                </div>
                <p className="mt-1 text-sm break-words text-muted">{review.comment}</p>
                <p className="mt-1 text-xs text-subtle">{formatDate(review.createdAt)}</p>
              </li>
            );
          })}
        </ul>
      )}
    </SectionCard>
  );
}
