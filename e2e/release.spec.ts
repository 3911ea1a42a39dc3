import type { APIRequestContext } from '@playwright/test';
import { createVerifiedAccount, expect, expectNoAxeViolations, PASSWORD, test, type Role } from './fixtures';

/**
 * Releasing a late session (docs/product.md#releasing-a-late-session): a user pays for a session about
 * 4 hours ahead with a trainer whose minimum notice is 1 hour, releases it for resale from their
 * sessions after a confirmation that says what happens, and the card says it is offered to others
 * while the slot is free in the booking dialog again. The browser is in the trainer's zone (Cairo).
 */
test.use({ timezoneId: 'Africa/Cairo' });

const ZONE = 'Africa/Cairo';
const HOUR = 60 * 60_000;

const createAccount = (request: APIRequestContext, role: Role) => createVerifiedAccount(request, role, 'release');

const dayHeading = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: ZONE }).format(new Date(iso));
const time = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: ZONE }).format(new Date(iso));

test('a user releases a paid session starting within 24 hours; it stays theirs, and its slot is offered again', async ({
  page,
  login,
}) => {
  test.setTimeout(120_000);
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
  const own = await page.request.get('/api/trainerData', { headers: { Authorization: trainer.token } });
  const { trainerData } = (await own.json()) as { trainerData: { _id: string } };
  const slotsNow = async () => {
    const answer = await page.request.get(`/api/trainers/${trainerData._id}/slots`);
    return ((await answer.json()) as { slots: string[] }).slots;
  };
  const now = Date.now();
  const late = (await slotsNow()).find((s) => Date.parse(s) >= now + 3 * HOUR && Date.parse(s) <= now + 5 * HOUR);
  expect(late, 'a slot 3 to 5 hours ahead').toBeDefined();

  // The user pays for it with the demo provider.
  await login({ role: 'user', email: user.email, password: PASSWORD });
  await page.goto(`/trainer/profile/${trainerData._id}`);
  await page.getByRole('button', { name: 'Book now!', exact: true }).click();
  const booking = page.getByRole('dialog', { name: `Book a session with ${trainer.firstName}` });
  await booking
    .getByRole('group', { name: dayHeading(late!) })
    .getByRole('radio', { name: time(late!), exact: true })
    .click();
  await booking.getByRole('button', { name: 'Continue', exact: true }).click();
  await booking.getByRole('button', { name: /^Pay / }).click();
  await expect(booking.getByText('You are booked!')).toBeVisible();
  expect(await slotsNow()).not.toContain(late);
  await booking.getByRole('link', { name: 'See my sessions' }).click();
  await expect(page).toHaveURL(/\/user\/profile$/);

  // On its card: no Cancel inside 24 hours, but 'Release for resale', opened with the keyboard.
  const card = page.getByRole('list', { name: 'Upcoming sessions' }).getByRole('listitem').filter({ hasText: trainer.fullName });
  await expect(card.getByRole('button', { name: /^Cancel/ })).toHaveCount(0);
  const release = card.getByRole('button', {
    name: new RegExp(`^Release the session with ${trainer.fullName} on .* for resale$`),
  });
  await release.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Release this session for resale?' });
  await expect(dialog).toContainText(
    'Starts in less than 24 hours, so it cannot be refunded. We offer it to others; if somebody books it, you are refunded in full and we e-mail you. Until then it stays yours.',
  );
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Release for resale' }).click();
  await expect(page.locator('[data-sonner-toast]').getByText(/^Your session is offered to others/)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText('Offered to others: refunded in full if somebody books it');
  await expect(card).toContainText('Confirmed');
  await expect(card.getByRole('button', { name: /^Release/ })).toHaveCount(0);

  // The slot is free for others again.
  expect(await slotsNow()).toContain(late);
  await page.reload();
  await expect(card).toContainText('Offered to others: refunded in full if somebody books it');
  await expectNoAxeViolations(page);
});
