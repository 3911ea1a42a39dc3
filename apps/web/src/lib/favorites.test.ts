import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/testing/render';
import { mergeFavoritesAfterLogin, toggleFavorite, useFavorites } from './favorites';

const stored = () => JSON.parse(localStorage.getItem('favorites') ?? 'null') as unknown;

function logInAs(role: 'user' | 'trainer', token: string) {
  localStorage.setItem('token', token);
  localStorage.setItem('userType', role);
}

describe('favourites', () => {
  it('a logged-in user saves each change on the server and keeps its answer', async () => {
    logInAs('user', 'token-toggle');
    const fetchMock = vi.fn(async () => jsonResponse({ favorites: ['t0', 't1'] }));
    vi.stubGlobal('fetch', fetchMock);

    toggleFavorite('t1');
    expect(stored()).toEqual(['t1']); // at once, before the server answers

    await waitFor(() => expect(stored()).toEqual(['t0', 't1']));
    expect(fetchMock).toHaveBeenCalledWith('/api/favorites/t1', expect.objectContaining({ method: 'PUT' }));
  });

  it('undoes the change when the server refuses it', async () => {
    logInAs('user', 'token-refused');
    localStorage.setItem('favorites', '["t1"]');
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse({ message: 'Trainer not found', statusCode: 404 }, 404)));

    toggleFavorite('t1');
    expect(stored()).toEqual([]);
    await waitFor(() => expect(stored()).toEqual(['t1']));
  });

  it('a trainer keeps favourites in this browser only', () => {
    logInAs('trainer', 'token-trainer');
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    toggleFavorite('t9');
    expect(stored()).toEqual(['t9']);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('merges the browser list into the account at login and stores the result', async () => {
    localStorage.setItem('favorites', '["local"]');
    localStorage.setItem('token', 'token-merge');
    const fetchMock = vi.fn(async () => jsonResponse({ favorites: ['server', 'local'] }));
    vi.stubGlobal('fetch', fetchMock);

    await mergeFavoritesAfterLogin();

    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/favorites/merge');
    expect(JSON.parse(init.body as string)).toEqual({ favorites: ['local'] });
    expect(stored()).toEqual(['server', 'local']);
  });

  it('ignores a failed merge', async () => {
    localStorage.setItem('favorites', '["local"]');
    localStorage.setItem('token', 'token-merge-fails');
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(mergeFavoritesAfterLogin()).resolves.toBeUndefined();
    expect(stored()).toEqual(['local']);
  });

  it('loads a logged-in user’s list from the server and follows changes', async () => {
    logInAs('user', 'token-load');
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse({ favorites: ['a', 'b'] })));
    const { result } = renderHook(() => useFavorites());

    await waitFor(() => expect(result.current.ids).toEqual(['a', 'b']));
    expect(result.current.isFavorite('a')).toBe(true);

    act(() => localStorage.setItem('favorites', '["c"]'));
    act(() => window.dispatchEvent(new StorageEvent('storage', { key: 'favorites' })));
    expect(result.current.ids).toEqual(['c']);
  });
});
