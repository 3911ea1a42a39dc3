import { readFileSync, writeFileSync } from 'node:fs';
import { test as plainTest, type Page } from '@playwright/test';
import { DEMO_PASSWORD, demoEmail, expect, expectNoAxeViolations, test } from './fixtures';

/**
 * Installable and offline (docs/product.md#installable-and-offline, docs/decisions/048-service-worker.md):
 * the manifest and its icons, the service worker controlling the page, what shows offline, logout
 * forgetting the person's saved answers, and a new version offered, not forced.
 */

const OFFLINE = "You're offline. Showing what was saved on this device.";

/** Waits until the service worker (registered after the first paint) is active and controls the page. */
async function waitForControl(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/** The addresses kept in one of the service worker's caches (none when it does not exist). */
const cachedUrls = (page: Page, name: string) =>
  page.evaluate(async (cacheName) => {
    if (!(await caches.has(cacheName))) return [];
    const cache = await caches.open(cacheName);
    return (await cache.keys()).map((request) => request.url);
  }, name);

test('the manifest is linked and served, its icons load, and the service worker controls the page', async ({ page }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const answer = await page.request.get(href!);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  expect(answer.headers()['cache-control']).toBe('no-cache');
  const manifest = (await answer.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    scope: string;
    display: string;
    theme_color: string;
    icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
    shortcuts: Array<{ name: string; url: string }>;
  };
  expect(manifest).toMatchObject({
    name: 'Spotter · Find your personal trainer',
    short_name: 'Spotter',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: '#0b1020',
  });
  expect(manifest.shortcuts.map(({ name, url }) => [name, url])).toEqual([
    ['Find a trainer', '/trainers'],
    ['My sessions', '/user/profile'],
  ]);
  const sizes = manifest.icons.map((icon) => `${icon.sizes}${icon.purpose ? ` ${icon.purpose}` : ''}`);
  expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512', '512x512 maskable']));
  const appleIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
  for (const src of [...manifest.icons.map((icon) => icon.src), appleIcon!]) {
    const icon = await page.request.get(new URL(src, page.url()).href);
    expect(icon.status(), src).toBe(200);
    expect(icon.headers()['content-type'], src).toBe('image/png');
  }

  await waitForControl(page);
  const sw = await page.request.get('/sw.js');
  expect(sw.headers()['cache-control']).toBe('no-cache');

  // Chromium's own installability checks (what its install prompt and Lighthouse's former audit ask):
  // none fails once the worker controls the page, but that a test's browser context is a private
  // window ('in-incognito'), which is the browser's, not the site's
  const cdp = await page.context().newCDPSession(page);
  await expect
    .poll(async () =>
      (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors
        .map((e) => e.errorId)
        .filter((id) => id !== 'in-incognito'),
    )
    .toEqual([]);

  // Under the worker a visitor's page still comes from the server, rendered with its data, never
  // the precached shell.
  await page.goto('/');
  await expect(page.locator('#server-data')).toHaveCount(1);
});

/**
 * Offline the chat socket cannot connect, and the browser says so on the console: this test takes
 * the plain page and fails on any other console error or page error itself.
 */
plainTest(
  'offline, the trainer list and the own sessions still show what was saved, and a screen never saved loads once back online',
  async ({ page, context }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      const text = message.text();
      if (message.type() === 'error' && !/WebSocket connection to .* failed: .*ERR_INTERNET_DISCONNECTED/.test(text))
        errors.push(text);
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const login = await page.request.post('/api/users/login', { data: { email: demoEmail('user'), password: DEMO_PASSWORD } });
    const { token } = (await login.json()) as { token: string };
    await page.addInitScript((value) => {
      localStorage.setItem('token', value);
      localStorage.setItem('userType', 'user');
    }, token);
    const ready = () => page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
    await page.goto('/');
    await waitForControl(page);

    // Online once: the list and the sessions, each answer kept in the person's cache.
    await page.goto('/trainers');
    const cards = page.locator('main article');
    await expect(cards.first()).toBeVisible();
    const firstTrainer = (await cards.first().getByRole('heading').textContent())!;
    const profile = (await cards.first().getByRole('link', { name: 'View profile' }).getAttribute('href'))!;
    await page.goto('/user/profile');
    await expect(page.getByRole('heading', { name: 'My sessions' })).toBeVisible();
    await expect
      .poll(async () => {
        const urls = await cachedUrls(page, 'spotter-personal');
        return ['/api/trainers?', '/api/bookings'].filter((path) => !urls.some((url) => url.includes(path)));
      })
      .toEqual([]);

    await context.setOffline(true);
    await page.reload();
    await ready();
    const offline = page.getByRole('status').filter({ hasText: OFFLINE });
    await expect(offline).toBeVisible();
    await expect(page.getByRole('heading', { name: 'My sessions' })).toBeVisible();
    await expect(page.getByText('Could not load your sessions')).toHaveCount(0);
    await expectNoAxeViolations(page);

    await page.goto('/trainers');
    await ready();
    await expect(offline).toBeVisible();
    await expect(cards.first().getByRole('heading')).toHaveText(firstTrainer);

    expect(errors, 'console errors').toEqual([]);

    // A profile never opened is not on the device (its request fails, as the console says): the
    // screen waits, and loads once the connection is back.
    await page.goto(profile);
    await ready();
    await expect(offline).toBeVisible();
    await context.setOffline(false);
    await expect(offline).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(firstTrainer.split(' ')[0]);
    errors.splice(0, errors.length, ...errors.filter((text) => text !== 'Failed to load resource: net::ERR_FAILED'));
    expect(errors, 'console errors').toEqual([]);
  },
);

test("logout deletes the person's saved answers", async ({ page, login }) => {
  await login();
  await page.goto('/');
  await waitForControl(page);
  await page.goto('/user/profile');
  await expect(page.getByRole('heading', { name: 'My sessions' })).toBeVisible();
  await expect.poll(async () => (await cachedUrls(page, 'spotter-personal')).length).toBeGreaterThan(0);
  // each key holds the token's hash, never the token
  const token = await page.evaluate(() => localStorage.getItem('token'));
  for (const url of await cachedUrls(page, 'spotter-personal')) {
    expect(url).toMatch(/spotter-token=[0-9a-f]{64}/);
    expect(url).not.toContain(token);
  }

  await page.getByRole('button', { name: 'Log out' }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(() => page.evaluate(() => caches.has('spotter-personal'))).toBe(false);
  expect(await cachedUrls(page, 'spotter-personal')).toEqual([]);
});

test('a new version is offered, and the page reloads under it only when asked', async ({ page }) => {
  await page.goto('/trainers');
  await waitForControl(page);
  await expect(page.getByText('A new version of Spotter is ready')).toHaveCount(0);

  // A new build: the same worker changed by a comment, as a deploy changes it. The browser's own
  // update check cannot be routed by Playwright, so the built file changes for as long as it takes
  // to install the new worker.
  const file = 'apps/web/dist/sw.js';
  const built = readFileSync(file, 'utf8');
  try {
    writeFileSync(file, `${built}\n// the next build\n`);
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration!.update();
    });
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.waiting?.state))
      .toBe('installed');
  } finally {
    writeFileSync(file, built);
  }

  const prompt = page.getByRole('status').filter({ hasText: 'A new version of Spotter is ready' });
  await expect(prompt).toBeVisible();
  // nothing changes until asked: this page and its worker stay
  await page.evaluate(() => {
    (window as { beforeUpdate?: boolean }).beforeUpdate = true;
  });

  await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Update' }).click()]);
  await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
  expect(await page.evaluate(() => (window as { beforeUpdate?: boolean }).beforeUpdate)).toBeUndefined();
  await waitForControl(page);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.waiting)).toBeNull();
  await expect(page.getByText('A new version of Spotter is ready')).toHaveCount(0);
});
