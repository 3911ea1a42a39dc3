import type { APIRequestContext } from '@playwright/test';
import { createVerifiedAccount, expect, expectNoAxeViolations, PASSWORD, test, type Role } from './fixtures';

/**
 * Moving a session (docs/product.md#moving-a-session): a user books and pays (demo provider) a session
 * more than 24 hours ahead, moves it from My sessions to another free time chosen with the keyboard,
 * sees the new time on the card and the server's message, and the old time is free again in the
 * trainer's booking dialog. The browser is in the trainer's zone (Cairo), so the times need no switch.
 */
test.use({ timezoneId: 'Africa/Cairo' });

const ZONE = 'Africa/Cairo';
const HOUR = 60 * 60_000;

const createAccount = (request: APIRequestContext, role: Role) => createVerifiedAccount(request, role, 'reschedule');

const dayHeading = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: ZONE }).format(new Date(iso));
const time = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: ZONE }).format(new Date(iso));

test('a user moves a paid session to another free time with the keyboard; the card shows it and the old time is free again', async ({
  page,
  login,
}) => {
  test.setTimeout(120_000);
  const trainer = await createAccount(page.request, 'trainer');
  const user = await createAccount(page.request, 'user');
  // The trainer offers 10:00 and 11:00 every day, in Cairo.
  const put = await page.request.put('/api/trainer/availability', {
    headers: { Authorization: trainer.token },
    data: { timeZone: ZONE, weekly: Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: [10, 11] })) },
  });
  expect(put.status(), await put.text()).toBe(200);
  const own = await page.request.get('/api/trainerData', { headers: { Authorization: trainer.token } });
  const { trainerData } = (await own.json()) as { trainerData: { _id: string } };
  const slotsNow = async () => {
    const answer = await page.request.get(`/api/trainers/${trainerData._id}/slots`);
    return ((await answer.json()) as { slots: string[] }).slots;
  };
  const booked = (await slotsNow()).find((s) => Date.parse(s) >= Date.now() + 72 * HOUR);
  expect(booked, 'a slot at least 3 days ahead').toBeDefined();

  // The user books and pays for it.
  await login({ role: 'user', email: user.email, password: PASSWORD });
  await page.goto(`/trainer/profile/${trainerData._id}`);
  await page.getByRole('button', { name: 'Book now!', exact: true }).click();
  const booking = page.getByRole('dialog', { name: `Book a session with ${trainer.firstName}` });
  await booking
    .getByRole('group', { name: dayHeading(booked!) })
    .getByRole('radio', { name: time(booked!), exact: true })
    .click();
  await booking.getByRole('button', { name: 'Continue', exact: true }).click();
  await booking.getByRole('button', { name: 'Pay $300' }).click();
  await expect(booking.getByText('You are booked!')).toBeVisible();
  await booking.getByRole('link', { name: 'See my sessions' }).click();
  await expect(page).toHaveURL(/\/user\/profile$/);

  // The slots the move dialog offers: the trainer's free ones (the booked time is taken now).
  const free = await slotsNow();
  expect(free).not.toContain(booked);
  // The new time is more than 24 hours ahead, so the card offers Move again after the move (a session
  // inside 24 hours cannot be moved), and never the first one offered, so an arrow key reaches it.
  const targetIndex = free.findIndex((s, index) => index > 0 && Date.parse(s) >= Date.now() + 26 * HOUR);
  expect(targetIndex, 'a second free time more than a day ahead').toBeGreaterThan(0);
  const target = free[targetIndex]!;

  // A phone-sized screen: the dialog fits without sideways scrolling.
  await page.setViewportSize({ width: 360, height: 740 });
  const upcoming = page.getByRole('list', { name: 'Upcoming sessions' });
  const card = upcoming.getByRole('listitem').filter({ hasText: trainer.fullName });
  await expect(card).toContainText(`${time(booked!)}–`);
  const move = card.getByRole('button', { name: new RegExp(`^Move the session with ${trainer.fullName}`) });
  await move.click();
  const dialog = page.getByRole('dialog', { name: `Move your session with ${trainer.firstName}` });
  await expect(dialog).toContainText('Your payment stays as it is');
  const times = dialog.getByRole('radiogroup', { name: 'Free times' });
  await expect(times.getByRole('radio').first()).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Move session' })).toBeDisabled();

  // Keyboard only: Tab into the times (one Tab stop), a later time with arrow keys, then to 'Move session'.
  for (let presses = 0; presses < 4; presses += 1) {
    if (
      await times
        .getByRole('radio')
        .first()
        .evaluate((el) => el === document.activeElement)
    )
      break;
    await page.keyboard.press('Tab');
  }
  await expect(times.getByRole('radio').first()).toBeFocused();
  for (let presses = 0; presses < targetIndex; presses += 1) await page.keyboard.press('ArrowRight');
  const chosen = times.getByRole('group', { name: dayHeading(target) }).getByRole('radio', { name: time(target), exact: true });
  await expect(chosen).toBeFocused();
  await expect(chosen).toHaveAttribute('aria-checked', 'true');
  await expect(dialog.getByTestId('policy')).toHaveText(/^Free cancellation until .+ \(Cairo time\)$/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectNoAxeViolations(page);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Move session' })).toBeFocused();
  await page.keyboard.press('Enter');

  // The server's message, the new time on the card, and focus back on 'Move'.
  await expect(
    page.locator('[data-sonner-toast]').getByText(/^Your session is moved to .+ \(Cairo time, GMT\+\d\)$/),
  ).toBeVisible();
  await expect(dialog).toBeHidden();
  // one message: the socket's push of the user's own move adds no 'Moved: …' toast
  await expect(page.locator('[data-sonner-toast]').getByText(/^Moved: /)).toHaveCount(0);
  await expect(card).toContainText(`${time(target)}–`);
  await expect(card).toContainText('Confirmed');
  await expect(move).toBeFocused();

  // The old time is offered again in the trainer's booking dialog, the new one no longer.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/trainer/profile/${trainerData._id}`);
  await page.getByRole('button', { name: 'Book now!', exact: true }).click();
  const again = page.getByRole('dialog', { name: `Book a session with ${trainer.firstName}` });
  await expect(
    again.getByRole('group', { name: dayHeading(booked!) }).getByRole('radio', { name: time(booked!), exact: true }),
  ).toBeVisible();
  await expect(
    again.getByRole('group', { name: dayHeading(target) }).getByRole('radio', { name: time(target), exact: true }),
  ).toHaveCount(0);
});
