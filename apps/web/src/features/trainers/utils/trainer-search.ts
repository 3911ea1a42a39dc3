import {
  CITY_SUGGESTIONS,
  GENDERS,
  MIN_RATING_OPTIONS,
  TRAINER_AVAILABLE,
  TRAINER_LIST_LIMITS,
  TRAINER_SORTS,
  type TTrainerListSearch,
} from '@spotter/shared';
import type { TrainersQuery } from '@/lib/api/trainers';

export type TrainerSort = TTrainerListSearch['sort'];
export type Gender = NonNullable<TTrainerListSearch['gender']>;
export type TrainerAvailable = NonNullable<TTrainerListSearch['available']>;

/** Everything the trainer list shows, as held in the address (docs/product.md#trainer-list-search: shareable). */
export type TrainerSearch = Omit<TTrainerListSearch, 'favorites' | 'minRating'> & {
  minRating?: number;
  favoritesOnly: boolean;
};

const DEFAULT_SORT: TrainerSort = 'rating';
export { MIN_RATING_OPTIONS };
export const MAX_PRICE = TRAINER_LIST_LIMITS.priceMax;
const PAGE_SIZE = TRAINER_LIST_LIMITS.pageSize;

const SEARCH_KEYS = [
  'q',
  'minPrice',
  'maxPrice',
  'minRating',
  'gender',
  'city',
  'available',
  'availableOn',
  'sort',
  'page',
  'favorites',
  'verified',
] as const;

/** A whole number in [min, max] as the shared schema coerces it (`Number`), or undefined; empty is missing. */
function wholeNumber(value: string | null, min: number, max: number) {
  if (value === null || value === '') return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

/** A calendar date (YYYY-MM-DD) that exists, as the shared `ZIsoDate` reads it; undefined otherwise. */
function isoDate(value: string | null) {
  if (value === null || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value ? value : undefined;
}

/**
 * Reads the address as the shared schema `ZTrainerListSearch` does: anything missing or not valid
 * falls back to its default, never a crash; the first of repeated parameters counts. Written out
 * rather than parsed with zod, so the list's first render does not wait for zod (27 KB gzip) to
 * download and build its schemas (docs/decisions/029-trainer-list-address-without-zod.md); trainer-search.test.ts checks the two
 * agree.
 */
export function parseTrainerSearch(params: URLSearchParams): TrainerSearch {
  const get = (key: (typeof SEARCH_KEYS)[number]) => params.get(key);
  return {
    q: (get('q') ?? '').slice(0, TRAINER_LIST_LIMITS.qMax),
    minPrice: wholeNumber(get('minPrice'), 0, TRAINER_LIST_LIMITS.priceMax),
    maxPrice: wholeNumber(get('maxPrice'), 0, TRAINER_LIST_LIMITS.priceMax),
    // Number(null) and Number('') are 0, which is no option
    minRating: MIN_RATING_OPTIONS.find((option) => option === Number(get('minRating'))),
    gender: GENDERS.find((gender) => gender === get('gender')),
    city: CITY_SUGGESTIONS.find((city) => city === get('city')),
    available: TRAINER_AVAILABLE.find((available) => available === get('available')),
    availableOn: isoDate(get('availableOn')),
    sort: TRAINER_SORTS.find((sort) => sort === get('sort')) ?? DEFAULT_SORT,
    page: wholeNumber(get('page'), 1, TRAINER_LIST_LIMITS.pageMax) ?? 1,
    favoritesOnly: get('favorites') === '1',
    verified: get('verified') === '1',
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
    available: search.available,
    availableOn: search.availableOn,
    sort: search.sort === DEFAULT_SORT ? undefined : search.sort,
    page: search.page > 1 ? String(search.page) : undefined,
    favorites: search.favoritesOnly ? '1' : undefined,
    verified: search.verified ? '1' : undefined,
  };
  for (const key of SEARCH_KEYS) {
    const value = values[key];
    if (value !== undefined) next.set(key, value);
  }
  return next;
}

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
    available: search.available,
    availableOn: search.availableOn,
    // verified coaches only (docs/product.md#verified-coaches); no filter is no parameter
    verified: search.verified ? 'true' : undefined,
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
  search.available !== undefined ||
  search.availableOn !== undefined ||
  search.favoritesOnly ||
  search.verified;
