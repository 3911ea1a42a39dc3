import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, plural, test, type Role } from './fixtures';
import { mailTo, uniqueEmail, signUpData } from './support';

const PASSWORD = 'Strong12';
const HOUR = 60 * 60_000;

/** A letters-only name no other account has. */
const uniqueName = () =>
  `Zed${Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;

type Account = { id: string; token: string; email: string; firstName: string; lastName: string; fullName: string };

/** Signs a fresh, verified account up through the API and logs it in. */
async function createAccount(request: APIRequestContext, role: Role, firstName: string): Promise<Account> {
  const email = uniqueEmail(`schedule-${role}`);
  const lastName = uniqueName();
  const registered = await request.post(`/api/${plural(role)}/register`, {
    data: signUpData(role, { firstName, lastName, email, password: PASSWORD }),
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const mail = await mailTo(email);
  expect((await request.get(mail.links[0])).ok()).toBe(true);
  const login = await request.post(`/api/${plural(role)}/login`, { data: { email, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const own = await request.get(role === 'trainer' ? '/api/trainerData' : '/api/userData', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const data = (await own.json()) as { trainerData?: { _id: string }; userData?: { _id: string } };
  return {
    id: (data.trainerData ?? data.userData)!._id,
    token,
    email,
    firstName,
    lastName,
    fullName: `${firstName} ${lastName}`,
  };
}

const authorised = (account: Account) => ({ headers: { Authorization: `Bearer ${account.token}` } });

/** Stores the session the way the login screen does, before the page's own scripts run. */
async function logIn(page: Page, account: Account, role: Role) {
  await page.addInitScript(
    ([token, type]) => {
      if (sessionStorage.getItem('e2e:logged-in')) return;
      sessionStorage.setItem('e2e:logged-in', '1');
      localStorage.setItem('token', token);
      localStorage.setItem('userType', type);
    },
    [account.token, role],
  );
}

/**
 * The trainer opens every hour with a minimum notice of 1 hour; the user books and pays (demo
 * provider) the soonest slot, which starts in less than 24 hours: past the user's own refund deadline.
 */
async function bookSoonestSlot(request: APIRequestContext, trainer: Account, user: Account) {
  const weekly = Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: Array.from({ length: 24 }, (_, h) => h) }));
  const saved = await request.put('/api/trainer/availability', {
    ...authorised(trainer),
    data: { timeZone: 'UTC', weekly, minNoticeHours: 1 },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const slots = await request.get(`/api/trainers/${trainer.id}/slots`);
  const [startsAt] = ((await slots.json()) as { slots: string[] }).slots;
  expect(Date.parse(startsAt) - Date.now()).toBeLessThan(24 * HOUR);
  const held = await request.post('/api/bookings', { ...authorised(user), data: { trainerId: trainer.id, startsAt } });
  expect(held.status(), await held.text()).toBe(201);
  const { booking } = (await held.json()) as { booking: { _id: string } };
  const order = await request.post('/api/orders', { ...authorised(user), data: { bookingId: booking._id } });
  expect(order.status(), await order.text()).toBe(200);
  const { id: orderId } = (await order.json()) as { id: string };
  const captured = await request.post(`/api/orders/${encodeURIComponent(orderId)}/capture`, authorised(user));
  expect(captured.status(), await captured.text()).toBe(200);
  return { bookingId: booking._id, startsAt };
}

test('a trainer cancels a session inside 24 hours from the schedule; the user’s open My sessions shows it refunded, live', async ({
  page,
  browser,
  login,
}) => {
  test.setTimeout(120_000);
  const trainer = await createAccount(page.request, 'trainer', 'Nadia');
  const user = await createAccount(page.request, 'user', 'Mariam');
  const { bookingId } = await bookSoonestSlot(page.request, trainer, user);
  const reason = `I am ill today, sorry ${uniqueName()}`;

  // The user's My sessions is open: the session is upcoming and, inside 24 hours, not theirs to cancel for a refund.
  await login({ role: 'user', email: user.email, password: PASSWORD });
  await page.goto('/user/profile');
  const upcoming = page.getByRole('list', { name: 'Upcoming sessions' });
  await expect(upcoming).toContainText(trainer.fullName);
  await expect(upcoming).toContainText('Confirmed');

  // The trainer's schedule, in another browser.
  const trainerContext = await browser.newContext();
  const trainerPage = await trainerContext.newPage();
  const trainerErrors: string[] = [];
  trainerPage.on('console', (m) => {
    if (m.type() === 'error') trainerErrors.push(m.text());
  });
  trainerPage.on('pageerror', (e) => trainerErrors.push(e.message));
  await logIn(trainerPage, trainer, 'trainer');
  await trainerPage.goto('/trainer/profile');
  const week = trainerPage.getByRole('list', { name: 'This week' });
  const row = week.getByRole('listitem').filter({ hasText: user.fullName }).last();
  await expect(row).toContainText('Confirmed');
  await expect(row.getByRole('link', { name: `Message ${user.firstName}` })).toBeVisible();
  await expect(trainerPage.getByText('Not bookable yet')).toHaveCount(0);
  await expectNoAxeViolations(trainerPage);

  // Cancel, with a reason the client sees: always a full refund.
  const cancel = row.getByRole('button', { name: new RegExp(`^Cancel the session with ${user.fullName}`) });
  await expect(cancel, 'the trainer may cancel a paid session at any time, inside 24 hours too').toBeVisible();
  await cancel.click();
  const dialog = trainerPage.getByRole('dialog', { name: 'Cancel this session?' });
  await expect(dialog).toContainText('The client is refunded in full');
  await dialog.getByLabel(`Reason for ${user.firstName}`).fill(reason);
  await expectNoAxeViolations(trainerPage);
  await dialog.getByRole('button', { name: 'Cancel session' }).click();
  await expect(trainerPage.getByText('The session is cancelled and the client refunded in full')).toBeVisible();
  await expect(dialog).toBeHidden();
  const history = trainerPage.getByRole('list', { name: 'History' });
  await expect(history).toContainText(user.fullName);
  await expect(history).toContainText('Refunded');
  await expect(history).toContainText(`Cancelled by you: “${reason}”`);
  await expect(week).not.toContainText(user.fullName);

  // Live on the user's open page, without a reload: a toast, and the session under past and cancelled as Refunded.
  await expect(page.getByText(new RegExp(`^${trainer.firstName} cancelled .+: refunded in full$`))).toBeVisible();
  const past = page.getByRole('list', { name: 'Past and cancelled sessions' });
  await expect(past).toContainText(trainer.fullName);
  await expect(past).toContainText('Refunded');
  await expect(upcoming.getByText(trainer.fullName)).toHaveCount(0);

  // What the server stored.
  const stored = await page.request.get('/api/bookings', authorised(user));
  const { bookings } = (await stored.json()) as {
    bookings: { _id: string; status: string; cancelledBy: string | null; cancelReason: string | null }[];
  };
  expect(bookings.find((b) => b._id === bookingId)).toMatchObject({
    status: 'refunded',
    cancelledBy: 'trainer',
    cancelReason: reason,
  });

  await trainerContext.close();
  expect(trainerErrors, 'trainer console errors').toEqual([]);
});
