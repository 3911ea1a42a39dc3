import { MapPin, Star } from 'lucide-react';
import { Link } from 'react-router';
import type { TPublicTrainer } from '@spotter/shared';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/lib/paths';

type TopTrainer = Pick<
  TPublicTrainer,
  '_id' | 'firstName' | 'lastName' | 'title' | 'picture' | 'rating' | 'ratingCount' | 'price' | 'city'
>;

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const initials = (trainer: TopTrainer) => `${trainer.firstName.charAt(0)}${trainer.lastName.charAt(0)}`.toUpperCase();

/** A landing-page card of one top-rated trainer; the whole card links to the public profile. */
export function TopTrainerCard({ trainer }: { trainer: TopTrainer }) {
  const name = `${trainer.firstName} ${trainer.lastName}`;
  const hasRating = trainer.ratingCount > 0;
  return (
    <Link
      to={paths.trainerPublicProfile.getHref(trainer._id)}
      className="group flex h-full overflow-hidden rounded-card border border-line bg-canvas transition-shadow duration-200 hover:shadow-card sm:flex-col"
    >
      <div className="aspect-square w-28 shrink-0 self-start overflow-hidden bg-surface-strong sm:w-full">
        {trainer.picture ? (
          <img
            src={trainer.picture}
            alt=""
            width={320}
            height={320}
            loading="lazy"
            decoding="async"
            className="size-full object-cover transition-transform duration-200 motion-safe:group-hover:scale-105"
          />
        ) : (
          <span
            aria-hidden="true"
            className="flex size-full items-center justify-center font-display text-5xl font-bold text-muted"
          >
            {initials(trainer)}
          </span>
        )}
      </div>
      <div className="flex min-w-0 flex-1 flex-col p-4 sm:p-5">
        <h3 className="font-display text-lg font-semibold text-ink">{name}</h3>
        <p className="text-sm text-muted">{trainer.title}</p>
        <p className="mt-1 flex items-center gap-1 text-sm text-subtle">
          <MapPin className="size-4" aria-hidden="true" />
          {trainer.city}
        </p>
        <div className="mt-auto flex flex-wrap items-center justify-between gap-x-3 gap-y-1 pt-3 text-sm sm:pt-4">
          {hasRating ? (
            <span className="font-semibold text-ink">
              <span className="sr-only">
                Rated {trainer.rating.toFixed(1)} out of 5 from {trainer.ratingCount}{' '}
                {trainer.ratingCount === 1 ? 'review' : 'reviews'}
              </span>
              <span aria-hidden="true" className="inline-flex items-center gap-1">
                <Star className="size-4 fill-accent-ink text-accent-ink" />
                {trainer.rating.toFixed(1)}
                <span className="font-normal text-subtle">({trainer.ratingCount})</span>
              </span>
            </span>
          ) : (
            <span className="font-semibold text-ink">New coach</span>
          )}
          <span className="text-muted">
            <span className="font-semibold text-ink">{money.format(trainer.price)}</span> / session
          </span>
        </div>
      </div>
    </Link>
  );
}

export function TopTrainerCardSkeleton() {
  return (
    <div className="flex overflow-hidden rounded-card border border-line bg-canvas sm:flex-col">
      <Skeleton className="aspect-square w-28 shrink-0 rounded-none sm:w-full" />
      <div className="flex-1 space-y-2 p-4 sm:p-5">
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-4 w-1/2" />
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="mt-6 h-4 w-full" />
      </div>
    </div>
  );
}
