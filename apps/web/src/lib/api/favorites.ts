import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type { TFavoritesResponse } from '@spotter/shared';
import { ApiError, apiRequest } from '../api-client';
import { useIsHydrating } from '../hydration';
import { useSession } from '../session';
import { storage } from '../storage';
import { notify } from '../toast';
import { trainersByIdsQueryOptions } from './trainers';

/**
 * Favourite trainers (docs/product.md#browser-storage, docs/product.md#favourites), held in the query cache. Everyone's list is
 * mirrored in local storage under `favorites` on every change; a logged-in user's list also lives
 * on the server, which answers every change with the whole list, so the devices of one user agree.
 * A heart changes the list at once (optimistic) and every screen reading it follows.
 */

/** Whose list a key holds: a logged-in user's token, or null for this browser's own list. */
type Owner = string | null;

const favoriteKeys = {
  all: ['favorites'] as const,
  ids: (owner: Owner) => [...favoriteKeys.all, 'ids', owner] as const,
};

/**
 * FAVORITES_LIMITS of @spotter/shared, repeated here: a value imported from there loads zod and every
 * schema with it, and the hearts are on the landing page (favorites.test.tsx checks they agree).
 */
export const FAVORITES_LIMITS = { max: 500, idMax: 64 } as const;

export const SAVE_FAVORITE_FAILED = 'Could not save your favourite. Please try again.';

/** GET /api/favorites: the logged-in user's favourite trainer ids. */
const getFavorites = (signal?: AbortSignal) =>
  apiRequest<TFavoritesResponse>('/favorites', { signal }).then(({ favorites }) => favorites);

/** PUT or DELETE /api/favorites/:trainerId; answers the whole list. */
const setFavorite = ({ trainerId, isFavorite }: { trainerId: string; isFavorite: boolean }) =>
  apiRequest<TFavoritesResponse>(`/favorites/${encodeURIComponent(trainerId)}`, { method: isFavorite ? 'PUT' : 'DELETE' }).then(
    ({ favorites }) => favorites,
  );

/** POST /api/favorites/merge: adds this browser's list to the account's; answers the merged list. */
const mergeFavorites = (favorites: string[]) =>
  apiRequest<TFavoritesResponse>('/favorites/merge', { method: 'POST', body: { favorites } }).then(
    ({ favorites: merged }) => merged,
  );

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((id) => typeof id === 'string');

/** The owner of the list the session sees: only a logged-in user keeps favourites on the server. */
function useOwner(): Owner {
  const { token, role } = useSession();
  return token !== null && role === 'user' ? token : null;
}

/** Writes the list into the cache and its local-storage mirror. */
function writeFavorites(queryClient: QueryClient, owner: Owner, ids: string[]) {
  queryClient.setQueryData(favoriteKeys.ids(owner), ids);
  storage.setFavorites(ids);
}

const readFavorites = (queryClient: QueryClient, owner: Owner) =>
  queryClient.getQueryData<string[]>(favoriteKeys.ids(owner)) ?? storage.getFavorites();

/**
 * The favourite ids. A visitor's (and a trainer's) come from this browser; a logged-in user's come
 * from the server once per page view, with this browser's copy shown meanwhile. Another tab's
 * change arrives through the storage event.
 */
export function useFavorites() {
  const owner = useOwner();
  const queryClient = useQueryClient();
  const query = useQuery<string[], Error, string[], ReturnType<typeof favoriteKeys.ids>>({
    queryKey: favoriteKeys.ids(owner),
    queryFn: async ({ signal }): Promise<string[]> => {
      if (!owner) return storage.getFavorites();
      const ids = await getFavorites(signal);
      storage.setFavorites(ids);
      return ids;
    },
    placeholderData: () => storage.getFavorites(),
    staleTime: Infinity,
  });

  useEffect(
    () =>
      storage.subscribe(() => {
        const stored = storage.getFavorites();
        const cached = queryClient.getQueryData<string[]>(favoriteKeys.ids(owner));
        if (cached && stored.join(',') !== cached.join(',')) queryClient.setQueryData(favoriteKeys.ids(owner), stored);
      }),
    [queryClient, owner],
  );

  // this browser's list is not the server's to know: the page it rendered shows none at first
  const isHydrating = useIsHydrating();
  const ids = (!isHydrating && query.data) || EMPTY;
  const isFavorite = useCallback((trainerId: string) => ids.includes(trainerId), [ids]);
  // Pending until the list is the real one (a user's server list, not the local copy shown meanwhile).
  return { ids, isFavorite, isPending: isHydrating || query.isPending || query.isPlaceholderData };
}

const EMPTY: string[] = [];

/** Adds the trainer if absent, removes it if present (docs/product.md#states). */
export function useToggleFavorite() {
  const owner = useOwner();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationKey: favoriteKeys.all,
    mutationFn: async ({ trainerId, isFavorite }: { trainerId: string; isFavorite: boolean }) =>
      owner ? setFavorite({ trainerId, isFavorite }) : null,
    onMutate: async ({ trainerId, isFavorite }) => {
      await queryClient.cancelQueries({ queryKey: favoriteKeys.ids(owner) });
      const current = readFavorites(queryClient, owner).filter((id) => id !== trainerId);
      writeFavorites(queryClient, owner, isFavorite ? [...current, trainerId].slice(-FAVORITES_LIMITS.max) : current);
    },
    onSuccess: (answer) => {
      // Only the last answer in flight is the whole truth; earlier ones miss the later clicks.
      if (answer && isStringList(answer) && queryClient.isMutating({ mutationKey: favoriteKeys.all }) === 1) {
        writeFavorites(queryClient, owner, answer);
      }
    },
    onError: (error, { trainerId, isFavorite }) => {
      // An expired session: the browser's list still holds the change.
      if (error instanceof ApiError && error.status === 401) return;
      // Undo only this change; other hearts clicked meanwhile keep theirs.
      const now = readFavorites(queryClient, owner).filter((id) => id !== trainerId);
      writeFavorites(queryClient, owner, isFavorite ? now : [...now, trainerId]);
      notify.error(SAVE_FAVORITE_FAILED);
    },
  });
  const { mutate } = mutation;
  const toggle = useCallback(
    (trainerId: string) => mutate({ trainerId, isFavorite: !readFavorites(queryClient, owner).includes(trainerId) }),
    [mutate, queryClient, owner],
  );
  return toggle;
}

/**
 * After a user logs in: this browser's favourites join the account's, and the merged list is
 * cached for the new session and stored here. A failure leaves the local list as it was; the
 * first screen with hearts then loads the server's list.
 */
export async function mergeFavoritesAfterLogin(queryClient: QueryClient) {
  const token = storage.getToken();
  const local = storage
    .getFavorites()
    .filter((id) => id.length <= FAVORITES_LIMITS.idMax)
    .slice(-FAVORITES_LIMITS.max);
  try {
    const merged = await mergeFavorites(local);
    if (token && isStringList(merged)) writeFavorites(queryClient, token, merged);
  } catch {
    // the local list stays; the next screen with hearts loads the server list
  }
}

/** The favourite trainers as cards, in the list's order (listed trainers only). */
export function useFavoriteTrainers() {
  const { ids, isPending } = useFavorites();
  return useQuery({
    ...trainersByIdsQueryOptions(ids),
    enabled: !isPending,
    placeholderData: keepPreviousData,
    // A heart turned off leaves at once, before the new answer arrives.
    select: (trainers) => trainers.filter((trainer) => ids.includes(trainer._id)),
  });
}
