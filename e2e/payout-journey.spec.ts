import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { demoEmail, expect, test as base, type Role } from './fixtures';

/**
 * The payout journey: a trainer sets a payout address, a user books and pays with the demo
 * provider, the session passes and the payout appears on the trainer's earnings page. Days pass on
 * a test clock (docs/testing.md#the-test-clock), so this spec starts a server of its own with
 * TEST_CLOCK=1 on a fresh data directory (seeded with the demo accounts): the shared e2e server's
 * clock is never moved.
 */

const HOUR = 60 * 60_000;
const EVERY_HOUR = Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: Array.from({ length: 24 }, (_, h) => h) }));

type ClockServer = { base: string };

/** A port free now on 127.0.0.1, so PUBLIC_URL (the avatars' absolute URLs) can name it before the server starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The built server (as playwright.config.ts starts the shared one), answering once its readiness check passes. */
async function startClockServer(dataDir: string): Promise<{ base: string; child: ChildProcess; output: () => string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '200',
    PUBLIC_URL: base,
    TEST_CLOCK: '1',
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'JWT_SECRET', 'PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET']) delete env[name];
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`the test-clock server exited (${child.exitCode}):\n${output}`);
        return fetch(`${base}/api/health/ready`).then(
          (r) => r.status,
          () => 0,
        );
      },
      { timeout: 60_000, message: 'the test-clock server is ready' },
    )
    .toBe(200);
  return { base, child, output: () => output };
}

const test = base.extend<{ clock: (advanceMs: number) => Promise<Date> }, { clockServer: ClockServer }>({
  clockServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'spotter-e2e-clock-'));
      const server = await startClockServer(dataDir);
      try {
        await use({ base: server.base });
      } finally {
        const exited = new Promise((resolve) => server.child.once('exit', resolve));
        if (server.child.exitCode === null) server.child.kill('SIGTERM');
        await exited;
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  // every page, request and `login` of this spec goes to the test-clock server
  baseURL: async ({ clockServer }, use) => use(clockServer.base),
  /** Moves the server's clock forward; answers its new time once the jobs due by then have run. */
  clock: async ({ page }, use) => {
    await use(async (advanceMs) => {
      const answer = await page.request.post('/api/test/clock', { data: { advanceMs } });
      expect(answer.status(), await answer.text()).toBe(200);
      return new Date(((await answer.json()) as { now: string }).now);
    });
  },
});

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

async function apiLogin(request: APIRequestContext, role: Role) {
  const answer = await request.post(`/api/${role}s/login`, { data: { email: demoEmail(role), password: 'Demo1234' } });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { token: string }).token;
}

test('a trainer sets a payout address, a user books and pays with the demo provider, the session passes and the payout shows on the trainer’s earnings page', async ({
  page,
  login,
  clock,
}) => {
  // a server of its own, four pages and an axe run on each
  test.setTimeout(180_000);
  const trainerToken = await login({ role: 'trainer' });
  const userToken = await apiLogin(page.request, 'user');
  const asTrainer = { headers: { Authorization: trainerToken } };
  const me = (await (await page.request.get('/api/trainerData', asTrainer)).json()) as {
    trainerData: { _id: string; firstName: string; price: number };
  };
  const trainer = me.trainerData;
  // the trainer has hours: every hour of every day, an hour's notice
  const hours = await page.request.put('/api/trainer/availability', {
    ...asTrainer,
    data: { timeZone: 'UTC', weekly: EVERY_HOUR, minNoticeHours: 1 },
  });
  expect(hours.status(), await hours.text()).toBe(200);

  // The trainer saves a PayPal payout address in Settings → Payouts.
  const address = `payout-journey.${Date.now().toString(36)}@example.com`;
  await page.goto('/trainer/settings');
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Payouts' }).click();
  const section = page.getByRole('region', { name: 'Payouts' });
  await section.getByLabel('PayPal e-mail').fill(address);
  await section.getByRole('button', { name: 'Save payout address' }).click();
  await expect(section.getByText('Your payout address is saved')).toBeVisible();
  await expect(section.getByText(/^Payouts go to/)).toHaveText(`Payouts go to ${address}.`);

  // A user books the soonest slot and pays with the demo provider.
  await switchTo(page, userToken, 'user');
  await page.goto(`/trainer/profile/${trainer._id}`);
  await page.getByRole('button', { name: 'Book now!', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Book a session with ${trainer.firstName}` });
  const price = `$${trainer.price}`;
  await expect(dialog.getByText(`${price} per one-hour session`)).toBeVisible();
  await dialog.getByRole('group').first().getByRole('radio').first().click();
  await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(dialog.getByText('Demo payment: no money moves')).toBeVisible();
  await dialog.getByRole('button', { name: `Pay ${price}` }).click();
  await expect(dialog.getByText('You are booked!')).toBeVisible();
  const booked = (await (await page.request.get('/api/bookings', { headers: { Authorization: userToken } })).json()) as {
    bookings: Array<{ status: string; endsAt: string }>;
  };
  expect(booked.bookings).toHaveLength(1);
  expect(booked.bookings[0].status).toBe('confirmed');
  const endsAt = Date.parse(booked.bookings[0].endsAt);

  // Before the session: the trainer's share is pending and nothing is paid out.
  await switchTo(page, trainerToken, 'trainer');
  await page.goto('/trainer/payments');
  const earning = page.getByRole('list', { name: 'Earnings' }).getByRole('listitem');
  await expect(earning).toHaveCount(1);
  await expect(earning).toContainText('Paid');
  const share = (await earning.getByText(/you get \$/).textContent())!.match(/you get (\$[\d,.]+)/)![1];
  const figures = page.getByLabel('Your earnings');
  await expect(figures).toHaveText(new RegExp(`Pending\\${share}.*Payable\\$0.*Paid out\\$0`));
  await expect(page.getByRole('region', { name: 'Payouts' })).toContainText('No payouts yet.');

  // The session passes: the clock goes past its end and the 48 hours after it in which its user may
  // dispute it, and past the daily payout run (the first a day after the server started).
  const now = await clock(0);
  await clock(endsAt + 48 * HOUR + HOUR - now.getTime());
  // the sweep made the share payable and the payout run paid it through the demo provider
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get('/api/payouts', asTrainer)).json()) as { payouts: Array<{ status: string }> }
        ).payouts.map((p) => p.status),
      { message: 'the payout is paid' },
    )
    .toEqual(['paid']);

  // The trainer's earnings page shows the payout, paid, of the share, and 'Paid out' equals it.
  await page.goto('/trainer/payments');
  const payout = page.getByRole('list', { name: 'Payouts' }).getByRole('listitem');
  await expect(payout).toHaveCount(1);
  await expect(payout).toContainText('Paid');
  await expect(payout).toContainText(`Paid to ${address}.`);
  await expect(payout).toContainText('For 1 session');
  await expect(payout.getByText(share, { exact: true })).toBeVisible();
  await expect(figures).toHaveText(new RegExp(`Pending\\$0.*Payable\\$0.*Paid out\\${share}.*Refunded\\$0`));

  // Settings → Payouts shows the same payout under the address it went to.
  await page.goto('/trainer/settings');
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Payouts' }).click();
  const history = page.getByRole('region', { name: 'Payouts' }).getByRole('list', { name: 'Payout history' });
  await expect(history.getByRole('listitem')).toHaveCount(1);
  await expect(history.getByRole('listitem')).toContainText(`Paid to ${address}.`);
  await expect(history.getByRole('listitem').getByText(share, { exact: true })).toBeVisible();
});
