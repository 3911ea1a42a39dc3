import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { buildTestApp, createAccount, createFreshPgDatabase, uniqueEmail, useTestApp, type TestApp } from './helper';
import { auth, bookableTrainer, bookAndPay, hourFromNow, slotsOf } from './support/bookings';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DAY = 24 * 60 * 60_000;
const advance = (t: TestApp, advanceMs: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/test/clock', payload: { advanceMs } });

describe('without TEST_CLOCK', () => {
  it('has no clock route: the time cannot be moved', async () => {
    const t = await useTestApp();
    const res = await advance(t, DAY);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });
});

describe('the configuration', () => {
  const dataDir = () => mkdtempSync(join(tmpdir(), 'cfg-clock-'));

  it('refuses TEST_CLOCK when NODE_ENV=production, saying why', () => {
    const env = { DATA_DIR: dataDir(), NODE_ENV: 'production', JWT_SECRET: 's'.repeat(40), TEST_CLOCK: '1' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(
      /TEST_CLOCK: tests only; a server with NODE_ENV=production never lets its clock be moved/,
    );
    expect(loadConfig({ ...env, TEST_CLOCK: '' }).testClock).toBe(false);
  });

  it('is off unless set, and takes true or false only', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).testClock).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'test', TEST_CLOCK: '1' }).testClock).toBe(true);
    expect(() => loadConfig({ DATA_DIR: dataDir(), TEST_CLOCK: 'soon' })).toThrow(/TEST_CLOCK="soon": must be true or false/);
  });
});

describe('with TEST_CLOCK=1', async () => {
  // jobs run with the clock days ahead: a database of its own (on PostgreSQL too), so no other
  // file's jobs run here
  const fresh = await createFreshPgDatabase();
  const t = await buildTestApp({ TEST_CLOCK: '1' }, { databaseUrl: fresh?.url ?? '' });
  afterAll(async () => {
    await t.close();
    await fresh?.drop();
  });

  it('refuses a clock moved backwards, in the product’s words', async () => {
    const res = await advance(t, -60_000);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
  });

  it('moves bookings, jobs and payouts together: a session passes and its share is paid out', async () => {
    const trainer = await bookableTrainer(t, { price: 150 });
    const user = await createAccount(t, 'user');
    const email = uniqueEmail('clock-paypal');
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/trainer/payout', headers: auth(trainer.token), payload: { email } }))
        .statusCode,
    ).toBe(200);
    const startsAt = hourFromNow(3);
    const { bookingId } = await bookAndPay(t, user.token, trainer.id, startsAt);

    const before = Date.now();
    const res = await advance(t, 3 * DAY);
    expect(res.statusCode).toBe(200);
    const { now, jobsRun } = res.json() as { now: string; jobsRun: number };
    expect(Date.parse(now) - before).toBeGreaterThanOrEqual(3 * DAY);
    expect(jobsRun).toBeGreaterThan(0);

    // the bookings module's clock moved: no slot is offered before the new now, and the session is over
    const [firstSlot] = await slotsOf(t, trainer.id);
    expect(Date.parse(firstSlot)).toBeGreaterThanOrEqual(Date.parse(now));
    const bookings = await t.app.inject({ url: '/api/bookings', headers: auth(user.token) });
    expect(bookings.json().bookings).toMatchObject([{ _id: bookingId, status: 'completed', canCancel: false }]);
    // the money module's sweep and payout run, with the runner's clock: paid at once by the demo provider
    const payouts = await t.app.inject({ url: '/api/payouts', headers: auth(trainer.token) });
    expect(payouts.json().payouts).toMatchObject([{ amount: 135, status: 'paid', sessions: 1, email }]);
    expect(Date.parse(payouts.json().payouts[0].createdAt)).toBeGreaterThanOrEqual(before + 3 * DAY);
    const totals = (await t.app.inject({ url: '/api/payments', headers: auth(trainer.token) })).json().totals;
    expect(totals).toMatchObject({ pending: 0, payable: 0, paidOut: 135 });
  });
});
