import type { APIRequestContext, Page } from '@playwright/test';
import { createVerifiedAccount, expect, expectNoAxeViolations, PASSWORD, test, type Role } from './fixtures';

/**
 * Packages (docs/product.md#packages): a trainer sells 5 sessions for a total in settings; a user buys
 * it with the demo provider, books a standing weekly series of 4 weeks from the balance
 * (docs/product.md#standing-weekly-sessions), moves one of its sessions, and sees the balance (1 of 5
 * left) and its ledger entries on the payments page. The browser is in the trainer's zone (Cairo).
 */
test.use({ timezoneId: 'Africa/Cairo' });

const ZONE = 'Africa/Cairo';
const HOUR = 60 * 60_000;

const createAccount = (request: APIRequestContext, role: Role) => createVerifiedAccount(request, role, 'packages');

const dayHeading = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: ZONE }).format(new Date(iso));
const time = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: ZONE }).format(new Date(iso));
/** 'Tue 1 Dec, 10:00' in Cairo, as the series' confirmation and the ledger's entries write a session. */
function when(iso: string) {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: ZONE,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('weekday')} ${get('day')} ${get('month')}, ${get('hour')}:${get('minute')}`;
}
const WEEK = 7 * 24 * HOUR;

/** Logs the tab in as another account, as the login screen would store it. */
async function switchTo(page: Page, token: string, role: Role) {
  await page.evaluate(
    ([value, type]) => {
      localStorage.setItem('token', value);
      localStorage.setItem('userType', type);
    },
    [token, role],
  );
}

test('a trainer sells a 5-session package; a user buys it, books 4 weekly sessions from it, moves one, and sees 1 of 5 left and the ledger', async ({
  page,
  login,
}) => {
  test.setTimeout(150_000);
  const trainer = await createAccount(page.request, 'trainer');
  const user = await createAccount(page.request, 'user');
  // The trainer ($300 a session) offers 10:00 and 11:00 every day, in Cairo.
  const put = await page.request.put('/api/trainer/availability', {
    headers: { Authorization: trainer.token },
    data: { timeZone: ZONE, weekly: Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: [10, 11] })) },
  });
  expect(put.status(), await put.text()).toBe(200);
  const own = await page.request.get('/api/trainerData', { headers: { Authorization: trainer.token } });
  const { trainerData } = (await own.json()) as { trainerData: { _id: string } };

  // The trainer sets a package of 5 sessions for $1,200 in settings.
  await login({ role: 'trainer', email: trainer.email, password: PASSWORD });
  await page.goto('/trainer/settings#packages');
  const settings = page.locator('#packages');
  await expect(settings.getByText(/^You sell no packages yet/)).toBeVisible();
  await settings.getByRole('button', { name: 'Add a package' }).click();
  const row = settings.getByRole('group', { name: 'Package 1' });
  await row.getByLabel('Sessions').fill('5');
  await row.getByLabel('Total price').fill('1200');
  await row.getByLabel('Valid for').selectOption('3');
  await expect(row).toContainText('$240 a session, saves $300');
  await expectNoAxeViolations(page);
  await settings.getByRole('button', { name: 'Save packages' }).click();
  await expect(settings.getByText('Your packages are saved')).toBeVisible();
  await page.setViewportSize({ width: 360, height: 740 });
  // the page fits a phone's width once it has laid itself out again after the resize (measured at once,
  // it read 368 px now and then, on this page and on the payments page, and 360 a moment later)
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 720 });

  // The user buys it on the trainer's profile with the demo provider.
  await switchTo(page, user.token, 'user');
  await page.goto(`/trainer/profile/${trainerData._id}`);
  const packages = page.getByRole('region', { name: 'Packages' });
  await expect(packages.getByRole('listitem')).toHaveText(/5 sessions · \$1,200 · \$240 a session · save \$300 · valid 3 months/);
  await packages.getByRole('button', { name: `Buy 5 sessions with ${trainer.firstName} for $1,200` }).click();
  const buying = page.getByRole('dialog', { name: `Buy a package from ${trainer.firstName}` });
  await expect(buying.getByText('Demo payment: no money moves')).toBeVisible();
  await buying.getByRole('button', { name: 'Pay $1,200' }).click();
  await expect(page.locator('[data-sonner-toast]').getByText(/^Package bought/)).toBeVisible();
  await expect(buying).toBeHidden();
  await expect(packages.getByTestId('balance')).toContainText('$1,200 left · 5 of 5 sessions left');

  // Every week for 4 weeks from a time at least 3 days ahead, paid from the package.
  const slotsNow = async () => {
    const answer = await page.request.get(`/api/trainers/${trainerData._id}/slots`);
    return ((await answer.json()) as { slots: string[] }).slots;
  };
  const first = (await slotsNow()).find((s) => Date.parse(s) >= Date.now() + 72 * HOUR);
  expect(first, 'a slot at least 3 days ahead').toBeDefined();
  const weeks = [0, 1, 2, 3].map((n) => new Date(Date.parse(first!) + n * WEEK).toISOString());
  await page.getByRole('button', { name: 'Book now!', exact: true }).click();
  const booking = page.getByRole('dialog', { name: `Book a session with ${trainer.firstName}` });
  await booking
    .getByRole('group', { name: dayHeading(first!) })
    .getByRole('radio', { name: time(first!), exact: true })
    .click();
  await booking.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(booking.getByText('How do you want to pay?')).toBeVisible();
  const often = booking.getByRole('group', { name: 'With your package, book' });
  await expect(often.getByRole('radio', { name: 'Just this session' })).toBeChecked();
  await often.getByRole('radio', { name: 'Every week for 4 weeks' }).check();
  await expectNoAxeViolations(page);
  await booking.getByRole('button', { name: 'Book 4 weeks with your package (5 sessions left)' }).click();
  await expect(booking.getByText('You are booked every week!')).toBeVisible();
  await expect(booking.getByText(/^Booked and paid from your package: 4 weekly sessions/)).toBeVisible();
  await expect(booking.getByRole('list', { name: 'Booked' }).getByRole('listitem')).toHaveText(weeks.map(when));
  await expect(booking.getByRole('list', { name: 'Not booked' })).toHaveCount(0);
  await booking.getByRole('link', { name: 'See my sessions' }).click();
  await expect(page).toHaveURL(/\/user\/profile$/);

  // Four cards, each marked Weekly; the user moves the first one to another free time.
  const upcoming = page.getByRole('list', { name: 'Upcoming sessions' });
  const cards = upcoming.getByRole('listitem').filter({ hasText: trainer.fullName });
  await expect(cards).toHaveCount(4);
  await expect(cards.filter({ hasText: 'Weekly' })).toHaveCount(4);
  const card = cards.first();
  await expect(card).toContainText(`${time(first!)}–`);
  await expect(card).toContainText('$240 from your package');
  await expect(card).toContainText('the session goes back to your package balance');
  const target = (await slotsNow()).find((s) => !weeks.includes(s) && Date.parse(s) >= Date.now() + 72 * HOUR)!;
  await card.getByRole('button', { name: new RegExp(`^Move the session with ${trainer.fullName}`) }).click();
  const move = page.getByRole('dialog', { name: `Move your session with ${trainer.firstName}` });
  await move
    .getByRole('group', { name: dayHeading(target) })
    .getByRole('radio', { name: time(target), exact: true })
    .click();
  await move.getByRole('button', { name: 'Move session' }).click();
  await expect(page.locator('[data-sonner-toast]').getByText(/^Your session is moved to /)).toBeVisible();
  await expect(cards.filter({ hasText: `${time(target)}–` }).filter({ hasText: 'Weekly' })).not.toHaveCount(0);

  // The payments page shows the balance, 1 of 5 sessions left, and its ledger: the purchase and four sessions.
  await page.goto('/user/payments');
  const balances = page.getByRole('region', { name: 'Package balances' });
  const balance = balances.getByRole('listitem').filter({ hasText: trainer.fullName });
  await expect(balance).toContainText('1 of 5 sessions left · $240 a session');
  await expect(balance).toContainText('$240 left');
  await expect(balance.getByRole('button', { name: `Refund the rest of your package with ${trainer.fullName}` })).toBeVisible();
  await balance.getByText('History (5 entries)').click();
  const ledger = balance.getByRole('table', { name: `History of your package with ${trainer.fullName}` });
  await expect(ledger).toBeVisible();
  const rows = ledger.locator('tbody tr');
  await expect(rows).toHaveCount(5);
  await expect(rows.first()).toContainText('Bought 5 sessions');
  await expect(rows.first()).toContainText('+$1,200.00');
  // the sessions at their times now (the moved one at its new time), in whatever order they were written
  const sessionLines = (await rows.locator('td:nth-child(2)').allTextContents()).slice(1).sort();
  expect(sessionLines).toEqual([target, ...weeks.slice(1)].map((s) => `Session on ${when(s)}`).sort());
  await expect(rows.filter({ hasText: '\u2212$240.00' })).toHaveCount(4);
  await page.setViewportSize({ width: 360, height: 740 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectNoAxeViolations(page);
});
