import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, plural, test, type Role } from './fixtures';
import { mailTo, uniqueEmail, signUpData } from './support';

const PASSWORD = 'Strong12';

/** A letters-only name no other account has. */
const uniqueName = () =>
  `Zed${Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;

type Account = { id: string; token: string; email: string; firstName: string; lastName: string };

/** Signs a fresh account up through the API (a trainer verified, so the profile is listed) and logs it in. */
async function createAccount(request: APIRequestContext, role: Role, firstName: string): Promise<Account> {
  const email = uniqueEmail(`chat-${role}`);
  const lastName = uniqueName();
  const registered = await request.post(`/api/${plural(role)}/register`, {
    data: signUpData(role, { firstName, lastName, email, password: PASSWORD }),
  });
  expect(registered.status(), await registered.text()).toBe(201);
  if (role === 'trainer') {
    const mail = await mailTo(email);
    expect((await request.get(mail.links[0])).ok()).toBe(true);
  }
  const login = await request.post(`/api/${plural(role)}/login`, { data: { email, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const own = await request.get(role === 'trainer' ? '/api/trainerData' : '/api/userData', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const data = (await own.json()) as { trainerData?: { _id: string }; userData?: { _id: string } };
  return { id: (data.trainerData ?? data.userData)!._id, token, email, firstName, lastName };
}

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

test('a user writes from the profile panel, the trainer sees it live in the inbox and replies live', async ({
  page,
  browser,
  login,
}) => {
  const trainer = await createAccount(page.request, 'trainer', 'Nadia');
  const user = await createAccount(page.request, 'user', 'Mona');

  // The trainer's inbox is open in another browser.
  const trainerContext = await browser.newContext();
  const trainerPage = await trainerContext.newPage();
  const trainerErrors: string[] = [];
  trainerPage.on('console', (m) => {
    if (m.type() === 'error') trainerErrors.push(m.text());
  });
  trainerPage.on('pageerror', (e) => trainerErrors.push(e.message));
  await logIn(trainerPage, trainer, 'trainer');
  await trainerPage.goto('/trainer/chat');
  await expect(trainerPage.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(trainerPage.getByText('No messages yet.')).toBeVisible();
  await expect(trainerPage.getByRole('banner').getByRole('link', { name: 'Messages', exact: true })).toBeVisible();

  // The user opens the trainer's public profile and the chat panel.
  await login({ role: 'user', email: user.email, password: PASSWORD });
  await page.goto(`/trainer/profile/${trainer.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Nadia');
  await page.getByRole('button', { name: 'Chat with Nadia' }).click();
  const panel = page.getByRole('region', { name: 'Chat with Nadia' });
  await expect(panel).toBeVisible();
  expect((await panel.boundingBox())?.height).toBe(400);
  await expect(panel.getByText('Message Me Now!')).toBeVisible();

  const question = `Can we train at 7? <b>${uniqueName()}</b>`;
  const input = panel.getByLabel('Your message');
  await input.fill(question);
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('The Trainer will get back to you ASAP!')).toBeVisible();
  await expect(input).toHaveValue('');
  await expect(panel.getByRole('log').getByText(question, { exact: true })).toBeVisible();

  // Live on the trainer's side: the row, its unread badge and the header count.
  const conversations = trainerPage.getByRole('list', { name: 'Conversations' });
  const row = conversations.getByRole('link', { name: new RegExp(user.lastName) });
  await expect(row).toContainText(question);
  await expect(row).toContainText('1 unread');
  await expect(row).toContainText('0 min');
  await expect(trainerPage.getByRole('banner').getByRole('link', { name: 'Messages, 1 unread' })).toBeVisible();

  // The trainer opens it (read: the badges clear) and replies.
  await row.click();
  const trainerLog = trainerPage.getByRole('log', { name: 'Conversation with Mona' });
  await expect(trainerLog.getByText(question, { exact: true })).toBeVisible();
  await expect(row).not.toContainText('unread');
  await expect(trainerPage.getByRole('banner').getByRole('link', { name: 'Messages', exact: true })).toBeVisible();
  await expectNoAxeViolations(trainerPage);

  const reply = `Yes, see you at 7 ${uniqueName()}`;
  const trainerInput = trainerPage.getByLabel('Your message');
  await trainerInput.fill(reply);
  await trainerPage.getByRole('button', { name: 'Send' }).click();
  await expect(trainerPage.getByText('Message sent successfully!')).toBeVisible();
  await expect(trainerInput).toHaveValue('');
  await expect(trainerLog.getByText(reply)).toBeVisible();

  // Live in the user's open panel, once.
  await expect(panel.getByRole('log').getByText(reply)).toHaveCount(1);
  await expect(panel.getByRole('log').getByText(question, { exact: true })).toHaveCount(1);

  // The user's inbox lists the trainer with the reply as the latest message. (axe runs on leaving
  // the page: a toast still fading out would be measured half transparent.)
  await expect(page.getByText('The Trainer will get back to you ASAP!')).toBeHidden();
  await page.goto('/user/chatOfUser');
  const userRow = page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: new RegExp(trainer.lastName) });
  await expect(userRow).toContainText(reply);

  await trainerContext.close();
  expect(trainerErrors, 'trainer console errors').toEqual([]);
});

test('a visitor of an inbox goes to the login of its role, with the inbox as return address', async ({ page }) => {
  await page.goto('/user/chatOfUser');
  await expect(page).toHaveURL(/\/users\/login\?next=%2Fuser%2FchatOfUser$/);
  await page.goto('/trainer/chatOfTrainer');
  await expect(page).toHaveURL(/\/trainers\/login\?next=%2Ftrainer%2FchatOfTrainer$/);
});
