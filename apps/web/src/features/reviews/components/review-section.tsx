import { lazy, Suspense, useEffect } from 'react';
import { Link } from 'react-router';
import { LogIn } from 'lucide-react';
import { SERVER_MSG } from '@spotter/shared';
import { ResendVerificationButton } from '@/components/resend-verification-button';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { useOwnAccount } from '@/lib/api/accounts';
import { useReviews } from '@/lib/api/reviews';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { ReviewList, ReviewListSkeleton } from './review-list';

// The form (with react-hook-form and zod) loads only for someone logged in, while the reviews load.
const loadReviewForm = () => import('./review-form');
const ReviewForm = lazy(() => loadReviewForm().then((m) => ({ default: m.ReviewForm })));

const formPending = (
  <div className="flex min-h-40 items-center justify-center rounded-card border border-line bg-surface">
    <Spinner label="Loading the review form…" />
  </div>
);

type ReviewSectionProps = {
  trainerId: string;
  firstName: string;
  /** The trainer looking at their own profile: the reviews as others see them, no form. */
  isOwnProfile?: boolean;
};

/**
 * The review list and form, shown only with a stored token (docs/product.md#public-trainer-profile). A user whose e-mail
 * is not verified gets the note and a new link instead of a form the server would refuse.
 */
export function ReviewSection({ trainerId, firstName, isOwnProfile = false }: ReviewSectionProps) {
  const { isLoggedIn, token, role } = useSession();
  const reviews = useReviews(trainerId, token, { enabled: isLoggedIn });
  const account = useOwnAccount(role === 'user' ? role : null, { enabled: isLoggedIn });
  const isFormShown = isLoggedIn && !isOwnProfile;
  useEffect(() => {
    if (isFormShown) void loadReviewForm();
  }, [isFormShown]);

  if (!isLoggedIn) {
    return (
      <div className="flex flex-col items-start gap-4 rounded-card border border-line bg-surface p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6">
        <p className="font-semibold text-ink">Please Login to Review {firstName}'s Profile!</p>
        <Link to={paths.login.user.getHref()} className={buttonClasses({ variant: 'secondary', className: 'shrink-0' })}>
          <LogIn className="size-4" aria-hidden="true" />
          Log in to review
        </Link>
      </div>
    );
  }

  const myReview = reviews.data?.find((review) => review.isMine);
  return (
    <div className="space-y-6">
      {isOwnProfile ? null : reviews.isPending || account.isLoading ? (
        formPending
      ) : account.data?.emailVerified === false ? (
        <Alert tone="warning" isLive={false} action={<ResendVerificationButton />}>
          {SERVER_MSG.verifyToReview}
        </Alert>
      ) : (
        // Mounted once the caller's own review is known, so the form starts with it.
        <Suspense fallback={formPending}>
          <ReviewForm trainerId={trainerId} firstName={firstName} myReview={myReview} />
        </Suspense>
      )}

      <div>
        <h3 className="text-lg font-bold text-ink">What trainees say</h3>
        {reviews.isPending ? (
          <ReviewListSkeleton />
        ) : reviews.isError ? (
          <Alert
            tone="error"
            title="Could not load the reviews"
            className="mt-4"
            action={
              <Button variant="outline" onClick={() => void reviews.refetch()}>
                Retry
              </Button>
            }
          >
            {errorMessage(reviews.error)}
          </Alert>
        ) : (
          <div className="mt-2">
            <ReviewList reviews={reviews.data} firstName={firstName} />
          </div>
        )}
      </div>
    </div>
  );
}
