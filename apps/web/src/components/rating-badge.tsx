import { Star } from 'lucide-react';
import { cn } from '@/lib/cn';
import { formatCount, formatRating } from '@/lib/format';

type RatingBadgeProps = {
  rating: number;
  ratingCount: number;
  className?: string;
};

/** "★ 4.8 (23)" as in docs/product.md#design; said in words to screen readers. */
export function RatingBadge({ rating, ratingCount, className }: RatingBadgeProps) {
  if (ratingCount === 0) {
    return (
      <span className={cn('inline-flex items-center gap-1 text-sm font-medium text-subtle', className)}>
        <Star className="size-4" aria-hidden="true" />
        New
        <span className="sr-only">, no reviews yet</span>
      </span>
    );
  }
  return (
    <span className={cn('inline-flex items-center gap-1 text-sm', className)}>
      <Star className="size-4 fill-accent text-ink" aria-hidden="true" />
      <span aria-hidden="true" className="font-semibold text-ink">
        {formatRating(rating)}
      </span>
      <span aria-hidden="true" className="text-subtle">
        ({formatCount(ratingCount)})
      </span>
      <span className="sr-only">
        Rated {formatRating(rating)} out of 5 from {ratingCount === 1 ? '1 review' : `${formatCount(ratingCount)} reviews`}
      </span>
    </span>
  );
}
