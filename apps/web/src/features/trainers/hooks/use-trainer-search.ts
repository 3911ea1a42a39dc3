import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { EGYPT_CITIES, TRAINER_SORTS } from '@spotter/shared';
import type { TrainersQuery } from '../api/get-trainers';

export type TrainerSort = (typeof TRAINER_SORTS)[number];
export type Gender = 'male' | 'female';

/** Everything the trainer list shows, as held in the address (DECISIONS 13: shareable). */
export type TrainerSearch = {
  /** As typed (untrimmed), so the search box keeps its spaces while someone types. */
  q: string;
  minPrice?: number;
  maxPrice?: number;
  minRating?: number;
  gender?: Gender;
  city?: string;
  sort: TrainerSort;
  page: number;
  favoritesOnly: boolean;
};

export const DEFAULT_SORT: TrainerSort = 'rating';
export const MIN_RATING_OPTIONS = [4.5, 4, 3.5, 3] as const;
export const MAX_PRICE = 100_000;
const MAX_PAGE = 100_000;
const MAX_QUERY_LENGTH = 100;

const SEARCH_KEYS = ['q', 'minPrice', 'maxPrice', 'minRating', 'gender', 'city', 'sort', 'page', 'favorites'] as const;

const wholeNumber = (raw: string | null, min: number, max: number) => {
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  const value = Number(raw);
  return value >= min && value <= max ? value : undefined;
};

const oneOf = <T extends string | number>(options: readonly T[], value: unknown): T | undefined =>
  options.find((option) => option === value);

/** Reads the address; anything missing or not valid falls back to its default, never a crash. */
export function parseTrainerSearch(params: URLSearchParams): TrainerSearch {
  const rating = params.get('minRating');
  return {
    q: (params.get('q') ?? '').slice(0, MAX_QUERY_LENGTH),
    minPrice: wholeNumber(params.get('minPrice'), 0, MAX_PRICE),
    maxPrice: wholeNumber(params.get('maxPrice'), 0, MAX_PRICE),
    minRating: rating === null ? undefined : oneOf(MIN_RATING_OPTIONS, Number(rating)),
    gender: oneOf(['male', 'female'] as const, params.get('gender')),
    city: oneOf(EGYPT_CITIES, params.get('city')),
    sort: oneOf(TRAINER_SORTS, params.get('sort')) ?? DEFAULT_SORT,
    page: wholeNumber(params.get('page'), 1, MAX_PAGE) ?? 1,
    favoritesOnly: params.get('favorites') === '1',
  };
}

/** Writes a search into the address, leaving defaults out so links stay short. */
export function writeTrainerSearch(search: TrainerSearch, params = new URLSearchParams()) {
  const next = new URLSearchParams(params);
  for (const key of SEARCH_KEYS) next.delete(key);
  const values: Record<(typeof SEARCH_KEYS)[number], string | undefined> = {
    q: search.q.trim() ? search.q : undefined,
    minPrice: search.minPrice?.toString(),
    maxPrice: search.maxPrice?.toString(),
    minRating: search.minRating?.toString(),
    gender: search.gender,
    city: search.city,
    sort: search.sort === DEFAULT_SORT ? undefined : search.sort,
    page: search.page > 1 ? String(search.page) : undefined,
    favorites: search.favoritesOnly ? '1' : undefined,
  };
  for (const key of SEARCH_KEYS) {
    const value = values[key];
    if (value !== undefined) next.set(key, value);
  }
  return next;
}

export const PAGE_SIZE = 24;

/**
 * The API query of a search. A price range typed backwards is read the right way round rather
 * than refused (the server answers 400 to it).
 */
export function toTrainersQuery(search: TrainerSearch, favoriteIds: string[]): TrainersQuery {
  const prices = [search.minPrice, search.maxPrice];
  const [minPrice, maxPrice] =
    prices[0] !== undefined && prices[1] !== undefined && prices[0] > prices[1] ? [prices[1], prices[0]] : prices;
  return {
    q: search.q.trim() || undefined,
    minPrice,
    maxPrice,
    minRating: search.minRating,
    gender: search.gender,
    city: search.city,
    sort: search.sort,
    page: search.page,
    limit: PAGE_SIZE,
    // The server takes at most 4000 characters of ids: the 100 most recent favourites.
    ids: search.favoritesOnly ? favoriteIds.slice(-100).join(',') : undefined,
  };
}

export const hasActiveFilters = (search: TrainerSearch) =>
  search.q.trim() !== '' ||
  search.minPrice !== undefined ||
  search.maxPrice !== undefined ||
  search.minRating !== undefined ||
  search.gender !== undefined ||
  search.city !== undefined ||
  search.favoritesOnly;

type UpdateOptions = {
  /** Replace the history entry (typing) instead of adding one (a chosen filter). */
  replace?: boolean;
};

/**
 * The list's query and a way to change it. Any change other than the page goes back to page 1,
 * since the old page number means nothing in a new result.
 */
export function useTrainerSearch() {
  const [params, setParams] = useSearchParams();
  const search = useMemo(() => parseTrainerSearch(params), [params]);

  const update = useCallback(
    (change: Partial<TrainerSearch>, { replace = false }: UpdateOptions = {}) => {
      setParams(
        (current) => {
          const previous = parseTrainerSearch(current);
          const next = { ...previous, page: 1, ...change };
          return writeTrainerSearch(next, current);
        },
        { replace, preventScrollReset: true },
      );
    },
    [setParams],
  );

  const clearFilters = useCallback(
    () => update({ q: '', minPrice: undefined, maxPrice: undefined, minRating: undefined, gender: undefined, city: undefined, favoritesOnly: false }),
    [update],
  );

  return { search, update, clearFilters };
}
