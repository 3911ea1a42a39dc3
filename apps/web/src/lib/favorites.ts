import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { ApiError, apiRequest } from './api-client';
import { roleFromToken, useSession } from './session';
import { storage } from './storage';
import { notify } from './toast';

/**
 * Favourite trainers (spec section 3, DECISIONS 14). Everyone keeps them in local storage under
 * `favorites`, rewritten on every change; a logged-in user also keeps them on the server, which
 * answers every change with the whole list, so the devices of one user agree.
 */

/** The server takes at most 500 ids of at most 64 characters (ZMergeFavoritesRequest). */
const MAX_FAVORITES = 500;

type FavoritesResponse = { favorites: string[] };

const isFavoritesResponse = (value: unknown): value is FavoritesResponse =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as { favorites?: unknown }).favorites) &&
  (value as { favorites: unknown[] }).favorites.every((id) => typeof id === 'string');

// useSyncExternalStore needs the same array back while nothing changed.
let snapshot: { key: string; ids: string[] } = { key: '', ids: [] };
const EMPTY: string[] = [];

export function getFavorites(): string[] {
  const ids = storage.getFavorites();
  const key = ids.join(',');
  if (key !== snapshot.key) snapshot = { key, ids };
  return snapshot.ids;
}

/**
 * Bumped by every local change, so a server answer that was on its way before the change cannot
 * overwrite it.
 */
let version = 0;

function writeLocal(ids: string[]) {
  version += 1;
  storage.setFavorites(ids);
}

function storeServerList(value: unknown, startedAt: number) {
  if (startedAt !== version || !isFavoritesResponse(value)) return;
  storage.setFavorites(value.favorites);
}

const isLoggedInUser = () => {
  const token = storage.getToken();
  return token !== null && (storage.getUserType() ?? roleFromToken(token)) === 'user';
};

export const SAVE_FAVORITE_FAILED = 'Could not save your favourite. Please try again.';

/** Adds the trainer if absent, removes it if present (spec section 4). */
export function toggleFavorite(trainerId: string) {
  const current = getFavorites();
  const isAdding = !current.includes(trainerId);
  writeLocal(isAdding ? [...current, trainerId].slice(-MAX_FAVORITES) : current.filter((id) => id !== trainerId));
  if (!isLoggedInUser()) return;

  const startedAt = version;
  apiRequest<unknown>(`/favorites/${encodeURIComponent(trainerId)}`, { method: isAdding ? 'PUT' : 'DELETE' }).then(
    (answer) => storeServerList(answer, startedAt),
    (error: unknown) => {
      // An expired session: the browser's list still holds the change.
      if (error instanceof ApiError && error.status === 401) return;
      // Undo only this change; other hearts clicked meanwhile keep theirs.
      const now = getFavorites();
      writeLocal(isAdding ? now.filter((id) => id !== trainerId) : [...now, trainerId]);
      notify.error(SAVE_FAVORITE_FAILED);
    },
  );
}

/** Tokens whose server list was loaded in this page view. */
const loadedFor = new Set<string>();

/** A logged-in user's favourites come from the server once per page view (and login). */
export async function loadServerFavorites(token: string) {
  if (loadedFor.has(token)) return;
  loadedFor.add(token);
  const startedAt = version;
  try {
    storeServerList(await apiRequest<unknown>('/favorites'), startedAt);
  } catch {
    loadedFor.delete(token); // try again on the next screen with hearts
  }
}

/**
 * After a user logs in: the favourites of this browser join the account's, and the merged list
 * is stored here. Fire and forget; a failure leaves the local list as it was.
 */
export async function mergeFavoritesAfterLogin() {
  const token = storage.getToken();
  const local = getFavorites()
    .filter((id) => id.length <= 64)
    .slice(-MAX_FAVORITES);
  const startedAt = version;
  try {
    storeServerList(await apiRequest<unknown>('/favorites/merge', { method: 'POST', body: { favorites: local } }), startedAt);
    if (token) loadedFor.add(token);
  } catch {
    // the local list stays; the next screen with hearts loads the server list
  }
}

/** The favourite ids, kept in sync across every heart on screen and across tabs. */
export function useFavorites() {
  const ids = useSyncExternalStore(storage.subscribe, getFavorites, () => EMPTY);
  const { token, role } = useSession();

  useEffect(() => {
    if (token && role === 'user') void loadServerFavorites(token);
  }, [token, role]);

  const isFavorite = useCallback((trainerId: string) => ids.includes(trainerId), [ids]);
  return { ids, isFavorite, toggleFavorite };
}
