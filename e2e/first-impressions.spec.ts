import type { APIRequestContext, Locator } from '@playwright/test';
import { expect, test } from './fixtures';

async function firstTrainerId(request: APIRequestContext) {
  const answer = await request.get('/api/trainers?limit=1');
  expect(answer.ok()).toBe(true);
  const { viewAllTrainers } = (await answer.json()) as { viewAllTrainers: { _id: string }[] };
  return viewAllTrainers[0]._id;
}

const boxOf = async (locator: Locator) => {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return box;
};

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the back-to-top button and the cookie notice sit above the sticky 'Book now!' bar", async ({ page, request }) => {
    await page.goto(`/trainer/profile/${await firstTrainerId(request)}`);
    const bar = page.getByTestId('booking-bar');
    await expect(bar.getByRole('button', { name: 'Book now!' })).toBeVisible();
    const notice = page.getByRole('region', { name: 'Cookie notice' });
    await expect(notice).toBeVisible();

    await page.mouse.wheel(0, 1500);
    const backToTop = page.getByRole('button', { name: 'Back to top' });
    await expect(backToTop).toBeVisible();

    const barTop = (await boxOf(bar)).y;
    for (const floating of [notice, backToTop]) {
      const box = await boxOf(floating);
      expect(box.y + box.height).toBeLessThanOrEqual(barTop);
    }
    // 'Book now!' is not covered: a click reaches it.
    await bar.getByRole('button', { name: 'Book now!' }).click();
    await expect(page.getByText('Log in to start booking Trainers!')).toBeVisible();
  });

  // The page as the server renders it for a visitor (docs/decisions/031-server-rendered-first-page.md: the bar is in the HTML,
  // the fonts may come after the first paint), and as the browser renders it for someone signed in (the shell:
  // the bar appears with the profile's answer, held here until the notice is on screen).
  for (const how of ['rendered by the server', 'rendered in the browser'] as const) {
    test(`the cookie notice rising above the 'Book now!' bar is no layout shift (${how})`, async ({
      page,
      request,
      context,
      baseURL,
    }) => {
      if (how === 'rendered in the browser') await context.addCookies([{ name: 'signed-in', value: '1', url: baseURL! }]);
      // a phone's network: the fonts come after the rendered page has painted
      else
        await page.route('**/*.woff2', async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 400));
          await route.continue();
        });
      // layout shifts of the floating corner, as the browser reports them (what CLS adds up)
      await page.addInitScript(() => {
        const shifts: number[] = [];
        Object.assign(window, { cornerShifts: shifts });
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as Array<{ value: number; sources?: Array<{ node?: Node }> }>) {
            const corner = document.querySelector('[data-testid="floating-corner"]');
            if (entry.sources?.some((s) => s.node && corner?.contains(s.node))) shifts.push(entry.value);
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      // the profile's answer waits until the notice is on screen, so the bar appears under it
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/trainerData/*', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`/trainer/profile/${await firstTrainerId(request)}`);
      const notice = page.getByRole('region', { name: 'Cookie notice' });
      await expect(notice).toBeVisible();
      release();

      const bar = page.getByTestId('booking-bar');
      await expect(bar.getByRole('button', { name: 'Book now!' })).toBeVisible();
      await expect(async () => {
        const box = await boxOf(notice);
        expect(box.y + box.height).toBeLessThanOrEqual((await boxOf(bar)).y);
      }).toPass();
      expect(await page.evaluate(() => (window as unknown as { cornerShifts: number[] }).cornerShifts)).toEqual([]);
    });
  }
});

// The server sends a broken address of the web app to /not-found (its API paths answer JSON 400).
test('a malformed address shows the app’s not-found screen', async ({ page }) => {
  await page.goto('/trainer/profile/%E0%A4%A');
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
});

test('a visitor of the inbox logs in and comes back to it', async ({ page }) => {
  await page.goto('/user/chatOfUser');
  await expect(page).toHaveURL(/\/users\/login\?next=%2Fuser%2FchatOfUser$/);
  await page.getByLabel('Email', { exact: true }).fill('user@spotter.test');
  await page.getByLabel('Password', { exact: true }).fill('Demo1234');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/user\/chatOfUser$/, { timeout: 8_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
});

test('focus moved by Tab never lands under the sticky header', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { level: 1, name: 'Pricing' })).toBeVisible();
  // Scroll past the focusable FAQ, then move focus back up to it with the keyboard.
  await page.getByText('Questions, answered').scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, 3000);
  const faq = page.locator('summary').first();
  await faq.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const headerBottom = (await boxOf(page.getByRole('banner'))).height;
  await expect(async () => expect((await boxOf(faq)).y).toBeGreaterThanOrEqual(headerBottom)).toPass();
});
