import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { rememberTrainerSearch } from '../utils/last-search';
import { parseTrainerSearch, writeTrainerSearch, type TrainerSearch } from '../utils/trainer-search';

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
  const query = params.toString();
  useEffect(() => rememberTrainerSearch(query), [query]);

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
    () =>
      update({
        q: '',
        minPrice: undefined,
        maxPrice: undefined,
        minRating: undefined,
        gender: undefined,
        city: undefined,
        favoritesOnly: false,
      }),
    [update],
  );

  return { search, update, clearFilters };
}
