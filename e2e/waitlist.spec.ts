import type { Page } from '@playwright/test';
import { createVerifiedAccount, expect, expectNoAxeViolations, test, type Role } from './fixtures';

/**
 * The waitlist (docs/product.md#waitlist): a trainer offers one hour a day; user A books and pays for
 * one of them more than 24 hours ahead; user B, finding no time that day, joins the trainer's waitlist
 * for its morning from the booking dialog; A cancels; the freed time is held for B, who sees it on
 * their profile, pays for it from the trainer's page and has it booked. The browser is in the
 * trainer's zone (Cairo), so the dialog's days and hours are the trainer's.
 */
test.use({ timezoneId: 'Africa/Cairo' });

const ZONE = 'Africa/Cairo';
const HOUR = 60 * 60_000;

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

const dayHeading = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: ZONE }).format(new Date(iso));

test('a time freed by a cancellation is held for the first in line, who pays for it from their waitlist', async ({ page }) => {
  test.setTimeout(180_000);
  const trainer = await createVerifiedAccount(page.request, 'trainer', 'waitlist');
  const userA = await createVerifiedAccount(page.request, 'user', 'waitlist');
  const userB = await createVerifiedAccount(page.request, 'user', 'waitlist');

  // The trainer offers 10:00–11:00 every day, in Cairo.
  const put = await page.request.put('/api/trainer/availability', {
    headers: { Authorization: trainer.token },
    data: { timeZone: ZONE, weekly: Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: [10] })) },
  });
  expect(put.status(), await put.text()).toBe(200);
  const own = await page.request.get('/api/trainerData', { headers: { Authorization: trainer.token } });
  const { trainerData } = (await own.json()) as { trainerData: { _id: string } };
  const answer = await page.request.get(`/api/trainers/${trainerData._id}/slots`);
  const { slots } = (await answer.json()) as { slots: string[] };
  const slot = slots.find((s) => Date.parse(s) > Date.now() + 48 * HOUR);
  expect(slot, slots.join(', ')).toBeDefined();
  const day = dayHeading(slot!);
  const profile = `/trainer/profile/${trainerData._id}`;

  // A books and pays for it.
  await page.goto('/');
  await switchTo(page, userA.token, 'user');
  await page.goto(profile);
  await page.getByRole('button', { name: 'Book now!', exact: true }).click();
  let dialog = page.getByRole('dialog', { name: `Book a session with ${trainer.firstName}` });
  await dialog.getByRole('group', { name: day }).getByRole('radio', { name: '10:00', exact: true }).click();
  await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
  await dialog.getByRole('button', { name: 'Pay $300' }).click();
  await expect(dialog.getByText('You are booked!')).toBeVisible();

  // B finds no time that day and joins the waitlist for its morning.
  await switchTo(page, userB.token, 'user');
  await page.goto(profile);
  await page.getByRole('button', { name: 'Book now!', exact: true }).click();
  dialog = page.getByRole('dialog', { name: `Book a session with ${trainer.firstName}` });
  await expect(dialog.getByRole('radiogroup', { name: 'Free times' })).toBeVisible();
  await expect(dialog.getByRole('group', { name: day })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'None of these times suit you? Join the waitlist' }).click();
  await expect(dialog.getByText('If a time in this window opens up, we hold it for you for 30 minutes')).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Date' }).selectOption({ label: day });
  await dialog.getByRole('radio', { name: /^Morning/ }).check();
  await dialog.getByRole('button', { name: 'Join the waitlist', exact: true }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'You are on the waitlist' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.goto('/user/profile');
  const waits = page.getByRole('list', { name: 'Your waits' });
  await expect(waits.getByRole('listitem')).toHaveCount(1);
  await expect(waits).toContainText(trainer.fullName);
  await expect(waits).toContainText(`${day}, 06:00–12:00`);
  await expect(waits).toContainText('Waiting');

  // A cancels (more than 24 h ahead: refunded).
  await switchTo(page, userA.token, 'user');
  await page.goto('/user/profile');
  await page.getByRole('button', { name: new RegExp(`^Cancel the session with ${trainer.fullName}`) }).click();
  await page.getByRole('dialog', { name: 'Cancel this session?' }).getByRole('button', { name: 'Cancel session' }).click();
  await expect(page.getByText('Your booking is cancelled and the payment refunded')).toBeVisible();

  // The server's jobs offer the freed time to B within a poll or so: B's waitlist shows it held.
  await switchTo(page, userB.token, 'user');
  await page.goto('/user/profile');
  await expect(async () => {
    await page.reload();
    await expect(waits).toContainText('A time is held for you until', { timeout: 3_000 });
  }).toPass({ timeout: 60_000, intervals: [2_000] });
  await expect(waits).toContainText(`${day.split(' ')[0].slice(0, 3)} `);
  await expect(waits).toContainText('10:00');

  // B continues to payment on the trainer's page and pays.
  await waits.getByRole('link', { name: 'Continue to payment' }).click();
  await expect(page).toHaveURL(new RegExp(`${profile}$`));
  await page.getByRole('button', { name: 'Continue to payment', exact: true }).click();
  dialog = page.getByRole('dialog', { name: `Book a session with ${trainer.firstName}` });
  await dialog.getByRole('button', { name: 'Continue to payment', exact: true }).click();
  await dialog.getByRole('button', { name: 'Pay $300' }).click();
  await expect(dialog.getByText('You are booked!')).toBeVisible();
  await dialog.getByRole('link', { name: 'See my sessions' }).click();

  // B's sessions have it booked, and the wait says so.
  await expect(page).toHaveURL(/\/user\/profile$/);
  const upcoming = page.getByRole('list', { name: 'Upcoming sessions' });
  await expect(upcoming.getByRole('listitem')).toHaveCount(1);
  await expect(upcoming).toContainText(trainer.fullName);
  await expect(upcoming).toContainText('10:00');
  await expect(upcoming).toContainText('Confirmed');
  await expect(waits).toContainText('Booked');
});
