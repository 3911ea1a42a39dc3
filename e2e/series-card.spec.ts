import type { APIRequestContext } from '@playwright/test';
import { createVerifiedAccount, expect, expectNoAxeViolations, PASSWORD, test, type Role } from './fixtures';

/**
 * A standing weekly series paid by card (docs/product.md#standing-weekly-sessions): a user books every week for 4
 * weeks, sees the weeks held for them and the one another user booked first, pays the held weeks together with the
 * demo provider, sees them in My sessions marked Weekly, and cancels one more than 24 hours ahead: refunded to the
 * card. The browser is in the trainer's zone (Cairo).
 */
test.use({ timezoneId: 'Africa/Cairo' });

const ZONE = 'Africa/Cairo';
const HOUR = 60 * 60_000;
const WEEK = 7 * 24 * HOUR;
/** The trainer's price for a session, as the sign-up sets it. */
const PRICE = 300;

const createAccount = (request: APIRequestContext, role: Role) => createVerifiedAccount(request, role, 'series-card');
const authorised = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

const dayHeading = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: ZONE }).format(new Date(iso));
const time = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: ZONE }).format(new Date(iso));
/** 'Tue 1 Dec, 10:00' in Cairo, as the series' weeks are written. */
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

/** Another user books and pays one session through the API (demo provider), as the booking dialog would. */
async function bookAndPay(request: APIRequestContext, token: string, trainerId: string, startsAt: string) {
  const held = await request.post('/api/bookings', { ...authorised(token), data: { trainerId, startsAt } });
  expect(held.status(), await held.text()).toBe(201);
  const { booking } = (await held.json()) as { booking: { _id: string } };
  const order = await request.post('/api/orders', { ...authorised(token), data: { bookingId: booking._id } });
  expect(order.status(), await order.text()).toBe(200);
  const { id } = (await order.json()) as { id: string };
  const captured = await request.post(`/api/orders/${encodeURIComponent(id)}/capture`, authorised(token));
  expect(captured.status(), await captured.text()).toBe(200);
}

test('a user books every week for 4 weeks by card: sees the held weeks and the one taken, pays, and a week cancelled in time is refunded', async ({
  page,
  login,
}) => {
  test.setTimeout(120_000);
  const trainer = await createAccount(page.request, 'trainer');
  const user = await createAccount(page.request, 'user');
  const other = await createAccount(page.request, 'user');
  // The trainer offers 10:00 and 11:00 every day, in Cairo.
  const put = await page.request.put('/api/trainer/availability', {
    ...authorised(trainer.token),
    data: { timeZone: ZONE, weekly: Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: [10, 11] })) },
  });
  expect(put.status(), await put.text()).toBe(200);
  const own = await page.request.get('/api/trainerData', authorised(trainer.token));
  const { trainerData } = (await own.json()) as { trainerData: { _id: string } };

  // The first week at least 3 days ahead (so it can be cancelled for a refund); the second week is booked by another user first.
  const slots = await page.request.get(`/api/trainers/${trainerData._id}/slots`);
  const first = ((await slots.json()) as { slots: string[] }).slots.find((s) => Date.parse(s) >= Date.now() + 72 * HOUR);
  expect(first, 'a slot at least 3 days ahead').toBeDefined();
  const weeks = [0, 1, 2, 3].map((n) => new Date(Date.parse(first!) + n * WEEK).toISOString());
  await bookAndPay(page.request, other.token, trainerData._id, weeks[1]);
  const held = [weeks[0], weeks[2], weeks[3]];

  // The user chooses the time and every week for 4 weeks, by card (no package).
  await login({ role: 'user', email: user.email, password: PASSWORD });
  await page.goto(`/trainer/profile/${trainerData._id}`);
  await page.getByRole('button', { name: 'Book now!', exact: true }).click();
  const booking = page.getByRole('dialog', { name: `Book a session with ${trainer.firstName}` });
  await booking
    .getByRole('group', { name: dayHeading(first!) })
    .getByRole('radio', { name: time(first!), exact: true })
    .click();
  const often = booking.getByRole('group', { name: 'Book' });
  await expect(often.getByRole('radio', { name: 'Just this session' })).toBeChecked();
  await often.getByRole('radio', { name: 'Every week for 4 weeks' }).check();
  await expect(booking.getByText('up to $1,200 for 4 weeks')).toBeVisible();
  await booking.getByRole('button', { name: 'Continue', exact: true }).click();

  // Before paying: the weeks held, the week not free with why, the total and until when they are held.
  await expect(booking.getByRole('list', { name: 'Held for you' }).getByRole('listitem')).toHaveText(held.map(when));
  await expect(booking.getByRole('list', { name: 'Not free, left out' }).getByRole('listitem')).toHaveText([
    `${when(weeks[1])}: Taken`,
  ]);
  const summary = booking.getByLabel('Your weekly sessions');
  await expect(summary).toContainText(`Total$${(3 * PRICE).toLocaleString('en-US')}`);
  await expect(booking.getByText(/^We hold these weeks for you until \d\d:\d\d\.$/)).toBeVisible();
  await expect(booking.getByText('Demo payment: no money moves')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 360, height: 740 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 720 });

  await booking.getByRole('button', { name: 'Pay $900' }).click();
  await expect(booking.getByText('You are booked every week!')).toBeVisible();
  await expect(booking.getByText(`Paid $900 to ${trainer.fullName} for 3 weekly sessions (Cairo time).`)).toBeVisible();
  await expect(booking.getByRole('list', { name: 'Booked', exact: true }).getByRole('listitem')).toHaveText(held.map(when));
  await expect(booking.getByRole('list', { name: 'Not booked' }).getByRole('listitem')).toHaveText([`${when(weeks[1])}: Taken`]);
  await expect(booking.getByText(/its price is refunded to your card or PayPal\.$/)).toBeVisible();
  await expect(booking.getByText(/package/)).toHaveCount(0);
  await booking.getByRole('link', { name: 'See my sessions' }).click();
  await expect(page).toHaveURL(/\/user\/profile$/);

  // Three confirmed sessions marked Weekly, each at the trainer's price; nothing says a package paid them.
  const upcoming = page.getByRole('list', { name: 'Upcoming sessions' });
  const cards = upcoming.getByRole('listitem').filter({ hasText: trainer.fullName });
  await expect(cards).toHaveCount(3);
  await expect(cards.filter({ hasText: 'Weekly' })).toHaveCount(3);
  await expect(cards.filter({ hasText: 'Confirmed' })).toHaveCount(3);
  await expect(upcoming).not.toContainText('package');
  const card = cards.first();
  await expect(card).toContainText(`${time(first!)}–`);
  await expect(card).toContainText('$300');

  // The first week, more than 24 hours ahead, is cancelled: refunded to the card.
  await card.getByRole('button', { name: new RegExp(`^Cancel the session with ${trainer.fullName}`) }).click();
  const cancel = page.getByRole('dialog', { name: 'Cancel this session?' });
  await expect(cancel).toContainText('You get your $300 back in full.');
  await cancel.getByRole('button', { name: 'Cancel session' }).click();
  await expect(page.locator('[data-sonner-toast]').getByText('Your booking is cancelled and the payment refunded')).toBeVisible();
  await expect(cards).toHaveCount(2);
  // the week is among the past and cancelled ones
  const older = page.getByRole('list', { name: 'Past and cancelled sessions' });
  const cancelled = older.getByRole('listitem').filter({ hasText: trainer.fullName });
  await expect(cancelled).toContainText('Cancelled');
  await expect(cancelled).toContainText('Weekly');
  await expect(cancelled).toContainText(`${time(first!)}–`);
  await expect(cancelled).not.toContainText('package');
  await page.setViewportSize({ width: 360, height: 740 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 720 });

  // The payments page: each week paid on its own row, the cancelled one refunded.
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Payments' }).click();
  const payments = page.getByRole('list', { name: 'Payments' });
  const rows = payments.getByRole('listitem').filter({ hasText: trainer.fullName });
  await expect(rows).toHaveCount(3);
  const rowOf = (iso: string) => rows.filter({ has: page.locator(`time[datetime="${iso}"]`) });
  await expect(rowOf(weeks[0])).toContainText('Refunded');
  await expect(rowOf(weeks[2])).toContainText('Paid');
  await expect(rowOf(weeks[3])).toContainText('Paid');
  await expect(rows.filter({ hasText: 'Refunded' })).toHaveCount(1);
  await expectNoAxeViolations(page);
});
