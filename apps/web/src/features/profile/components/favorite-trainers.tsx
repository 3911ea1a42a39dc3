import { Heart, Star } from 'lucide-react';
import { Link } from 'react-router';
import type { TPublicTrainer } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import type { useFavoriteTrainers } from '../api/get-favorite-trainers';
import { cardLinkClass, ProfileCard } from './profile-card';

function FavoriteTrainerCard({ trainer }: { trainer: TPublicTrainer }) {
  const name = `${trainer.firstName} ${trainer.lastName}`;
  return (
    <li>
      <Link
        to={paths.trainerPublicProfile.getHref(trainer._id)}
        className="flex h-full items-center gap-3 rounded-xl border border-line p-3 transition-colors duration-150 hover:border-line-strong hover:bg-surface"
      >
        <img
          src={trainer.picture}
          alt=""
          width={56}
          height={56}
          loading="lazy"
          className="size-14 shrink-0 rounded-xl bg-surface object-cover"
        />
        <span className="min-w-0 flex-1">
          <span className="block truncate font-semibold text-ink">{name}</span>
          <span className="block truncate text-sm text-muted">{trainer.title || 'Personal trainer'}</span>
          <span className="mt-0.5 flex items-center gap-3 text-sm text-muted">
            <span className="inline-flex items-center gap-1">
              <Star className="size-3.5 fill-current text-ink" aria-hidden="true" />
              {trainer.ratingCount > 0 ? (
                <span>
                  {trainer.rating.toFixed(1)}
                  <span className="sr-only"> out of 5 from</span> ({trainer.ratingCount}
                  <span className="sr-only"> reviews</span>)
                </span>
              ) : (
                'New'
              )}
            </span>
            <span>${trainer.price} / session</span>
          </span>
        </span>
      </Link>
    </li>
  );
}

type FavoriteTrainersProps = { favorites: ReturnType<typeof useFavoriteTrainers> };

/** The user's favourite trainers as small cards linking to their public profiles. */
export function FavoriteTrainers({ favorites }: FavoriteTrainersProps) {
  const count = favorites.data?.length;
  return (
    <ProfileCard
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
          <div className="grid gap-3 sm:grid-cols-2">
            {[0, 1].map((i) => (
              <Skeleton key={i} className="h-20 w-full rounded-xl" />
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
          <p className="mt-1 max-w-sm text-sm text-muted">
            Tap the heart on a trainer you like and they will wait for you here.
          </p>
          <Link to={paths.trainers.getHref()} className={buttonClasses({ className: 'mt-4' })}>
            Browse trainers
          </Link>
        </div>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {favorites.data.map((trainer) => (
            <FavoriteTrainerCard key={trainer._id} trainer={trainer} />
          ))}
        </ul>
      )}
    </ProfileCard>
  );
}
