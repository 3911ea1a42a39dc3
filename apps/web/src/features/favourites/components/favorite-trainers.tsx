import { Heart } from 'lucide-react';
import { Link } from 'react-router';
import { cardLinkClass, SectionCard } from '@/components/section-card';
import { TrainerCard, TrainerCardSkeleton } from '@/components/trainer-card';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { useFavoriteTrainers } from '@/lib/api/favorites';
import { paths } from '@/lib/paths';

/**
 * The favourite trainers as cards linking to their public profiles. It reads the one list of
 * favourites, so a heart turned off here or on any other screen takes the card away at once.
 */
export function FavoriteTrainers() {
  const favorites = useFavoriteTrainers();
  const count = favorites.data?.length;
  return (
    <SectionCard
      title="Favourite trainers"
      action={
        count ? (
          <Link to={paths.trainers.getHref()} className={cardLinkClass}>
            Find more trainers
          </Link>
        ) : undefined
      }
    >
      {favorites.isPending ? (
        <>
          <span className="sr-only" role="status">
            Loading your favourite trainers…
          </span>
          <div className="grid gap-4 sm:grid-cols-2">
            {[0, 1].map((i) => (
              <TrainerCardSkeleton key={i} />
            ))}
          </div>
        </>
      ) : favorites.isError ? (
        <Alert
          tone="error"
          title="We could not load your favourite trainers."
          action={
            <Button variant="outline" onClick={() => void favorites.refetch()} isLoading={favorites.isFetching}>
              Retry
            </Button>
          }
        >
          {errorMessage(favorites.error)}
        </Alert>
      ) : favorites.data.length === 0 ? (
        <div className="flex flex-col items-center rounded-xl border border-dashed border-line-strong bg-surface px-4 py-8 text-center">
          <Heart className="size-8 text-subtle" aria-hidden="true" />
          <p className="mt-3 font-semibold text-ink">No favourite trainers yet</p>
          <p className="mt-1 max-w-sm text-sm text-muted">Tap the heart on a trainer you like and they will wait for you here.</p>
          <Link to={paths.trainers.getHref()} className={buttonClasses({ className: 'mt-4' })}>
            Browse trainers
          </Link>
        </div>
      ) : (
        <ul aria-label="Favourite trainers" className="grid gap-4 sm:grid-cols-2">
          {favorites.data.map((trainer) => (
            <li key={trainer._id}>
              <TrainerCard trainer={trainer} />
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
