import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { MapPin } from 'lucide-react';
import type { TPublicTrainer } from '@spotter/shared';
import { Skeleton } from '@/components/ui/skeleton';
import { formatPrice, initials } from '@/lib/format';
import { paths } from '@/lib/paths';
import { FavoriteButton } from './favorite-button';
import { RatingBadge } from './rating-badge';
import { VerifiedBadge } from './verified-badge';

type TrainerSummary = Pick<
  TPublicTrainer,
  '_id' | 'firstName' | 'lastName' | 'title' | 'description' | 'picture' | 'city' | 'price' | 'rating' | 'ratingCount'
> & {
  /** A 'Verified coach' (docs/product.md#verified-coaches): the badge shows only then. */
  verified?: boolean;
};

/**
 * The one trainer card (docs/product.md#design): the list, the landing page's top trainers and
 * the profile's favourites, each a section's h3. The whole card opens the profile through the stretched 'View profile'
 * link; the heart above it is a button of its own. `isFirstInView`: the picture is likely the page's
 * largest paint (the first row of a list), so it loads at once and first rather than lazily.
 */
export function TrainerCard({
  trainer,
  isFirstInView = false,
  note,
}: {
  trainer: TrainerSummary;
  isFirstInView?: boolean;
  /** A line under the city that the screen adds (the list's 'Next free: Tue 07:00'). */
  note?: ReactNode;
}) {
  const nameId = useId();
  const fullName = `${trainer.firstName} ${trainer.lastName}`;
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-card border border-line bg-canvas shadow-card transition-shadow duration-150 hover:shadow-lg has-[a:focus-visible]:ring-3 has-[a:focus-visible]:ring-accent-ink">
      <div className="aspect-square overflow-hidden bg-surface">
        {trainer.picture ? (
          <img
            src={trainer.picture}
            alt={fullName}
            width={320}
            height={320}
            loading={isFirstInView ? 'eager' : 'lazy'}
            fetchPriority={isFirstInView ? 'high' : undefined}
            decoding="async"
            className="size-full object-cover transition-transform duration-200 motion-safe:group-hover:scale-[1.03]"
          />
        ) : (
          <span
            role="img"
            aria-label={fullName}
            className="flex size-full items-center justify-center bg-surface-strong font-display text-5xl font-bold text-muted"
          >
            {initials(trainer.firstName, trainer.lastName)}
          </span>
        )}
      </div>
      <FavoriteButton trainerId={trainer._id} firstName={trainer.firstName} className="absolute top-3 right-3 z-10" />

      <div className="flex flex-1 flex-col gap-1.5 p-4">
        <div className="flex items-start justify-between gap-2">
          <h3 id={nameId} className="min-w-0 truncate text-lg leading-tight font-bold text-ink">
            {fullName}
          </h3>
          <RatingBadge rating={trainer.rating} ratingCount={trainer.ratingCount} className="shrink-0 pt-0.5" />
        </div>
        {trainer.verified && <VerifiedBadge />}
        {trainer.title && <p className="truncate text-sm font-medium text-muted">{trainer.title}</p>}
        {trainer.city && (
          <p className="flex items-center gap-1 text-sm text-subtle">
            <MapPin className="size-4 shrink-0" aria-hidden="true" />
            <span className="truncate">{trainer.city}</span>
          </p>
        )}
        {note}
        {trainer.description && <p className="line-clamp-1 text-sm text-muted">{trainer.description}</p>}
        <div className="mt-auto flex items-center justify-between gap-3 pt-3">
          <p className="text-ink">
            <span className="text-lg font-bold">{formatPrice(trainer.price)}</span>
            <span className="text-sm text-subtle"> / session</span>
          </p>
          <Link
            to={paths.trainerPublicProfile.getHref(trainer._id)}
            aria-describedby={nameId}
            className="rounded-full text-sm font-semibold text-ink underline decoration-2 underline-offset-4 group-hover:decoration-accent-ink after:absolute after:inset-0 after:content-[''] focus-visible:outline-none"
          >
            View profile
          </Link>
        </div>
      </div>
    </article>
  );
}

/** The card's shape while a list loads. */
export function TrainerCardSkeleton() {
  return (
    <div aria-hidden="true" className="flex flex-col overflow-hidden rounded-card border border-line bg-canvas">
      <Skeleton className="aspect-square rounded-none" />
      <div className="space-y-2.5 p-4">
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-4 w-1/2" />
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="h-4 w-full" />
        <div className="flex justify-between pt-2">
          <Skeleton className="h-6 w-24" />
          <Skeleton className="h-6 w-20" />
        </div>
      </div>
    </div>
  );
}
