import type { APIRequestContext, Page } from '@playwright/test';
import { createVerifiedAccount, expect, expectNoAxeViolations, PASSWORD, test, type Role } from './fixtures';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const createAccount = (request: APIRequestContext, role: Role) => createVerifiedAccount(request, role, 'booking');

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

test('a trainer opens hours, a user books and pays with the demo provider, both see it, the user cancels and is refunded', async ({
  page,
  login,
}) => {
  test.setTimeout(120_000);
  const trainer = await createAccount(page.request, 'trainer');
  const user = await createAccount(page.request, 'user');
  const own = await page.request.get('/api/trainerData', { headers: { Authorization: trainer.token } });
  const { trainerData } = (await own.json()) as { trainerData: { _id: string } };

  // The trainer offers 10:00 every day, in the default zone.
  await login({ role: 'trainer', email: trainer.email, password: PASSWORD });
  await page.goto('/trainer/settings#availability');
  const availability = page.locator('#availability');
  await expect(availability.getByLabel('Time zone')).toHaveValue('Africa/Cairo');
  for (const day of WEEKDAYS) {
    const group = availability.getByRole('group', { name: day, exact: true });
    await group.getByRole('checkbox').check();
    await group.getByRole('combobox', { name: `${day}, hours 1, from` }).selectOption('10:00');
    await group.getByRole('combobox', { name: `${day}, hours 1, until` }).selectOption('11:00');
  }
  await availability.getByRole('button', { name: 'Save availability' }).click();
  await expect(availability.getByText('Your availability is saved')).toBeVisible();
  const saved = await page.request.get('/api/trainer/availability', { headers: { Authorization: trainer.token } });
  expect(((await saved.json()) as { weekly: unknown[] }).weekly).toHaveLength(7);

  // The user books a slot at least four days ahead (so more than 24 h: refundable).
  await switchTo(page, user.token, 'user');
  await page.goto(`/trainer/profile/${trainerData._id}`);
  await page.getByRole('button', { name: 'Book now!', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Book a session with ${trainer.firstName}` });
  await expect(dialog.getByText('$300 per one-hour session')).toBeVisible();
  const day = dialog.getByRole('group').nth(4);
  const dayName = (await day.getByRole('heading').textContent())!;
  const slot = day.getByRole('radio').first();
  const time = (await slot.textContent())!;
  await slot.click();
  await expect(dialog.getByText('Total:').locator('xpath=following-sibling::dd')).toHaveText('$300');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Continue', exact: true }).click();

  await expect(dialog.getByText('Demo payment: no money moves')).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Pay $300' }).click();
  await expect(dialog.getByText('You are booked!')).toBeVisible();
  await expect(
    page.locator('[data-sonner-toast]').getByText(new RegExp(`^Paid \\$300 to ${trainer.fullName} for `)),
  ).toBeVisible();
  await dialog.getByRole('link', { name: 'See my sessions' }).click();

  await expect(page).toHaveURL(/\/user\/profile$/);
  const upcoming = page.getByRole('list', { name: 'Upcoming sessions' });
  await expect(upcoming.getByRole('listitem')).toHaveCount(1);
  await expect(upcoming).toContainText(trainer.fullName);
  await expect(upcoming).toContainText(time);
  await expect(upcoming).toContainText('$300');
  await expect(upcoming).toContainText('Confirmed');

  // The trainer sees it on this week's schedule.
  await switchTo(page, trainer.token, 'trainer');
  await page.goto('/trainer/profile');
  const week = page.getByRole('list', { name: 'This week' });
  const scheduled = week.getByRole('listitem').filter({ hasText: dayName }).first();
  await expect(scheduled).toContainText(user.fullName);
  await expect(scheduled).toContainText(`${time}–`);
  await expect(page.getByText('1 session this week.')).toBeVisible();

  // The user cancels more than 24 h ahead and is refunded.
  await switchTo(page, user.token, 'user');
  await page.goto('/user/profile');
  await page.getByRole('button', { name: new RegExp(`^Cancel the session with ${trainer.fullName}`) }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel this session?' });
  await expect(confirm).toContainText('You get your $300 back in full.');
  await confirm.getByRole('button', { name: 'Cancel session' }).click();
  await expect(page.getByText('Your booking is cancelled and the payment refunded')).toBeVisible();
  const past = page.getByRole('list', { name: 'Past and cancelled sessions' });
  await expect(past).toContainText(trainer.fullName);
  await expect(past).toContainText('Refunded');
  await expect(page.getByText('Nothing booked.')).toBeVisible();

  // And the payments page says so.
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Payments' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Payments' })).toBeVisible();
  const payments = page.getByRole('list', { name: 'Payments' });
  await expect(payments).toContainText(trainer.fullName);
  await expect(payments).toContainText('Refunded');
});
