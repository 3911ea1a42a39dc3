import { screen, waitFor } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callsOf, listAnswer, makeTrainer, stubApi } from '@/testing/fake-api';
import { setApiFetch } from '@/lib/api-client';
import { jsonResponse } from '@/testing/render';
import { blogPosts } from '@/lib/blog-posts';
import { configureRenderer, renderPage, type RenderedPage } from './render-page';
import { start } from './start';

/**
 * What the server sends a visitor (renderPage) must be what the browser's first render makes of
 * the same address, or React throws the page away and draws it again (a console error here). Each
 * public page is rendered as the server does, parsed by jsdom's HTML parser as a browser would
 * (which is what catches markup React can make but HTML cannot hold, such as a list inside a
 * paragraph), then hydrated by the app's own start().
 */

const trainers = [
  makeTrainer({ _id: 't1', firstName: 'Nadia', lastName: 'Samir' }),
  makeTrainer({ _id: 't2', firstName: 'Omar', lastName: 'Fathy', picture: '' }),
  makeTrainer({ _id: 't3', firstName: 'Lina', lastName: 'Adel', description: '</script><script>window.__ssr=1</script><!--' }),
];
const byId = new Map(trainers.map((t) => [t._id, t]));

/** The API answers of these three trainers, as the server's routes give them. */
function answer(url: URL) {
  if (url.pathname === '/api/trainers') return jsonResponse(listAnswer(trainers));
  const profile = /^\/api\/trainerData\/(.+)$/.exec(url.pathname);
  if (profile) {
    const trainer = byId.get(decodeURIComponent(profile[1]));
    return trainer
      ? jsonResponse({ trainerData: trainer })
      : jsonResponse({ message: 'Trainer not found', statusCode: 404 }, 404);
  }
  if (/^\/api\/trainer\/reviews\/[^/]+\/distribution$/.test(url.pathname))
    return jsonResponse({ distribution: { 1: 0, 2: 0, 3: 1, 4: 0, 5: 1 } });
  if (url.pathname === '/api/auth/config') return jsonResponse({ googleClientId: null });
  return undefined;
}

let root: Root | undefined;

beforeEach(() => {
  configureRenderer({
    fetchApi: async (url) =>
      answer(new URL(url, 'http://localhost')) ?? jsonResponse({ message: 'Not found', statusCode: 404 }, 404),
  });
});

afterEach(() => {
  root?.unmount();
  root = undefined;
  delete document.documentElement.dataset.appReady;
  document.body.innerHTML = '';
  document.cookie = 'cookie-accepted=; path=/; max-age=0';
});

/**
 * Renders `path` as the server does, puts it in the page as the browser would get it and starts the
 * app on it (its API calls go to fetch from then on: stubApi's). `beforeStart` acts on the page the
 * way a person can before the app has loaded.
 */
async function openRendered(
  path: string,
  { cookies = '', rendered, beforeStart }: { cookies?: string; rendered?: RenderedPage | null; beforeStart?: () => void } = {},
) {
  const page = rendered ?? (await renderPage({ url: path, cookies }));
  if (!page) throw new Error(`${path} was not rendered`);
  setApiFetch((url, init) => fetch(url, init));
  window.history.replaceState(null, '', path);
  document.body.innerHTML = `<div id="root">${page.root}</div>${page.data}`;
  const main = document.getElementById('main');
  expect(main, 'the rendered page has its main element').not.toBeNull();
  beforeStart?.();
  root = await start(document.getElementById('root')!);
  await waitFor(() => expect(document.documentElement.hasAttribute('data-app-ready')).toBe(true));
  return { page, main };
}

const publicPages = [
  '/',
  '/trainers',
  '/trainers?city=Cairo&sort=price_asc&minPrice=100&page=2',
  '/trainers?q=%3C%2Fscript%3E',
  '/trainer/profile/t1',
  '/trainer/profile/t3',
  '/trainer/profile/nobody',
  '/BMI',
  '/users/login',
  '/trainers/login',
  '/users/register',
  '/trainers/register',
  '/forgot-password',
  '/reset-password?token=abc',
  '/verification/success',
  '/verification/failed',
  '/team',
  '/pricing',
  '/blog',
  `/blog/${blogPosts[0].slug}`,
];

describe('a page rendered on the server', () => {
  it.each(publicPages)('%s is hydrated as it came: the same elements, no mismatch', async (path) => {
    stubApi(answer);
    const { main } = await openRendered(path);
    // still the element the server's markup made (a mismatch would have rendered it anew, and logged it)
    expect(document.getElementById('main')).toBe(main);
  });

  it('does not ask the API again for what the page came with', async () => {
    const fetchMock = stubApi(answer);
    await openRendered('/trainer/profile/t1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Nadia Samir' })).toBeInTheDocument();
    expect(callsOf(fetchMock).filter((call) => /\/api\/(trainerData|trainers|trainer\/reviews)/.test(call))).toEqual([]);
  });

  it('keeps what was typed and chosen before the app ran: the search, the sort, a filter', async () => {
    stubApi(answer);
    await openRendered('/trainers', {
      beforeStart: () => {
        const box = document.querySelector<HTMLInputElement>('input[type="search"]')!;
        box.value = 'yoga';
        const sort = screen.getByLabelText('Sort by') as HTMLSelectElement;
        sort.value = 'price_asc';
        (screen.getAllByLabelText('Favourites only')[0] as HTMLInputElement).checked = true;
      },
    });
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('sort')).toBe('price_asc'));
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('q')).toBe('yoga'));
    expect(new URLSearchParams(window.location.search).get('favorites')).toBe('1');
    expect(screen.getByRole('searchbox', { name: 'Search trainers' })).toHaveValue('yoga');
  });

  it('calculates the BMI from what was typed before the app ran', async () => {
    stubApi(answer);
    await openRendered('/BMI', {
      beforeStart: () => {
        (screen.getByLabelText('Height (cm)') as HTMLInputElement).value = '170';
        (screen.getByLabelText('Weight (kg)') as HTMLInputElement).value = '65';
      },
    });
    screen.getByRole('button', { name: 'Click to Calculate BMI' }).click();
    expect(await screen.findByText('22.49')).toBeInTheDocument();
  });

  it('shows what only this browser knows (favourites, the last search) once hydrated, without a mismatch', async () => {
    stubApi(answer);
    // the server has no browser storage (jsdom's is empty while it renders here)
    const page = await renderPage({ url: '/trainer/profile/t1' });
    expect(page?.root).toContain('aria-pressed="false"');
    localStorage.setItem('favorites', JSON.stringify(['t1']));
    sessionStorage.setItem('spotter:trainer-search', 'sort=newest');
    await openRendered('/trainer/profile/t1', { rendered: page });
    expect(await screen.findByRole('button', { name: 'Remove Nadia from favourites' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('link', { name: 'All trainers' })).toHaveAttribute('href', '/trainers?sort=newest');
    sessionStorage.clear();
  });

  it('shows the cookie notice by the request’s cookies, as the browser’s first render does', async () => {
    stubApi(answer);
    const fresh = await renderPage({ url: '/BMI' });
    expect(fresh?.root).toContain('Cookie notice');
    document.cookie = 'cookie-accepted=true; path=/';
    await openRendered('/BMI', { cookies: 'cookie-accepted=true' });
    expect(document.body.textContent).not.toContain('We use only essential cookies');
  });

  it('holds the list and the cards it was rendered from, with every "<" of stored text escaped', async () => {
    const page = await renderPage({ url: '/trainers' });
    expect(page?.root).toContain('Nadia Samir');
    expect(page?.root).toContain('3 trainers');
    expect(page?.head).toMatch(/^<link rel="preload" as="image" href="\/api\/avatars\/trainer-001\.svg\?g=f"/);
    expect(page?.head).toContain('<title>Find a trainer · Spotter</title>');
    const json = /^<script type="application\/json" id="server-data">(.*)<\/script>$/.exec(page?.data ?? '')?.[1] ?? '';
    expect(json).not.toContain('<');
    expect(JSON.stringify(JSON.parse(json))).toContain(trainers[2].description);
  });

  it('is not made for a person’s own pages, a favourites-only list or an unknown address', async () => {
    for (const url of ['/user/profile', '/trainer/settings', '/user/chatOfUser', '/trainers?favorites=1', '/nowhere']) {
      expect(await renderPage({ url }), url).toBeNull();
    }
  });
});
