import type { TTrainersQuery } from '@spotter/shared';

/**
 * The addresses of the trainer reads, apart from lib/api/trainers.ts so that app/screens.ts can ask
 * for the first screen's data before React and React Query have loaded.
 */

/**
 * GET /api/trainers with the query string the server takes (docs/product.md#trainer-list-search), in the query's order; unset
 * values left out.
 */
export function trainersPath(query: TTrainersQuery) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  return `/trainers?${params.toString()}`;
}

/** GET /api/trainerData/:id, the public profile. */
export const trainerPath = (id: string) => `/trainerData/${encodeURIComponent(id)}`;

/**
 * What the trainer list asks first when its address holds no search: the first page, best rated.
 * trainer-search.test.ts checks it against the list's own reading of an empty address.
 */
export const FIRST_TRAINERS_QUERY: TTrainersQuery = { sort: 'rating', page: 1, limit: 24 };

/**
 * The cards of the trainer list's first row at its widest (three columns): their pictures load at
 * once and first (TrainerCard's `isFirstInView`), and app/screens.ts fetches them with the page.
 */
export const LIST_FIRST_ROW = 3;
