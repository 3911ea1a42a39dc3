import { expect, test } from './fixtures';

type TopTrainer = { _id: string; firstName: string; lastName: string };

test('the home page shows the hero, real top-rated trainers and a gallery that zooms', async ({ page, request }) => {
  const api = await request.get('/api/trainers?sort=rating&limit=4');
  const { viewAllTrainers } = (await api.json()) as { viewAllTrainers: TopTrainer[] };
  expect(viewAllTrainers).toHaveLength(4);

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Shape Your Ideal Body' })).toBeVisible();
  await expect(page.getByText('Since 2010', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);

  const trainers = page.getByRole('region', { name: 'Meet our top-rated coaches' });
  // The trainer card of the list: the heart and 'View profile', which opens the profile.
  const cards = trainers.getByRole('listitem').getByRole('article');
  await expect(cards).toHaveCount(4);
  for (const [index, trainer] of viewAllTrainers.entries()) {
    await expect(cards.nth(index).getByRole('heading', { level: 3 })).toHaveText(`${trainer.firstName} ${trainer.lastName}`);
    await expect(cards.nth(index).getByRole('link', { name: 'View profile' })).toHaveAttribute(
      'href',
      `/trainer/profile/${trainer._id}`,
    );
    await expect(cards.nth(index).getByRole('button', { name: `Add ${trainer.firstName} to favourites` })).toBeVisible();
  }

  const gallery = page.getByRole('region', { name: 'Every kind of training' });
  await expect(gallery.getByRole('img')).toHaveCount(10);
  const tile = gallery.getByRole('button', { name: 'View Deadlift larger' });
  await tile.click();
  const dialog = page.getByRole('dialog', { name: 'Deadlift' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('img')).toBeVisible();
  await dialog.getByRole('button', { name: 'Next image' }).click();
  await expect(page.getByRole('dialog', { name: 'Push-ups' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(gallery.getByRole('button', { name: 'View Push-ups larger' })).toBeFocused();

  await page.getByRole('region', { name: 'Gym Schedule' }).getByRole('tab', { name: 'Monday' }).click();
  await expect(page.getByRole('table', { name: 'Classes on Monday' }).getByRole('row', { name: /Deadlift/ })).toContainText(
    '06-07AM',
  );

  await page.getByRole('link', { name: 'Progressive overload, explained: how to get stronger every week' }).click();
  await expect(page).toHaveURL(/\/blog\/progressive-overload-explained$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Progressive overload, explained: how to get stronger every week' }),
  ).toBeVisible();
});

test('the header lifts after 50 px and back-to-top appears after 500 px', async ({ page }) => {
  await page.goto('/');
  const header = page.getByRole('banner');
  const backToTop = page.getByRole('button', { name: 'Back to top', exact: true });
  // index.html paints a static header first; until the page's content is there, there is nothing to scroll
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(header).not.toHaveAttribute('data-stuck');
  await expect(backToTop).toHaveCount(0);

  await page.evaluate(() => window.scrollTo(0, 200));
  await expect(header).toHaveAttribute('data-stuck', 'true');
  await expect(backToTop).toHaveCount(0);

  await page.evaluate(() => window.scrollTo(0, 1500));
  await expect(backToTop).toBeVisible();
  await backToTop.click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(backToTop).toHaveCount(0);
  await expect(page.locator('#main')).toBeFocused();
});

test('the cookie banner stays away once accepted, also after a reload', async ({ page, context }) => {
  await page.goto('/');
  const banner = page.getByRole('region', { name: 'Cookie notice' });
  await expect(banner).toBeVisible();

  // It does not cover the back-to-top button: the button sits above it.
  await page.evaluate(() => window.scrollTo(0, 1500));
  const button = await page.getByRole('button', { name: 'Back to top', exact: true }).boundingBox();
  const notice = await banner.boundingBox();
  expect(button && notice && button.y + button.height <= notice.y).toBe(true);

  await banner.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(banner).toHaveCount(0);
  const cookie = (await context.cookies()).find((c) => c.name === 'cookie-accepted');
  expect(cookie).toMatchObject({ value: 'true', path: '/', sameSite: 'Lax' });
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Shape Your Ideal Body' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cookie notice' })).toHaveCount(0);
  await page.goto('/BMI');
  await expect(page.getByRole('heading', { level: 1, name: 'BMI Calculator' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cookie notice' })).toHaveCount(0);
});

test('the BMI calculator gives 22.49, Normal weight, for 170 cm and 65 kg', async ({ page }) => {
  await page.goto('/BMI');
  await page.getByLabel('Height (cm)', { exact: true }).fill('170');
  await page.getByLabel('Weight (kg)', { exact: true }).fill('65');
  await page.getByRole('button', { name: 'Click to Calculate BMI', exact: true }).click();

  await expect(page.getByText('22.49', { exact: true })).toBeVisible();
  await expect(page.getByText('You are Normal weight', { exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: /22\.49 is in the Normal weight band/ })).toBeVisible();

  await page.getByLabel('Height (cm)', { exact: true }).fill('');
  await expect(page.getByText('22.49', { exact: true })).toHaveCount(0);
});

test('the pricing toggle switches between monthly and yearly prices', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { level: 1, name: 'Pricing' })).toBeVisible();
  const pro = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Pro', exact: true }) });
  await expect(pro).toContainText('$19/ month');

  await page.locator('label').filter({ hasText: 'Yearly' }).click();
  await expect(page.getByRole('radio', { name: 'Yearly 2 months free' })).toBeChecked();
  await expect(pro).toContainText('$190/ year');

  await page.getByRole('radio', { name: 'Monthly' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(pro).toContainText('$190/ year');
  await page.keyboard.press('ArrowLeft');
  await expect(pro).toContainText('$19/ month');
});

test('the blog lists its articles, opens one and handles an unknown address', async ({ page }) => {
  await page.goto('/blog');
  await expect(page.getByRole('heading', { level: 1, name: 'Latest Gym Blog & News' })).toBeVisible();
  const titles = page.getByRole('main').getByRole('heading', { level: 2 });
  expect(await titles.count()).toBeGreaterThanOrEqual(3);

  await page.getByRole('link', { name: 'A ten-minute mobility routine for desk days' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'A ten-minute mobility routine for desk days' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'The routine' })).toBeVisible();

  await page.goto('/blog/no-such-article');
  await expect(page.getByRole('heading', { level: 1, name: 'Post not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the blog' }).click();
  await expect(page).toHaveURL(/\/blog$/);
});

// axe runs on each page as the test leaves it (fixtures.ts), once its content is on screen.
test('the landing and static pages render their content (and pass axe)', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Meet our top-rated coaches' }).getByRole('listitem')).toHaveCount(4);
  await expect(page.getByRole('region', { name: 'Meet our top-rated coaches' })).not.toHaveAttribute('aria-busy', 'true');

  await page.goto('/BMI');
  await page.getByLabel('Height (cm)', { exact: true }).fill('170');
  await page.getByLabel('Weight (kg)', { exact: true }).fill('65');
  await page.getByRole('button', { name: 'Click to Calculate BMI', exact: true }).click();
  await expect(page.getByText('You are Normal weight', { exact: true })).toBeVisible();

  for (const [path, heading] of [
    ['/team', 'Our team'],
    ['/pricing', 'Pricing'],
    ['/blog', 'Latest Gym Blog & News'],
    ['/blog/fat-loss-without-crash-diets', 'Fat loss without crash diets: what actually works'],
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
});
