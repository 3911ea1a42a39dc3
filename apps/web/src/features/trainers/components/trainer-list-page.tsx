import { lazy, Suspense, useDeferredValue, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Heart, SearchX, SlidersHorizontal } from 'lucide-react';
import type { TTrainersResponse } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { TrainerCard, TrainerCardSkeleton } from '@/components/trainer-card';
import { errorMessage } from '@/lib/api-client';
import { useFavorites } from '@/lib/api/favorites';
import { LIST_FIRST_ROW } from '@/lib/api/trainer-paths';
import { useTrainers } from '@/lib/api/trainers';
import { cn } from '@/lib/cn';
import { formatCount } from '@/lib/format';
import { useTrainerSearch } from '../hooks/use-trainer-search';
import {
  hasActiveFilters,
  toTrainersQuery,
  writeTrainerSearch,
  type TrainerSearch,
  type TrainerSort,
} from '../utils/trainer-search';
import { NextFree } from './next-free';
import { Pagination } from './pagination';
import { SelectField } from './select-field';
import { TrainerFilters } from './trainer-filters';
import { TrainerSearchBox } from './trainer-search-box';

const loadFiltersSheet = () => import('./filters-sheet');
const FiltersSheet = lazy(() => loadFiltersSheet().then((m) => ({ default: m.FiltersSheet })));

const sortOptions: Array<{ value: TrainerSort; label: string }> = [
  { value: 'rating', label: 'Best rated' },
  { value: 'price_asc', label: 'Price: low to high' },
  { value: 'price_desc', label: 'Price: high to low' },
  { value: 'newest', label: 'Newest' },
  { value: 'soonest', label: 'Soonest available' },
];

const SKELETON_CARDS = 6;

/**
 * "48 trainers", or "about 50,000 trainers" when the server estimated the total; "3 verified coaches"
 * when only verified coaches are shown (the list calls no one else certified or verified).
 */
function resultCountText(data: Pick<TTrainersResponse, 'total' | 'totalIsEstimate'>, isVerifiedOnly = false) {
  const number = `${data.totalIsEstimate ? 'about ' : ''}${formatCount(data.total)}`;
  const isOne = data.total === 1 && !data.totalIsEstimate;
  if (isVerifiedOnly) return `${number} ${isOne ? 'verified coach' : 'verified coaches'}`;
  return `${number} ${isOne ? 'trainer' : 'trainers'}`;
}

const activeFilterCount = (search: TrainerSearch) =>
  [
    search.minPrice !== undefined || search.maxPrice !== undefined,
    search.minRating !== undefined,
    search.gender !== undefined,
    search.city !== undefined,
    search.available !== undefined || search.availableOn !== undefined,
    search.favoritesOnly,
    search.verified,
  ].filter(Boolean).length;

function EmptyState({ search, onClear, firstPageHref }: { search: TrainerSearch; onClear: () => void; firstPageHref?: string }) {
  const isFavouritesOnly = search.favoritesOnly;
  let title = 'No trainers match your search';
  let text = 'Try a wider price range, another city, or fewer filters.';
  if (firstPageHref) {
    title = 'Nothing on this page';
    text = 'The results have fewer pages than this.';
  } else if (isFavouritesOnly) {
    title = 'No favourites here yet';
    text = 'Tap the heart on a trainer to keep them in your favourites.';
  } else if (search.verified) {
    title = 'No verified coaches match your search';
    text = 'A verified coach has a certificate an operator checked. Try without “Verified coaches only”, or fewer filters.';
  } else if (!hasActiveFilters(search)) {
    title = 'No trainers yet';
    text = 'Trainers appear here as soon as they join Spotter.';
  }
  const Icon = isFavouritesOnly && !firstPageHref ? Heart : SearchX;
  return (
    <div className="flex flex-col items-center rounded-card border border-dashed border-line-strong px-6 py-14 text-center">
      <Icon className="size-10 text-subtle" aria-hidden="true" />
      <h3 className="mt-4 text-xl font-bold text-ink">{title}</h3>
      <p className="mt-2 max-w-md text-muted">{text}</p>
      {firstPageHref ? (
        <Link to={firstPageHref} className={buttonClasses({ className: 'mt-6' })}>
          Go to the first page
        </Link>
      ) : (
        hasActiveFilters(search) && (
          <Button className="mt-6" onClick={onClear}>
            Clear filters
          </Button>
        )
      )}
    </div>
  );
}

/** The trainer list (docs/product.md#trainer-list, docs/product.md#trainer-list-search, docs/product.md#design). */
export function TrainerListPage() {
  const [params] = useSearchParams();
  const { search, update, clearFilters } = useTrainerSearch();
  const { ids: favoriteIds } = useFavorites();
  const query = toTrainersQuery(search, favoriteIds);
  const trainers = useTrainers(query, { isKeepingPrevious: true });

  const hrefFor = (page: number) => `?${writeTrainerSearch({ ...search, page }, params).toString()}`;
  // A new answer's cards render in the background, in slices the browser can interrupt, rather than
  // in one long task when it arrives (on a phone that task blocked input for a few hundred ms); what
  // was shown stays until then, dimmed like a page that is still loading.
  const data = useDeferredValue(trainers.data);
  const isStale = trainers.isPlaceholderData || data !== trainers.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;
  // 'verified coaches' only of an answer to the verified filter, not of the one still shown while it loads
  const isVerifiedShown = search.verified && !isStale;

  const filters = <TrainerFilters search={search} onChange={update} onClear={clearFilters} favoriteCount={favoriteIds.length} />;
  const filterCount = activeFilterCount(search);
  // The sheet of small screens and its dialog code load on first use, warmed up on pointer or focus.
  const [isSheetOpen, setIsSheetOpen] = useState(false);
  const [wasSheetOpened, setWasSheetOpened] = useState(false);
  const filtersButtonRef = useRef<HTMLButtonElement>(null);
  const warmUpSheet = () => void loadFiltersSheet();

  // On an error the alert below says it, once.
  let status = 'Loading trainers…';
  if (trainers.isError) status = '';
  else if (data) status = resultCountText(data, isVerifiedShown);

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:py-14">
      <title>Find a trainer · Spotter</title>
      <div className="max-w-2xl">
        <h1 className="text-4xl font-bold text-ink sm:text-5xl">Find your trainer</h1>
        <p className="mt-3 text-lg text-muted">
          Compare personal trainers by price, reviews, city and when they are free, and save your favourites.
        </p>
      </div>

      <div className="mt-8 max-w-2xl">
        <TrainerSearchBox value={search.q} onSearch={(q) => update({ q }, { replace: true })} />
      </div>

      <div className="mt-8 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-10">
        <aside aria-labelledby="filters-heading" className="hidden lg:block">
          <h2 id="filters-heading" className="mb-4 text-lg font-bold text-ink">
            Filters
          </h2>
          {filters}
        </aside>

        <section aria-labelledby="results-heading">
          <h2 id="results-heading" className="sr-only">
            Results
          </h2>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p role="status" className="font-semibold text-ink">
              {status}
            </p>
            <div className="flex w-full items-center gap-2 sm:w-auto">
              <Button
                ref={filtersButtonRef}
                variant="outline"
                className="shrink-0 lg:hidden"
                aria-haspopup="dialog"
                aria-expanded={isSheetOpen}
                onPointerEnter={warmUpSheet}
                onFocus={warmUpSheet}
                onClick={() => {
                  setWasSheetOpened(true);
                  setIsSheetOpen(true);
                }}
              >
                <SlidersHorizontal className="size-4" aria-hidden="true" />
                Filters
                {filterCount > 0 && (
                  <span aria-hidden="true" className="rounded-full bg-ink px-2 text-xs text-on-ink">
                    {filterCount}
                  </span>
                )}
              </Button>
              {wasSheetOpened && (
                <Suspense fallback={null}>
                  <FiltersSheet
                    isOpen={isSheetOpen}
                    onOpenChange={setIsSheetOpen}
                    returnFocusTo={filtersButtonRef}
                    showLabel={data ? `Show ${resultCountText(data, isVerifiedShown)}` : 'Show results'}
                  >
                    {filters}
                  </FiltersSheet>
                </Suspense>
              )}
              <SelectField
                label="Sort by"
                isInline
                options={sortOptions}
                value={search.sort}
                onChange={(event) => update({ sort: event.target.value as TrainerSort })}
                containerClassName="min-w-0 flex-1 sm:flex-none"
              />
            </div>
          </div>

          <div className="mt-6">
            {trainers.isError ? (
              <Alert
                tone="error"
                title="Could not load trainers"
                action={
                  <Button variant="outline" onClick={() => void trainers.refetch()}>
                    Retry
                  </Button>
                }
              >
                {errorMessage(trainers.error)}
              </Alert>
            ) : !data ? (
              <ul className="grid gap-6 sm:grid-cols-2 xl:grid-cols-3" aria-hidden="true">
                {Array.from({ length: SKELETON_CARDS }, (_, index) => (
                  <li key={index}>
                    <TrainerCardSkeleton />
                  </li>
                ))}
              </ul>
            ) : data.viewAllTrainers.length === 0 ? (
              <EmptyState
                search={search}
                onClear={clearFilters}
                firstPageHref={data.total > 0 && search.page > 1 ? hrefFor(1) : undefined}
              />
            ) : (
              <ul
                aria-busy={isStale || undefined}
                className={cn(
                  'grid gap-6 transition-opacity duration-150 sm:grid-cols-2 xl:grid-cols-3',
                  isStale && 'opacity-60',
                )}
              >
                {data.viewAllTrainers.map((trainer, index) => (
                  <li key={trainer._id}>
                    <TrainerCard
                      trainer={trainer}
                      isFirstInView={index < LIST_FIRST_ROW}
                      note={trainer.nextFreeAt ? <NextFree at={trainer.nextFreeAt} className="text-success" /> : undefined}
                    />
                  </li>
                ))}
              </ul>
            )}
          </div>

          {data && !trainers.isError && <Pagination page={search.page} pageCount={pageCount} hrefFor={hrefFor} />}
        </section>
      </div>
    </div>
  );
}
