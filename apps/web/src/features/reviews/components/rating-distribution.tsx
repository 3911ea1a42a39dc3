import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { STAR_VALUES, useRatingDistribution } from '@/lib/api/reviews';

/** Five horizontal bars, one per number of stars, read as a list ("5 stars: 12"). */
export function RatingDistribution({ trainerId }: { trainerId: string }) {
  const distribution = useRatingDistribution(trainerId);

  if (distribution.isPending) {
    return (
      <div className="space-y-2.5" aria-hidden="true">
        {STAR_VALUES.map((star) => (
          <Skeleton key={star} className="h-5" />
        ))}
      </div>
    );
  }
  if (distribution.isError) {
    return (
      <Alert
        tone="error"
        title="Could not load the rating breakdown"
        action={
          <Button variant="outline" onClick={() => void distribution.refetch()}>
            Retry
          </Button>
        }
      >
        {errorMessage(distribution.error)}
      </Alert>
    );
  }

  const counts = distribution.data;
  const total = STAR_VALUES.reduce((sum, star) => sum + (counts[star] ?? 0), 0);
  return (
    <ul aria-label="Rating breakdown" className="space-y-1.5">
      {STAR_VALUES.map((star) => {
        const count = counts[star] ?? 0;
        return (
          <li key={star} className="grid grid-cols-[3.75rem_minmax(0,1fr)_2.5rem] items-center gap-3 text-sm">
            <span className="font-medium text-ink">
              {star} {star === 1 ? 'star' : 'stars'}
              <span className="sr-only">: </span>
            </span>
            <span aria-hidden="true" className="h-2.5 overflow-hidden rounded-full bg-surface-strong">
              <span className="block h-full rounded-full bg-ink" style={{ width: `${total ? (count / total) * 100 : 0}%` }} />
            </span>
            <span className="text-right text-muted tabular-nums">{count}</span>
          </li>
        );
      })}
    </ul>
  );
}
