import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { TrainerCard, TrainerCardSkeleton } from '@/components/trainer-card';
import { useTrainers } from '@/lib/api/trainers';
import { paths } from '@/lib/paths';

const TOP_TRAINERS_LIMIT = 4;

/**
 * "Gym Trainer": the four best-rated trainers, live from the API. Skeletons while they load; the
 * section steps aside quietly if the call fails, since the rest of the page does not need it.
 */
export function TopTrainers() {
  // GET /api/trainers?sort=rating&limit=4, kept for 5 minutes: the landing page need not be live.
  const trainers = useTrainers({ sort: 'rating', limit: TOP_TRAINERS_LIMIT }, { staleTime: 5 * 60_000 });
  if (trainers.isError) return null;

  return (
    <section aria-labelledby="trainers-title" aria-busy={trainers.isPending}>
      <div className="mx-auto w-full max-w-7xl px-4 py-20 sm:px-6">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div className="max-w-2xl">
            <p className="text-sm font-semibold tracking-wide text-accent-ink uppercase">Gym Trainer</p>
            <h2 id="trainers-title" className="mt-2 font-display text-3xl font-bold text-ink sm:text-4xl">
              Meet our top-rated coaches
            </h2>
            <p className="mt-3 text-lg text-muted">Rated by the people who train with them.</p>
          </div>
          <Link
            to={paths.trainers.getHref()}
            className={buttonClasses({ variant: 'outline', className: 'self-start sm:self-auto' })}
          >
            View all trainers
            <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
        </div>

        {trainers.isPending ? (
          <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {Array.from({ length: TOP_TRAINERS_LIMIT }, (_, index) => (
              <li key={index}>
                <TrainerCardSkeleton />
              </li>
            ))}
          </ul>
        ) : trainers.data.viewAllTrainers.length === 0 ? (
          <p className="mt-10 rounded-card border border-dashed border-line-strong bg-canvas p-8 text-center text-muted">
            Our first coaches are setting up their profiles. Are you a coach?{' '}
            <Link to={paths.register.trainer.getHref()} className="font-semibold text-ink underline underline-offset-4">
              Join Spotter as a trainer
            </Link>
            .
          </p>
        ) : (
          <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {trainers.data.viewAllTrainers.map((trainer) => (
              <li key={trainer._id}>
                <TrainerCard trainer={trainer} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
