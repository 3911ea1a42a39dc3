import { useCallback, useEffect, useMemo, useRef } from 'react';
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

  // React Router's functional setSearchParams hands every call the params of the last render, not
  // those of the call before it: two changes before the next render (a filter, then the sort) would
  // keep only the second. Each change builds on the last one written until the URL catches up.
  const written = useRef({ seen: params, latest: params });
  if (written.current.seen !== params) written.current = { seen: params, latest: params };

  const update = useCallback(
    (change: Partial<TrainerSearch>, { replace = false }: UpdateOptions = {}) => {
      const current = written.current.latest;
      const next = writeTrainerSearch({ ...parseTrainerSearch(current), page: 1, ...change }, current);
      written.current.latest = next;
      setParams(next, { replace, preventScrollReset: true });
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
        available: undefined,
        availableOn: undefined,
        favoritesOnly: false,
        verified: false,
      }),
    [update],
  );

  return { search, update, clearFilters };
}
