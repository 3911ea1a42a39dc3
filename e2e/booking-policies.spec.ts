import type { APIRequestContext, Page } from '@playwright/test';
import { createVerifiedAccount, expect, PASSWORD, test, type Role } from './fixtures';

/**
 * Issue 29's honest policies before paying (docs/product.md#booking-and-payment): the dialog states the
 * policy of the chosen slot itself, one 2 hours away (not refundable) and one 3 days away (free
 * cancellation until 24 hours before), and a keyboard-only person books from 'Book now!' to 'Pay' in
 * under 15 key presses. The browser is in the trainer's zone (Cairo), so the times need no switch.
 */
test.use({ timezoneId: 'Africa/Cairo' });

const ZONE = 'Africa/Cairo';
const HOUR = 60 * 60_000;

const createAccount = (request: APIRequestContext, role: Role) => createVerifiedAccount(request, role, 'policies');

/**
 * A trainer open every hour of every day with a minimum notice of 1 hour (set through the API), and a
 * user logged in on the trainer's profile. Answers the trainer and their free slots.
 */
async function openTrainerAndLogIn(page: Page, login: (o: { role: Role; email: string; password: string }) => Promise<string>) {
  const trainer = await createAccount(page.request, 'trainer');
  const user = await createAccount(page.request, 'user');
  const put = await page.request.put('/api/trainer/availability', {
    headers: { Authorization: trainer.token },
    data: {
      timeZone: ZONE,
      weekly: Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: Array.from({ length: 24 }, (_, h) => h) })),
      minNoticeHours: 1,
    },
  });
  expect(put.status(), await put.text()).toBe(200);
  expect(((await put.json()) as { minNoticeHours: number }).minNoticeHours).toBe(1);
  const own = await page.request.get('/api/trainerData', { headers: { Authorization: trainer.token } });
  const { trainerData } = (await own.json()) as { trainerData: { _id: string } };
  const answer = await page.request.get(`/api/trainers/${trainerData._id}/slots`);
  const { slots } = (await answer.json()) as { slots: string[] };

  await login({ role: 'user', email: user.email, password: PASSWORD });
  await page.goto(`/trainer/profile/${trainerData._id}`);
  return { trainer, slots };
}

const dayHeading = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: ZONE }).format(new Date(iso));
const time = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: ZONE }).format(new Date(iso));
/** 'Mon 30 Nov, 07:00' in Cairo, as the shared formatDateTimeIn writes it. */
function dateTimeIn(iso: string) {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: ZONE,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('weekday')} ${get('day')} ${get('month')}, ${get('hour')}:${get('minute')}`;
}

/** Chooses the slot starting at `iso` in the open booking dialog and goes on to pay for it. */
async function chooseSlot(page: Page, trainerFirstName: string, iso: string) {
  const dialog = page.getByRole('dialog', { name: `Book a session with ${trainerFirstName}` });
  const day = dialog.getByRole('group', { name: dayHeading(iso) });
  await day.getByRole('radio', { name: time(iso), exact: true }).click();
  return dialog;
}

test('before paying, a slot 2 hours away says it is not refundable and one 3 days away says until when it is free to cancel', async ({
  page,
  login,
}) => {
  test.setTimeout(120_000);
  const { trainer, slots } = await openTrainerAndLogIn(page, login);
  const now = Date.now();
  const soon = slots.find((s) => Date.parse(s) >= now + 1.5 * HOUR);
  const later = slots.find((s) => Date.parse(s) >= now + 72 * HOUR);
  expect(soon, `a slot about 2 hours away in ${slots.slice(0, 3).join(', ')}`).toBeDefined();
  expect(Date.parse(soon!) - now).toBeLessThan(3 * HOUR);
  expect(later).toBeDefined();

  // 2 hours away: not refundable, stated with the choice and again next to 'Pay'.
  await page.getByRole('button', { name: 'Book now!', exact: true }).click();
  let dialog = await chooseSlot(page, trainer.firstName, soon!);
  await expect(dialog.getByTestId('policy')).toHaveText('Starts in less than 24 hours: not refundable');
  await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(dialog.getByRole('button', { name: /^Pay / })).toBeVisible();
  await expect(dialog.getByTestId('policy')).toHaveText('Starts in less than 24 hours: not refundable');
  await dialog.getByRole('button', { name: 'Choose another time' }).click();

  // 3 days away: free cancellation until 24 hours before it starts, in the trainer's (and here the browser's) zone.
  const deadline = `Free cancellation until ${dateTimeIn(new Date(Date.parse(later!) - 24 * HOUR).toISOString())} (Cairo time)`;
  dialog = await chooseSlot(page, trainer.firstName, later!);
  await expect(dialog.getByTestId('policy')).toHaveText(deadline);
  await expect(dialog.getByText(/^Times in Cairo time, GMT\+\d$/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(dialog.getByRole('button', { name: /^Pay / })).toBeVisible();
  await expect(dialog.getByTestId('policy')).toHaveText(deadline);
  await dialog.getByRole('button', { name: /^Pay / }).click();
  await expect(dialog.getByText('You are booked!')).toBeVisible();
  await expect(dialog.getByTestId('policy')).toHaveText(deadline);
});

test("a keyboard-only person books from the profile's 'Book now!' to 'Pay' in under 15 key presses", async ({ page, login }) => {
  test.setTimeout(120_000);
  const { trainer } = await openTrainerAndLogIn(page, login);
  let presses = 0;
  const press = async (key: string) => {
    presses += 1;
    await page.keyboard.press(key);
  };

  const bookNow = page.getByRole('button', { name: 'Book now!', exact: true });
  await bookNow.focus();
  await press('Enter');
  const dialog = page.getByRole('dialog', { name: `Book a session with ${trainer.firstName}` });
  const times = dialog.getByRole('radiogroup', { name: 'Free times' });
  await expect(times.getByRole('radio').first()).toBeVisible();

  // Into the times (one Tab stop), choose the second with an arrow key; the choice of how often ('Just
  // this session' or every week, one Tab stop) and then 'Continue' are the next Tabs.
  while (
    !(await times
      .getByRole('radio')
      .first()
      .evaluate((el) => el === document.activeElement)) &&
    presses < 6
  ) {
    await press('Tab');
  }
  await expect(times.getByRole('radio').first()).toBeFocused();
  await press('ArrowRight');
  await expect(times.getByRole('radio').nth(1)).toBeFocused();
  await expect(times.getByRole('radio').nth(1)).toHaveAttribute('aria-checked', 'true');
  await press('Tab');
  const once = dialog.getByRole('radio', { name: 'Just this session' });
  await expect(once).toBeFocused();
  await expect(once).toBeChecked();
  await press('Tab');
  const next = dialog.getByRole('button', { name: 'Continue', exact: true });
  await expect(next).toBeFocused();
  await press('Enter');

  const pay = dialog.getByRole('button', { name: /^Pay / });
  await expect(pay).toBeVisible();
  await press('Tab');
  await expect(pay).toBeFocused();
  await press('Enter');
  await expect(dialog.getByText('You are booked!')).toBeVisible();
  expect(presses).toBeLessThan(15);

  // Closing the dialog gives focus back to what opened it.
  await press('Escape');
  await expect(dialog).toBeHidden();
  await expect(bookNow).toBeFocused();
});

test('on a fresh seed the first trainer of the list is bookable: next free time, free slots, and the policy before paying', async ({
  page,
  login,
}) => {
  await login(); // the demo user
  await page.goto('/trainers');
  const firstCard = page.getByRole('article').first();
  await expect(firstCard).toContainText('Next free:');
  await firstCard.getByRole('link').first().click();
  await expect(page.getByText(/Next free: /).first()).toBeVisible();
  await page.getByRole('button', { name: 'Book now!', exact: true }).first().click();
  const dialog = page.getByRole('dialog', { name: /^Book a session with / });
  const times = dialog.getByRole('radiogroup', { name: 'Free times' });
  await expect(times.getByRole('radio').first()).toBeVisible();
  await expect(dialog.getByText('No free times in the next 14 days')).toHaveCount(0);
  await times.getByRole('radio').first().click();
  await expect(
    dialog.getByText(/^(Free cancellation until .+ \(.+ time\)|Starts in less than 24 hours: not refundable)$/).first(),
  ).toBeVisible();
});
