import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { takeEarly } from '@/lib/early-requests';
import { jsonResponse } from '@/testing/render';
import { routes } from './router';
import { preloadFirstScreen, screenAt, screens } from './screens';

const routePaths = (list: RouteObject[]): string[] =>
  list.flatMap((route) => [...(route.path && !route.index ? [route.path] : []), ...routePaths(route.children ?? [])]);

const preloadedPictures = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]')].map((link) => link.href);

afterEach(() => {
  for (const link of document.head.querySelectorAll('link[rel="preload"]')) link.remove();
});

describe('the first screen of a page load', () => {
  it('is known for every address of the route table', () => {
    const paths = routePaths(routes).filter((path) => path !== '/' && path !== '*');
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) expect(screenAt(path.replace(/:\w+/g, 'x')), path).not.toBeNull();
    expect(screenAt('/')?.screen).toBe('home');
  });

  it('matches addresses as React Router does: any case, a trailing slash, one segment a parameter', () => {
    expect(screenAt('/bmi')?.screen).toBe('bmi');
    expect(screenAt('/trainers/')?.screen).toBe('trainerList');
    expect(screenAt('/trainers/login')?.screen).toBe('login');
    expect(screenAt('/trainer/profile/abc')).toEqual({ screen: 'trainerProfile', params: ['abc'] });
    expect(screenAt('/trainer/profile')?.screen).toBe('ownProfile');
    expect(screenAt('/trainer/profile/abc/more')).toBeNull();
    expect(screenAt('/no-such-page')).toBeNull();
  });

  it("starts the screen's chunk, the data it shows first and the picture in it", async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ trainerData: { _id: 't 1', picture: 'http://localhost/p/t1.svg' } }));
    vi.stubGlobal('fetch', fetchMock);
    const load = vi.spyOn(screens, 'trainerProfile').mockResolvedValue({} as never);
    preloadFirstScreen({ pathname: '/trainer/profile/t%201', search: '' });
    expect(load).toHaveBeenCalledOnce();
    expect(fetchMock).toHaveBeenCalledWith('/api/trainerData/t%201', expect.anything());
    await expect(takeEarly('/trainerData/t%201')).resolves.toMatchObject({ trainerData: { _id: 't 1' } });
    await vi.waitFor(() => expect(preloadedPictures()).toEqual(['http://localhost/p/t1.svg']));
  });

  it('asks for the trainer list only when the address holds no search, and fetches the first row of pictures', async () => {
    const trainers = ['a', 'b', 'c', 'd'].map((id) => ({ _id: id, picture: `http://localhost/p/${id}.svg` }));
    const fetchMock = vi.fn(async () => jsonResponse({ viewAllTrainers: [...trainers, { _id: 'e', picture: '' }] }));
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(screens, 'trainerList').mockResolvedValue({} as never);
    preloadFirstScreen({ pathname: '/trainers', search: '?sort=newest' });
    expect(fetchMock).not.toHaveBeenCalled();
    preloadFirstScreen({ pathname: '/trainers', search: '' });
    expect(fetchMock).toHaveBeenCalledWith('/api/trainers?sort=rating&page=1&limit=24', expect.anything());
    expect(takeEarly('/trainers?sort=rating&page=1&limit=24')).toBeDefined();
    await vi.waitFor(() => expect(preloadedPictures()).toEqual(['a', 'b', 'c'].map((id) => `http://localhost/p/${id}.svg`)));
  });

  it('starts nothing for an address no screen has', () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    preloadFirstScreen({ pathname: '/no-such-page', search: '' });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
