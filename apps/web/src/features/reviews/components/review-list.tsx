import { BadgeCheck, MessageSquareText } from 'lucide-react';
import type { TReview } from '@spotter/shared';
import { ReportButton } from '@/components/report-button';
import { Stars } from '@/components/stars';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate, initials } from '@/lib/format';
import { useSession } from '@/lib/session';

function ReviewerAvatar({ review }: { review: TReview }) {
  if (review.reviewerProfilePhoto) {
    return (
      <img
        src={review.reviewerProfilePhoto}
        alt=""
        width={44}
        height={44}
        loading="lazy"
        className="size-11 shrink-0 rounded-full bg-surface object-cover"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className="flex size-11 shrink-0 items-center justify-center rounded-full bg-ink text-sm font-bold text-on-ink"
    >
      {initials(review.reviewerFirstName, review.reviewerLastName) || '?'}
    </span>
  );
}

/** `canReport`: a signed-in person reading someone else's review (docs/product.md#reports-and-moderation). */
function ReviewItem({ review, canReport }: { review: TReview; canReport: boolean }) {
  const name = `${review.reviewerFirstName} ${review.reviewerLastName}`.trim();
  const isEdited = review.updatedAt !== review.createdAt;
  return (
    <li className="flex gap-4 py-5">
      <ReviewerAvatar review={review} />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-semibold text-ink">
          {name}
          {review.isMine && (
            <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent-ink">Your review</span>
          )}
          {review.verifiedSession && (
            <span className="inline-flex items-center gap-1 rounded-full bg-success-soft px-2 py-0.5 text-xs font-semibold text-success">
              <BadgeCheck className="size-3.5" aria-hidden="true" />
              Verified session
            </span>
          )}
        </p>
        <p className="mt-1 flex flex-wrap items-center gap-x-2 text-sm text-subtle">
          <Stars value={review.rating} />
          <span className="sr-only">
            {review.rating} {review.rating === 1 ? 'star' : 'stars'} out of 5
          </span>
          <time dateTime={review.createdAt}>{formatDate(review.createdAt)}</time>
          {isEdited && <span>(edited)</span>}
        </p>
        {/* Text only, never HTML: React escapes it. */}
        <p className="mt-2 break-words whitespace-pre-line text-muted">{review.comment}</p>
        {canReport && !review.isMine && (
          <ReportButton kind="review" id={review._id} subject={`review by ${name || 'a former member'}`} className="mt-1 -ml-3" />
        )}
      </div>
    </li>
  );
}

export function ReviewList({ reviews, firstName }: { reviews: TReview[]; firstName: string }) {
  const { isLoggedIn } = useSession();
  if (reviews.length === 0) {
    return (
      <div className="flex flex-col items-center rounded-card border border-dashed border-line-strong px-6 py-10 text-center">
        <MessageSquareText className="size-8 text-subtle" aria-hidden="true" />
        <p className="mt-3 font-semibold text-ink">No reviews yet</p>
        <p className="mt-1 text-sm text-muted">Trained with {firstName}? Be the first to share how it went.</p>
      </div>
    );
  }
  return (
    <ul aria-label="Reviews" className="divide-y divide-line">
      {reviews.map((review) => (
        <ReviewItem key={review._id} review={review} canReport={isLoggedIn} />
      ))}
    </ul>
  );
}

export function ReviewListSkeleton() {
  return (
    <div aria-hidden="true" className="divide-y divide-line">
      {[0, 1, 2].map((n) => (
        <div key={n} className="flex gap-4 py-5">
          <Skeleton className="size-11 shrink-0 rounded-full" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-4 w-28" />
            <Skeleton className="h-4 w-full" />
          </div>
        </div>
      ))}
    </div>
  );
}
