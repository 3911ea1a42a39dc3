import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { findToast, jsonResponse } from '@/testing/render';
import { FAVORITES_LIMITS as SHARED_FAVORITES_LIMITS } from '@spotter/shared';
import { FAVORITES_LIMITS, mergeFavoritesAfterLogin, SAVE_FAVORITE_FAILED, useFavorites, useToggleFavorite } from './favorites';

const stored = () => JSON.parse(localStorage.getItem('favorites') ?? 'null') as unknown;

function logInAs(role: 'user' | 'trainer', token: string) {
  localStorage.setItem('token', token);
  localStorage.setItem('userType', role);
}

/** The hearts' view of the favourites, in a query client of its own (as one page view). */
function renderFavorites(
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } }),
) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
  const hook = renderHook(() => ({ ...useFavorites(), toggle: useToggleFavorite() }), { wrapper });
  return { ...hook, queryClient };
}

/** An answer the test sends when it chooses, to see what happens before it arrives. */
function deferred() {
  let send: (response: Response) => void = () => {};
  const promise = new Promise<Response>((resolve) => {
    send = resolve;
  });
  return { promise, send };
}

describe('favourites', () => {
  it('keeps the limits the server enforces', () => {
    expect(FAVORITES_LIMITS).toEqual(SHARED_FAVORITES_LIMITS);
  });

  it('a logged-in user sees a change at once, saves it on the server and keeps its answer', async () => {
    logInAs('user', 'token-toggle');
    const put = deferred();
    const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
      if (url === '/api/favorites') return jsonResponse({ favorites: [] });
      if (url === '/api/favorites/t1' && init.method === 'PUT') return put.promise;
      return jsonResponse({ message: 'Not found', statusCode: 404 }, 404);
    });
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderFavorites();
    await waitFor(() => expect(result.current.isPending).toBe(false));

    act(() => result.current.toggle('t1'));
    // Before the server answers:
    await waitFor(() => expect(result.current.ids).toEqual(['t1']));
    expect(stored()).toEqual(['t1']);
    expect(result.current.isFavorite('t1')).toBe(true);

    put.send(jsonResponse({ favorites: ['t0', 't1'] }));
    await waitFor(() => expect(result.current.ids).toEqual(['t0', 't1']));
    expect(stored()).toEqual(['t0', 't1']);
    expect(fetchMock).toHaveBeenCalledWith('/api/favorites/t1', expect.objectContaining({ method: 'PUT' }));
  });

  it('undoes the change and says so when the server refuses it', async () => {
    logInAs('user', 'token-refused');
    const remove = deferred();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => (url === '/api/favorites' ? jsonResponse({ favorites: ['t1'] }) : remove.promise)),
    );
    const { result } = renderFavorites();
    await waitFor(() => expect(result.current.ids).toEqual(['t1']));

    act(() => result.current.toggle('t1'));
    await waitFor(() => expect(result.current.ids).toEqual([]));
    expect(stored()).toEqual([]);

    remove.send(jsonResponse({ message: 'Trainer not found', statusCode: 404 }, 404));

    expect(await findToast(SAVE_FAVORITE_FAILED)).toHaveAttribute('data-type', 'error');
    await waitFor(() => expect(result.current.ids).toEqual(['t1']));
    expect(stored()).toEqual(['t1']);
  });

  it('a trainer keeps favourites in this browser only', async () => {
    logInAs('trainer', 'token-trainer');
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderFavorites();

    act(() => result.current.toggle('t9'));

    await waitFor(() => expect(result.current.ids).toEqual(['t9']));
    expect(stored()).toEqual(['t9']);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('merges the browser list into the account at login and keeps the result for the new session', async () => {
    localStorage.setItem('favorites', '["local"]');
    logInAs('user', 'token-merge');
    const fetchMock = vi.fn(async () => jsonResponse({ favorites: ['server', 'local'] }));
    vi.stubGlobal('fetch', fetchMock);
    const queryClient = new QueryClient();

    await mergeFavoritesAfterLogin(queryClient);

    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/favorites/merge');
    expect(JSON.parse(init.body as string)).toEqual({ favorites: ['local'] });
    expect(stored()).toEqual(['server', 'local']);
    // The hearts of the new session show the merged list without asking again.
    const { result } = renderFavorites(queryClient);
    expect(result.current.ids).toEqual(['server', 'local']);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('ignores a failed merge', async () => {
    localStorage.setItem('favorites', '["local"]');
    logInAs('user', 'token-merge-fails');
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(mergeFavoritesAfterLogin(new QueryClient())).resolves.toBeUndefined();
    expect(stored()).toEqual(['local']);
  });

  it('loads a logged-in user’s list from the server and follows another tab’s changes', async () => {
    logInAs('user', 'token-load');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ favorites: ['a', 'b'] })),
    );
    const { result } = renderFavorites();

    await waitFor(() => expect(result.current.ids).toEqual(['a', 'b']));
    expect(result.current.isFavorite('a')).toBe(true);
    expect(stored()).toEqual(['a', 'b']);

    act(() => localStorage.setItem('favorites', '["c"]'));
    act(() => window.dispatchEvent(new StorageEvent('storage', { key: 'favorites' })));
    await waitFor(() => expect(result.current.ids).toEqual(['c']));
  });
});
