import type { APIRequestContext, Page } from '@playwright/test';
import { expect, plural, test, type Role } from './fixtures';
import { mailTo, signUpData, uniqueEmail } from './support';

/**
 * Stored content never runs. Markup, script and template payloads are stored through the API in
 * every free-text field an account controls (names, title, description, city, a review, chat
 * messages), then every screen that shows them is opened as the user and as the trainer. On each
 * screen: no dialog opened, no payload ran (window flags stay unset), the CSP reported no blocked
 * script (which would mean markup reached the page and only the CSP saved it), no element the
 * payloads would create exists, and the text is shown as it was typed.
 */

const PASSWORD = 'Strong12';

/** A letters-only token no other account has, so searches and row names find this run's accounts. */
const token = () => `Zq${Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;

/** Each payload sets its own flag; the screen checks read all of them. Lengths fit the fields' limits. */
const FLAGS = ['__xss', '__xssAngular', '__xssHref'] as const;
const trainerText = (id: string) => ({
  firstName: '<img src=x onerror=window.__xss=1>', // names: at most 50
  lastName: `"><svg onload=window.__xss=2>${id}`,
  title: '<svg onload=__xss=3>', // at most 25
  description: `<script>window.__xss=4</script>{{constructor.constructor('window.__xssAngular=1')()}}<a href="javascript:window.__xssHref=1">go</a>`,
  city: `<img src=x onerror=__xss=5>${id.slice(2, 6)}`,
});
const userText = (id: string) => ({
  firstName: '<script>window.__xss=6</script>',
  lastName: `<iframe src=javascript:__xss=7>${id}`,
  title: '<b onmouseover=__xss=8>',
  description: `${'${alert(1)}'}<math><mtext><img src=x onerror=window.__xss=9></mtext></math>`,
});
const REVIEW = `<script>alert('review')</script><img src=x onerror="window.__xss=10"> [link](javascript:window.__xssHref=2) {{constructor.constructor('window.__xssAngular=2')()}}`;
const QUESTION = `<img src=x onerror=alert(document.domain)> javascript:window.__xssHref=3 <a href=javascript:window.__xssHref=4>x</a>`;
const ANSWER = `"><svg/onload=window.__xss=11> https://example.com/"><img src=x onerror=window.__xss=12> {{7*7}}`;

type Account = { id: string; token: string; email: string; firstName: string; lastName: string };

const authorised = (account: Account) => ({ headers: { Authorization: `Bearer ${account.token}` } });

async function expectStatus(answer: Awaited<ReturnType<APIRequestContext['get']>>, status: number) {
  expect(answer.status(), await answer.text()).toBe(status);
}

/** Signs an account up with hostile names, verifies it through the mailed link, logs in and saves title, description (and city). */
async function createAccount(
  request: APIRequestContext,
  role: Role,
  text: { firstName: string; lastName: string; title: string; description: string; city?: string },
): Promise<Account> {
  const email = uniqueEmail(`xss-${role}`);
  const { firstName, lastName } = text;
  await expectStatus(
    await request.post(`/api/${plural(role)}/register`, {
      data: signUpData(role, { firstName, lastName, email, password: PASSWORD }),
    }),
    201,
  );
  const mail = await mailTo(email);
  expect((await request.get(mail.links[0])).ok()).toBe(true);
  const login = await request.post(`/api/${plural(role)}/login`, { data: { email, password: PASSWORD } });
  await expectStatus(login, 200);
  const account = { id: '', token: ((await login.json()) as { token: string }).token, email, firstName, lastName };
  await expectStatus(
    await request.patch(`/api/${role}/edit`, {
      ...authorised(account),
      data: { title: text.title, description: text.description, ...(text.city ? { city: text.city } : {}) },
    }),
    200,
  );
  const own = await request.get(role === 'trainer' ? '/api/trainerData' : '/api/userData', authorised(account));
  const data = (await own.json()) as Record<string, { _id: string; firstName: string; title: string; description: string }>;
  const stored = data.trainerData ?? data.userData;
  // stored as typed: nothing escaped or stripped on the way in (escaping is the screen's job)
  expect(stored).toMatchObject({ firstName, lastName, title: text.title, description: text.description });
  return { ...account, id: stored._id };
}

/** What a screen records: dialogs, CSP reports of blocked script, page errors. */
function watch(page: Page) {
  const seen = { dialogs: [] as string[], blocked: [] as string[] };
  page.on('dialog', (dialog) => {
    seen.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (execute|load|run)/i.test(message.text())) seen.blocked.push(message.text());
  });
  return seen;
}

async function recordCspReports(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __cspReports: string[] };
    w.__cspReports = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      // zod 4 probes once whether it may compile validators (`Function('')` in a try); the CSP
      // refuses and zod validates without compiling. That is the app's own bundle, not stored text.
      if (e.blockedURI === 'eval' && e.sourceFile.startsWith(`${location.origin}/assets/`)) return;
      w.__cspReports.push(
        `${e.violatedDirective} ${e.blockedURI} ${e.sample} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      );
    });
  });
}

/** Nothing ran, nothing was blocked, and no element a payload would make is in the page. */
async function expectInert(page: Page, seen: ReturnType<typeof watch>, screen: string) {
  const found = await page.evaluate(
    (flags) => {
      const w = window as unknown as Record<string, unknown> & { __cspReports?: string[] };
      const ran = flags.filter((f) => w[f] !== undefined).map((f) => `${f}=${String(w[f])}`);
      const elements = Array.from(
        document.querySelectorAll(
          'img[src="x"], [onerror], [onload], [onmouseover], a[href^="javascript:" i], iframe[src^="javascript:" i], math',
        ),
      ).map((el) => el.outerHTML.slice(0, 120));
      // the answers a page the server rendered came with are data, not script: JSON with every '<' escaped
      const isData = (s: HTMLScriptElement) => s.type === 'application/json' && !(s.textContent ?? '').includes('<');
      const scripts = Array.from(document.scripts)
        .filter((s) => !isData(s) && /__xss|alert\(/.test(s.textContent ?? ''))
        .map((s) => s.outerHTML.slice(0, 120));
      return { ran, elements, scripts, cspReports: w.__cspReports ?? [] };
    },
    [...FLAGS],
  );
  expect(found.ran, `${screen}: payloads that ran`).toEqual([]);
  expect(found.elements, `${screen}: elements made from stored text`).toEqual([]);
  expect(found.scripts, `${screen}: scripts made from stored text`).toEqual([]);
  expect(found.cspReports, `${screen}: CSP reports`).toEqual([]);
  expect(seen.blocked, `${screen}: CSP console errors`).toEqual([]);
  expect(seen.dialogs, `${screen}: dialogs`).toEqual([]);
}

/** Each text appears, character for character, as text on the screen. */
async function expectLiteral(page: Page, screen: string, ...texts: string[]) {
  for (const text of texts) {
    await expect(page.getByText(text, { exact: false }).first(), `${screen}: ${text}`).toBeVisible();
  }
}

/** Logs the tab in as an account, as the login screen would store it. */
async function switchTo(page: Page, account: Account, role: Role) {
  await page.evaluate(
    ([value, type]) => {
      localStorage.setItem('token', value);
      localStorage.setItem('userType', type);
    },
    [account.token, role],
  );
}

test('markup and script stored in names, titles, descriptions, reviews and chat messages is shown as text and never runs', async ({
  page,
  login,
}) => {
  test.setTimeout(240_000);
  const request = page.request;
  const trainerId = token();
  const userId = token();
  const tt = trainerText(trainerId);
  const ut = userText(userId);
  const trainer = await createAccount(request, 'trainer', tt);
  const user = await createAccount(request, 'user', ut);
  const trainerFull = `${tt.firstName} ${tt.lastName}`;
  const userFull = `${ut.firstName} ${ut.lastName}`;

  await test.step('links: a javascript: website or picture is refused by the API', async () => {
    const contact = (website: string) =>
      request.patch('/api/user/contact', {
        ...authorised(user),
        data: { phone: '01012345678', website, weight: 60, height: 170 },
      });
    for (const website of [
      'javascript:window.__xssHref=5',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
    ])
      await expectStatus(await contact(website), 400);
    for (const picture of ['javascript:alert(1)', 'https://evil.example/x.png', '/api/images/../../x'])
      await expectStatus(await request.patch('/api/user/edit/photo', { ...authorised(user), data: { picture } }), 400);
    // an http(s) address that carries markup is stored, and shown as a link to itself below
    await expectStatus(await contact('https://example.com/"><svg/onload=window.__xss=13>'), 200);
  });

  await test.step('a booking, a review and a conversation between the two', async () => {
    const weekly = Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: Array.from({ length: 24 }, (_, h) => h) }));
    await expectStatus(
      await request.put('/api/trainer/availability', { ...authorised(trainer), data: { timeZone: 'UTC', weekly } }),
      200,
    );
    const slots = await request.get(`/api/trainers/${trainer.id}/slots`);
    const [startsAt] = ((await slots.json()) as { slots: string[] }).slots;
    const held = await request.post('/api/bookings', { ...authorised(user), data: { trainerId: trainer.id, startsAt } });
    await expectStatus(held, 201);
    const bookingId = ((await held.json()) as { booking: { _id: string } }).booking._id;
    const order = await request.post('/api/orders', { ...authorised(user), data: { bookingId } });
    await expectStatus(order, 200);
    const orderId = ((await order.json()) as { id: string }).id;
    await expectStatus(await request.post(`/api/orders/${encodeURIComponent(orderId)}/capture`, authorised(user)), 200);

    await expectStatus(
      await request.post('/api/reviews/new', {
        ...authorised(user),
        data: { trainerId: trainer.id, rating: 5, comment: REVIEW },
      }),
      201,
    );
    await expectStatus(
      await request.post('/api/chats/', { ...authorised(user), data: { message: QUESTION, recipientId: trainer.id } }),
      201,
    );
    await expectStatus(
      await request.post('/api/chats/', { ...authorised(trainer), data: { message: ANSWER, recipientId: user.id } }),
      201,
    );
  });

  const seen = watch(page);
  await recordCspReports(page);
  await login({ role: 'user', email: user.email, password: PASSWORD });

  await test.step('the trainer list, searched by the trainer’s name', async () => {
    await page.goto(`/trainers?q=${trainerId}`);
    const card = page.getByRole('article').filter({ hasText: trainerId });
    await expect(card).toHaveCount(1);
    await expect(card).toContainText(trainerFull);
    await expect(card).toContainText(tt.title);
    await expectInert(page, seen, 'trainer list');
  });

  await test.step('a search for markup is shown as typed', async () => {
    const q = '<img src=x onerror=window.__xss=14>';
    await page.goto(`/trainers?q=${encodeURIComponent(q)}`);
    await expect(page.getByRole('searchbox')).toHaveValue(q);
    await expectInert(page, seen, 'trainer search');
  });

  await test.step('the trainer’s profile: names, title, description, city, the review and the chat panel', async () => {
    await page.goto(`/trainer/profile/${trainer.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(trainerFull);
    await expectLiteral(page, 'trainer profile', tt.title, tt.description, REVIEW, userFull);
    await expect(page).toHaveTitle(`${trainerFull} · Spotter`);
    await page.getByRole('button', { name: `Chat with ${tt.firstName}`, exact: true }).click();
    const panel = page.getByRole('region', { name: `Chat with ${tt.firstName}` });
    await expect(panel.getByRole('log').getByText(QUESTION, { exact: true })).toBeVisible();
    await expect(panel.getByRole('log').getByText(ANSWER, { exact: true })).toBeVisible();
    await expectInert(page, seen, 'trainer profile');
  });

  await test.step('the user’s inbox and conversation', async () => {
    await page.goto('/user/chatOfUser');
    const row = page.getByRole('list', { name: 'Conversations' }).getByRole('link').filter({ hasText: trainerId });
    await expect(row).toContainText(trainerFull);
    await expect(row).toContainText(ANSWER);
    await row.click();
    const log = page.getByRole('log');
    await expect(log.getByText(QUESTION, { exact: true })).toBeVisible();
    await expect(log.getByText(ANSWER, { exact: true })).toBeVisible();
    await expectInert(page, seen, 'user inbox');
  });

  await test.step('the user’s profile: header, website, upcoming session', async () => {
    await page.goto('/user/profile');
    await expectLiteral(page, 'user profile', userFull, ut.title);
    await expect(page.getByRole('list', { name: 'Upcoming sessions' })).toContainText(trainerFull);
    const website = page.getByRole('link', { name: /example\.com/ });
    await expect(website).toHaveAttribute('href', 'https://example.com/"><svg/onload=window.__xss=13>');
    await expect(website).toHaveText('example.com/"><svg/onload=window.__xss=13>');
    await expectInert(page, seen, 'user profile');
  });

  await test.step('the user’s payments and settings', async () => {
    await page.goto('/user/payments');
    await expect(page.getByRole('list', { name: 'Payments' })).toContainText(trainerFull);
    await expectInert(page, seen, 'user payments');
    await page.goto('/user/settings');
    await expect(page.getByLabel('First name')).toHaveValue(ut.firstName);
    await expect(page.getByLabel('Last name')).toHaveValue(ut.lastName);
    await expect(page.getByLabel('Title')).toHaveValue(ut.title);
    await expectInert(page, seen, 'user settings');
  });

  await switchTo(page, trainer, 'trainer');

  await test.step('the trainer’s own profile and this week’s schedule', async () => {
    await page.goto('/trainer/profile');
    await expectLiteral(page, 'trainer own profile', trainerFull, tt.title);
    await expect(page.getByRole('list', { name: 'This week' })).toContainText(userFull);
    await expectInert(page, seen, 'trainer own profile');
  });

  await test.step('the trainer’s inbox and conversation', async () => {
    await page.goto('/trainer/chat');
    const row = page.getByRole('list', { name: 'Conversations' }).getByRole('link').filter({ hasText: userId });
    await expect(row).toContainText(userFull);
    await expect(row).toContainText(ANSWER);
    await row.click();
    const log = page.getByRole('log');
    await expect(log.getByText(QUESTION, { exact: true })).toBeVisible();
    await expect(log.getByText(ANSWER, { exact: true })).toBeVisible();
    await expectInert(page, seen, 'trainer inbox');
  });

  await test.step('the trainer’s payments and settings', async () => {
    await page.goto('/trainer/payments');
    await expect(page.getByRole('list', { name: 'Earnings' })).toContainText(userFull);
    await expectInert(page, seen, 'trainer payments');
    await page.goto('/trainer/settings');
    await expect(page.getByLabel('First name')).toHaveValue(tt.firstName);
    await expect(page.getByLabel('Description')).toHaveValue(tt.description);
    await expectInert(page, seen, 'trainer settings');
  });
});
