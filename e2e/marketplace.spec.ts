import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';

type Trainer = { _id: string; firstName: string; lastName: string; price: number; rating: number; ratingCount: number };
type Review = { isMine?: boolean };

async function listTrainers(request: APIRequestContext, query = ''): Promise<Trainer[]> {
  const answer = await request.get(`/api/trainers?limit=100${query}`);
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { viewAllTrainers: Trainer[] }).viewAllTrainers;
}

/** Clicks the drawn star, as a person would (the radio inside it is visually hidden). */
const chooseStars = (page: Page, name: string) =>
  page
    .locator('label')
    .filter({ has: page.getByRole('radio', { name, exact: true }) })
    .click();

const reviewsText = (n: number) => `${n} ${n === 1 ? 'review' : 'reviews'}`;

const priceOf = async (card: ReturnType<Page['locator']>) =>
  Number((await card.getByText(/^\$[\d,]+$/).textContent())?.replace(/[$,]/g, ''));

test('a visitor filters the list, opens a profile and keeps a favourite across a reload', async ({ page }) => {
  await page.goto('/trainers');
  await expect(page.getByText(/^\d+ trainers$/)).toBeVisible();

  await page.getByLabel('Gender', { exact: true }).selectOption('female');
  await page.getByLabel('Sort by', { exact: true }).selectOption({ label: 'Price: low to high' });
  await expect(page).toHaveURL(/gender=female/);
  await expect(page).toHaveURL(/sort=price_asc/);

  // The filtered result is on screen (the previous one is dimmed while it loads).
  await expect(page.locator('ul[aria-busy]')).toHaveCount(0);
  const cards = page.locator('main article');
  await expect(cards.nth(1)).toBeVisible();
  const [first, second] = [await priceOf(cards.nth(0)), await priceOf(cards.nth(1))];
  expect(first).toBeLessThanOrEqual(second);

  // The query survives a reload.
  await page.reload();
  await expect(page.getByLabel('Gender', { exact: true })).toHaveValue('female');
  await expect(page.getByLabel('Sort by', { exact: true })).toHaveValue('price_asc');

  const firstName = (await cards.nth(0).getByRole('heading').textContent())?.split(' ')[0] ?? '';
  await cards.nth(0).getByRole('link', { name: 'View profile' }).click();
  await expect(page).toHaveURL(/\/trainer\/profile\/[\w-]+$/);
  const trainerId = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { level: 1 })).toContainText(firstName);

  await page.getByRole('button', { name: `Add ${firstName} to favourites`, exact: true }).click();
  const heart = page.getByRole('button', { name: `Remove ${firstName} from favourites`, exact: true });
  await expect(heart).toHaveAttribute('aria-pressed', 'true');

  await page.reload();
  await expect(heart).toHaveAttribute('aria-pressed', 'true');
  // Red when favourite (docs/product.md#trainer-list): the heart takes the danger colour.
  await expect(heart.locator('svg')).toHaveCSS('color', 'rgb(180, 35, 24)');
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('favorites') ?? '[]'))).toEqual([trainerId]);

  // The list shows the same heart, and "Favourites only" keeps just that trainer.
  await page.goto('/trainers?favorites=1');
  await expect(page.getByText('1 trainer', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: `Remove ${firstName} from favourites`, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
});

test('a user posts a 5-star review and sees it, the new average and the new count', async ({ page, request, login }) => {
  const token = await login({ role: 'user' });

  // The lowest-rated trainer this user has not reviewed yet, so a 5 visibly moves the average.
  const candidates = (await listTrainers(request)).filter((t) => t.ratingCount > 0).sort((a, b) => a.rating - b.rating);
  let trainer: Trainer | undefined;
  for (const candidate of candidates) {
    const answer = await request.get(`/api/trainer/reviews/${candidate._id}`, { headers: { Authorization: `Bearer ${token}` } });
    const { allReviews } = (await answer.json()) as { allReviews: Review[] };
    if (!allReviews.some((review) => review.isMine)) {
      trainer = candidate;
      break;
    }
  }
  expect(trainer, 'a trainer the demo user has not reviewed').toBeDefined();
  const { _id, firstName, rating, ratingCount } = trainer!;

  await page.goto(`/trainer/profile/${_id}`);
  const booking = page.getByRole('complementary', { name: 'Booking' });
  await expect(booking).toContainText(`${rating.toFixed(1)} out of 5`);
  await expect(booking).toContainText(reviewsText(ratingCount));

  const comment = `Clear plans and patient corrections (${Date.now()})`;
  await chooseStars(page, '5 stars');
  await expect(page.getByRole('radio', { name: '5 stars', exact: true })).toBeChecked();
  await page.getByLabel('Your review', { exact: true }).fill(comment);
  await page.getByRole('button', { name: 'Post review', exact: true }).click();

  await expect(page.getByText('Thank you for sharing your experience!')).toBeVisible();
  const mine = page.getByRole('list', { name: 'Reviews', exact: true }).getByRole('listitem').filter({ hasText: comment });
  await expect(mine).toContainText('Mariam Hassan');
  await expect(mine).toContainText('Your review');

  const after = (await (await request.get(`/api/trainerData/${_id}`)).json()) as { trainerData: Trainer };
  expect(after.trainerData.ratingCount).toBe(ratingCount + 1);
  expect(after.trainerData.rating.toFixed(1)).not.toBe(rating.toFixed(1));
  await expect(booking).toContainText(`${after.trainerData.rating.toFixed(1)} out of 5`);
  await expect(booking).toContainText(reviewsText(ratingCount + 1));
  await expect(page.getByText(`You reviewed ${firstName}; posting again updates your review`)).toBeVisible();
});

test("a trainer who tries to post a review is told trainers can't", async ({ page, request, login }) => {
  await login({ role: 'trainer' });
  const [trainer] = await listTrainers(request, '&sort=price_desc');

  await page.goto(`/trainer/profile/${trainer._id}`);
  await chooseStars(page, '4 stars');
  await page.getByLabel('Your review', { exact: true }).fill('A colleague’s opinion');
  await page.getByRole('button', { name: 'Post review', exact: true }).click();

  await expect(page.getByText("Trainers can't post reviews!")).toBeVisible();
  await page.getByRole('button', { name: 'Book now!', exact: true }).click();
  await expect(page.getByText("Trainers can't book other Trainers!")).toBeVisible();
});

test("a visitor who clicks 'Book now!' is asked to log in, and sees no review form", async ({ page, request }) => {
  const [trainer] = await listTrainers(request);
  await page.goto(`/trainer/profile/${trainer._id}`);

  await page.getByRole('button', { name: 'Book now!', exact: true }).click();
  await expect(page.getByText('Log in to start booking Trainers!')).toBeVisible();
  await page.getByRole('button', { name: `Message ${trainer.firstName}`, exact: true }).click();
  await expect(page.getByText('Only users can message trainers!')).toBeVisible();
  await expect(page.getByText(`Please Login to Review ${trainer.firstName}'s Profile!`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Post review' })).toHaveCount(0);
});

test('an unknown trainer id shows "Trainer not found" with a way back', async ({ page }) => {
  await page.goto('/trainer/profile/00000000-0000-0000-0000-000000000000');
  await expect(page.getByRole('heading', { name: 'Trainer not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Browse all trainers' }).click();
  await expect(page).toHaveURL(/\/trainers$/);
});

// axe runs on each page as the test leaves it (fixtures.ts), once its content is on screen.
test('the list and a profile show their content (and pass axe)', async ({ page, request }) => {
  await page.goto('/trainers');
  await expect(page.locator('main article').first()).toBeVisible();

  const [trainer] = await listTrainers(request);
  await page.goto(`/trainer/profile/${trainer._id}`);
  await expect(page.getByRole('list', { name: 'Rating breakdown' })).toBeVisible();
});

test("a user's hearts are saved on the server and come back in a browser that forgot them", async ({ page, request, login }) => {
  const token = await login({ role: 'user' });
  await page.goto('/trainers?sort=newest');
  const card = page.locator('main article').first();
  const firstName = (await card.getByRole('heading').textContent())?.split(' ')[0] ?? '';
  const trainerId = (await card.getByRole('link', { name: 'View profile' }).getAttribute('href'))?.split('/').pop();

  await card.getByRole('button', { name: `Add ${firstName} to favourites`, exact: true }).click();
  await expect
    .poll(async () => {
      const answer = await request.get('/api/favorites', { headers: { Authorization: `Bearer ${token}` } });
      return ((await answer.json()) as { favorites: string[] }).favorites;
    })
    .toContain(trainerId);

  await page.evaluate(() => localStorage.removeItem('favorites'));
  await page.reload();
  await expect(page.getByRole('button', { name: `Remove ${firstName} from favourites`, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
});
