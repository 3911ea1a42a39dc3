import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { mailTo, signUpData, uniqueEmail } from './support';

/**
 * A visitor's first request for a public page comes rendered by the server (docs/decisions/031-server-rendered-first-page.md):
 * the HTML holds the page and the answers it was made from, the browser shows it before any script
 * runs, and the app then hydrates that markup instead of drawing the page again. Someone logged in
 * gets the shell, so their own header is there from the start.
 */

// The browser is on the other side of the world from the server (UTC, English): a date, a time or
// a number the two render differently is a hydration mismatch, which the fixture's console check fails.
test.use({ timezoneId: 'Pacific/Kiritimati', locale: 'de-DE' });

type Trainer = { _id: string; firstName: string; lastName: string };

async function firstTrainers(request: APIRequestContext): Promise<Trainer[]> {
  const answer = await request.get('/api/trainers?sort=rating&page=1&limit=24');
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { viewAllTrainers: Trainer[] }).viewAllTrainers;
}

/** The page's HTML as the server sends it, and the answers in its data block. */
async function pageHtml(request: APIRequestContext, path: string, headers: Record<string, string> = {}) {
  const answer = await request.get(path, { headers });
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toContain('text/html');
  const html = await answer.text();
  const data = /<script type="application\/json" id="server-data">([^<]*)<\/script>/.exec(html)?.[1];
  return { html, data: data === undefined ? undefined : (JSON.parse(data) as { queries: Array<{ queryKey: unknown[] }> }) };
}

/** Keeps the element React will hydrate as the browser first built it, to compare after the app ran. */
async function rememberFirstMain(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { __firstMain: Element | null }).__firstMain = document.getElementById('main');
    });
  });
}
const isFirstMain = (page: Page) =>
  page.evaluate(() => {
    const first = (window as unknown as { __firstMain: Element | null }).__firstMain;
    return first !== null && first === document.getElementById('main');
  });

test('the trainer list comes rendered: cards, count and title in the HTML, with the answer they were made from', async ({
  request,
}) => {
  const trainers = await firstTrainers(request);
  const { html, data } = await pageHtml(request, '/trainers');
  expect(html).toContain('<title>Find a trainer · Spotter</title>');
  expect(html).toMatch(/<h1[^>]*>Find your trainer<\/h1>/);
  for (const trainer of trainers.slice(0, 3)) expect(html).toContain(`${trainer.firstName} ${trainer.lastName}`);
  expect(html).toMatch(/<p role="status"[^>]*>\d+ trainers<\/p>/);
  // the same query key the list's fetcher uses, so the browser does not ask again to show it
  expect(data?.queries.map((q) => q.queryKey)).toContainEqual(['trainers', 'list', expect.objectContaining({ sort: 'rating' })]);
  // the app's code is not preloaded: the page paints first (the shell keeps the preloads)
  expect(html).not.toContain('data-app');
  expect((await pageHtml(request, '/user/settings')).html).toContain('data-app');
});

test("a profile comes rendered with the trainer's name, picture and title", async ({ request }) => {
  const [trainer] = await firstTrainers(request);
  const { html, data } = await pageHtml(request, `/trainer/profile/${trainer._id}`);
  const fullName = `${trainer.firstName} ${trainer.lastName}`;
  expect(html).toContain(`<title>${fullName} · Spotter</title>`);
  expect(html).toMatch(new RegExp(`<h1[^>]*>${fullName}</h1>`));
  expect(html).toMatch(new RegExp(`<img src="[^"]+" alt="${fullName}"`));
  expect(data?.queries.map((q) => q.queryKey)).toContainEqual(['trainers', 'detail', trainer._id]);
});

test('a person’s own pages, and every page of someone logged in, come as the shell the browser renders', async ({ request }) => {
  for (const path of ['/user/profile', '/trainer/settings', '/user/chatOfUser', '/trainers?favorites=1', '/no-such-page']) {
    expect((await pageHtml(request, path)).data, path).toBeUndefined();
  }
  const signedIn = await pageHtml(request, '/trainers', { Cookie: 'cookie-accepted=true; signed-in=1' });
  expect(signedIn.data).toBeUndefined();
  expect(signedIn.html).not.toContain('Find your trainer');
});

test('the browser hydrates the rendered list: the same elements, then filters, hearts and links work', async ({ page }) => {
  await rememberFirstMain(page);
  await page.goto('/trainers');
  expect(await isFirstMain(page), 'the main element the server sent is still the one on screen').toBe(true);

  await page.getByLabel('Sort by', { exact: true }).selectOption({ label: 'Price: low to high' });
  await expect(page).toHaveURL(/sort=price_asc/);
  await expect(page.locator('ul[aria-busy]')).toHaveCount(0);

  const name = (await page.locator('main article').first().getByRole('heading').textContent()) ?? '';
  const firstName = name.split(' ')[0];
  // that trainer's card, wherever it is: other tests add trainers meanwhile, and a refetched page may
  // put a new one first
  const card = page.locator('main article').filter({ has: page.getByRole('heading', { name, exact: true }) });
  await card.getByRole('button', { name: `Add ${firstName} to favourites`, exact: true }).click();
  await expect(card.getByRole('button', { name: `Remove ${firstName} from favourites`, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // The Pages menu's button names the list it opens by the id React made on the server: the ids agree.
  await page.setViewportSize({ width: 1280, height: 900 });
  const pagesButton = page.getByRole('button', { name: 'Pages', exact: true });
  await pagesButton.click();
  const controls = await pagesButton.getAttribute('aria-controls');
  await expect(page.locator(`[id="${controls}"]`)).toBeVisible();
});

test('a favourite shows as soon as the rendered page is hydrated, and the profile links back to the last search', async ({
  page,
  request,
}) => {
  const [trainer] = await firstTrainers(request);
  await page.goto('/trainers?sort=newest');
  await page.evaluate((id) => localStorage.setItem('favorites', JSON.stringify([id])), trainer._id);
  await page.goto(`/trainer/profile/${trainer._id}`);
  // the server rendered the heart off (favourites live in the browser); the app turns it on
  await expect(page.getByRole('button', { name: `Remove ${trainer.firstName} from favourites`, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByRole('link', { name: 'All trainers' })).toHaveAttribute('href', '/trainers?sort=newest');
});

test('without JavaScript a visitor still reads the list, searches it and opens a profile', async ({ browser, request }) => {
  const [trainer] = await firstTrainers(request);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/trainers');
  await expect(page.getByRole('heading', { name: `${trainer.firstName} ${trainer.lastName}` })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search trainers' }).fill(trainer.lastName);
  await page.getByRole('searchbox', { name: 'Search trainers' }).press('Enter');
  await expect(page).toHaveURL(new RegExp(`\\?q=${encodeURIComponent(trainer.lastName)}$`));
  await expect(page.getByText(/^\d+ trainers?$/)).toBeVisible();
  await page.locator('main article').first().getByRole('link', { name: 'View profile' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // a form never goes off by itself: its submit button waits for the app
  await page.goto('/users/login');
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeDisabled();
  await context.close();
});

test('logging in sets the signed-in cookie, so pages come as the shell with the person’s header; logging out clears it', async ({
  page,
  context,
}) => {
  await page.goto('/users/login');
  await page.getByLabel('Email', { exact: true }).fill('user@spotter.test');
  await page.getByLabel('Password', { exact: true }).fill('Demo1234');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByRole('link', { name: 'My profile' })).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === 'signed-in')?.value).toBe('1');

  const shell = await page.request.get('/trainers');
  expect(await shell.text()).not.toContain('server-data');
  await page.goto('/trainers');
  await expect(page.getByRole('link', { name: 'My profile' })).toBeVisible();

  await page.getByRole('button', { name: 'Log out' }).first().click();
  await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === 'signed-in')).toBeUndefined();
});

test('markup stored in a trainer’s texts and typed into the address stays text in the rendered page and its data', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('ssr-xss');
  const password = 'Strong12';
  const payload = '</script><script>window.__ssrXss=1</script><!--';
  const register = await request.post('/api/trainers/register', {
    data: signUpData('trainer', { firstName: 'Rania', lastName: `Ssr${Date.now().toString(36)}`, email, password }),
  });
  expect(register.status(), await register.text()).toBe(201);
  expect((await request.get((await mailTo(email)).links[0])).ok()).toBe(true);
  const login = await request.post('/api/trainers/login', { data: { email, password } });
  const { token } = (await login.json()) as { token: string };
  const edit = await request.patch('/api/trainer/edit', {
    headers: { Authorization: `Bearer ${token}` },
    data: { description: payload },
  });
  expect(edit.status(), await edit.text()).toBe(200);
  const own = (await (await request.get('/api/trainerData', { headers: { Authorization: `Bearer ${token}` } })).json()) as {
    trainerData: { _id: string };
  };

  const path = `/trainer/profile/${own.trainerData._id}`;
  const { html, data } = await pageHtml(request, path);
  expect(html).not.toContain('<script>window.__ssrXss');
  expect(JSON.stringify(data)).toContain(payload);

  await page.goto(path);
  await expect(page.getByText(payload)).toBeVisible();
  await page.goto(`/trainers?q=${encodeURIComponent(payload)}`);
  await expect(page.getByRole('searchbox', { name: 'Search trainers' })).toHaveValue(payload.slice(0, 100));
  expect(await page.evaluate(() => (window as unknown as { __ssrXss?: number }).__ssrXss)).toBeUndefined();
});
