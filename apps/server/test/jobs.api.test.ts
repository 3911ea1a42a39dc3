import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bookings, jobs } from '../src/db/schema';
import { createJobRunner, defineJob } from '../src/platform/jobs';
import { hasCompletedSession } from '../src/modules/bookings/bookings.service';
import { buildTestApp, createAccount, createFreshPgDatabase } from './helper';
import { until } from './support/until';
import {
  bookableTrainer,
  bookAndPay,
  cancel,
  createOrder,
  hold,
  hourFromNow,
  mimePart,
  outboxEml,
  slotsOf,
} from './support/bookings';

// jobs are run with clocks far ahead, so this file has a database of its own (on PostgreSQL too):
// it must not run the jobs of other test files
const fresh = await createFreshPgDatabase();
const t = await buildTestApp({}, { databaseUrl: fresh?.url ?? '' });
afterAll(async () => {
  await t.close();
  await fresh?.drop();
});
const db = t.database.db;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const trainer = await bookableTrainer(t);

const statusOf = async (id: string) =>
  (await db.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, id)))[0].status;
const mailsTo = (email: string, subject: string) => t.outbox().filter((m) => m.to === email && m.subject.startsWith(subject));

describe('the job poller', () => {
  it('starts with the app and stops when the app closes', async () => {
    const other = await buildTestApp({}, { databaseUrl: '' });
    expect(other.app.jobs.isPolling).toBe(true);
    await other.close();
    expect(other.app.jobs.isPolling).toBe(false);
  });
});

describe('hold expiry', () => {
  it('the runner expires a hold once its 10 minutes are over, and the slot is free again', async () => {
    const me = await createAccount(t, 'user');
    const startsAt = hourFromNow(40);
    const bookingId = (await hold(t, me.token, trainer.id, startsAt)).json().booking._id;
    const now = Date.now();
    await t.app.jobs.runDue({ now: new Date(now + 9 * MINUTE) });
    expect(await statusOf(bookingId)).toBe('pending');
    expect(await slotsOf(t, trainer.id)).not.toContain(startsAt);
    await t.app.jobs.runDue({ now: new Date(now + 11 * MINUTE) });
    expect(await statusOf(bookingId)).toBe('expired');
    // a job is no request: its change reaches the cached slots through the database's notification,
    // which on PostgreSQL arrives a moment after the commit (docs/caching.md)
    await until(async () => (await slotsOf(t, trainer.id)).includes(startsAt), 'the expired hold’s slot to be free again');
    const left = await db
      .select()
      .from(jobs)
      .where(sql`${jobs.payload}->>'bookingId' = ${bookingId}`);
    expect(left).toEqual([]);
  });

  it('an order restarts the hold; the first expiry job then leaves it alone', async () => {
    const me = await createAccount(t, 'user');
    const bookingId = (await hold(t, me.token, trainer.id, hourFromNow(41))).json().booking._id;
    const heldAt = Date.now();
    // the user reaches the checkout after 8 minutes
    await db
      .update(bookings)
      .set({ holdExpiresAt: new Date(heldAt + 2 * MINUTE), createdAt: new Date(heldAt - 8 * MINUTE) })
      .where(eq(bookings.id, bookingId));
    await db
      .update(jobs)
      .set({ runAt: new Date(heldAt + 2 * MINUTE) })
      .where(sql`${jobs.payload}->>'bookingId' = ${bookingId}`);
    expect((await createOrder(t, me.token, { bookingId })).statusCode).toBe(200);
    // the first expiry job runs, finds the hold restarted, and does nothing
    expect(await t.app.jobs.runDue({ now: new Date(heldAt + 3 * MINUTE) })).toBeGreaterThanOrEqual(1);
    expect(await statusOf(bookingId)).toBe('pending');
    await t.app.jobs.runDue({ now: new Date(heldAt + 11 * MINUTE) });
    expect(await statusOf(bookingId)).toBe('expired');
  });
});

describe('reminders and completion', () => {
  it('both sides get a reminder with the .ics 24 h before, once; a finished session is completed', async () => {
    const me = await createAccount(t, 'user');
    const startsAt = hourFromNow(72);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, startsAt);
    const start = Date.parse(startsAt);
    await t.app.jobs.runDue({ now: new Date(start - 25 * HOUR) });
    expect(mailsTo(me.email, 'Tomorrow')).toEqual([]);
    await t.app.jobs.runDue({ now: new Date(start - 24 * HOUR + MINUTE) });
    expect(mailsTo(me.email, 'Tomorrow')).toHaveLength(1);
    expect(mailsTo(trainer.email, 'Tomorrow')).toHaveLength(1);
    const eml = outboxEml(t).find((e) => e.includes(`To: ${me.email}`) && e.includes('Subject: Tomorrow'))!;
    expect(mimePart(eml, 'text/calendar')).toContain(`UID:booking-${bookingId}@spotter`);
    await t.app.jobs.runDue({ now: new Date(start - 23 * HOUR) });
    expect(mailsTo(me.email, 'Tomorrow')).toHaveLength(1);

    expect(await hasCompletedSession(db, { userId: me.id, trainerId: trainer.id, now: new Date(start - HOUR) })).toBe(false);
    await t.app.jobs.runDue({ now: new Date(start + HOUR + MINUTE) });
    expect(await statusOf(bookingId)).toBe('completed');
    expect(await hasCompletedSession(db, { userId: me.id, trainerId: trainer.id })).toBe(true);
  });

  it('a cancelled session gets no reminder', async () => {
    const me = await createAccount(t, 'user');
    const startsAt = hourFromNow(80);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, startsAt);
    expect((await cancel(t, me.token, bookingId)).statusCode).toBe(200);
    await t.app.jobs.runDue({ now: new Date(Date.parse(startsAt) - 23 * HOUR) });
    expect(mailsTo(me.email, 'Tomorrow')).toEqual([]);
  });
});

describe('failures and concurrency', () => {
  it('a failing job is retried with back-off, and parked after five attempts', async () => {
    let calls = 0;
    const flakyJob = defineJob('test.flaky', z.object({}));
    const brokenJob = defineJob('test.broken', z.object({}));
    t.app.jobs.register(flakyJob, async () => {
      if (++calls < 3) throw new Error(`flaky ${calls}`);
    });
    t.app.jobs.register(brokenJob, async () => {
      throw new Error('always broken');
    });
    const base = Date.now() + 400 * 24 * HOUR; // after every booking job of this file
    const flaky = await t.app.jobs.enqueue(db, { kind: flakyJob, runAt: new Date(base), payload: {} });
    const broken = await t.app.jobs.enqueue(db, { kind: brokenJob, runAt: new Date(base), payload: {} });
    const row = async (id: number) => (await db.select().from(jobs).where(eq(jobs.id, id)))[0];

    await t.app.jobs.runDue({ now: new Date(base) });
    expect(await row(flaky)).toMatchObject({ attempts: 1, lastError: 'flaky 1', failedAt: null, lockedUntil: null });
    expect((await row(flaky)).runAt.getTime()).toBe(base + 30_000);
    expect(await t.app.jobs.runDue({ now: new Date(base + 10_000) })).toBe(0);
    await t.app.jobs.runDue({ now: new Date(base + 30_000) });
    expect((await row(flaky)).runAt.getTime()).toBe(base + 30_000 + 60_000);
    await t.app.jobs.runDue({ now: new Date(base + 90_000) });
    expect(await row(flaky)).toBeUndefined();
    expect(calls).toBe(3);

    for (let i = 1; i <= 6; i++) await t.app.jobs.runDue({ now: new Date(base + i * 2 * HOUR) });
    expect(await row(broken)).toMatchObject({ attempts: 5, lastError: 'always broken' });
    expect((await row(broken)).failedAt).not.toBeNull();
  });

  it('a handler gets its payload parsed by its kind’s schema; a stored payload that does not match is parked at once', async () => {
    const seen: Array<{ bookingId: string; count: number }> = [];
    const typed = defineJob('test.typed', z.object({ bookingId: z.string(), count: z.number().int() }));
    t.app.jobs.register(typed, async (payload) => {
      seen.push(payload);
    });
    const at = new Date(Date.now() + 600 * 24 * HOUR);
    const good = await t.app.jobs.enqueue(db, { kind: typed, runAt: at, payload: { bookingId: 'b-1', count: 2 } });
    // written by an older build, or by hand: the count is a string
    const [bad] = await db
      .insert(jobs)
      .values({ kind: typed.name, runAt: at, payload: { bookingId: 'b-2', count: 'two' } })
      .returning({ id: jobs.id });
    await t.app.jobs.runDue({ now: at });

    expect(seen).toEqual([{ bookingId: 'b-1', count: 2 }]);
    expect((await db.select().from(jobs).where(eq(jobs.id, good)))[0]).toBeUndefined();
    const parked = (await db.select().from(jobs).where(eq(jobs.id, bad.id)))[0];
    expect(parked).toMatchObject({ attempts: 1, kind: 'test.typed' });
    expect(parked.failedAt).not.toBeNull();
    expect(parked.lastError).toMatch(/does not match its schema/);
  });

  it('two runners racing over the same jobs run each job exactly once', async () => {
    const runs = new Map<number, number>();
    const countJob = defineJob('test.count', z.object({ n: z.number() }));
    const count = async ({ n }: { n: number }) => {
      await new Promise((r) => setImmediate(r));
      runs.set(n, (runs.get(n) ?? 0) + 1);
    };
    const second = createJobRunner({ db, log: t.app.log });
    t.app.jobs.register(countJob, count);
    second.register(countJob, count);
    const at = new Date(Date.now() + 800 * 24 * HOUR);
    // the app's recurring jobs (money.sweep, money.payouts) are due too: run them first
    await t.app.jobs.runDue({ now: at });
    for (let n = 0; n < 30; n++) await t.app.jobs.enqueue(db, { kind: countJob, runAt: at, payload: { n } });
    const [a, b, c] = await Promise.all([t.app.jobs.runDue({ now: at }), second.runDue({ now: at }), second.runDue({ now: at })]);
    expect(a + b + c).toBe(30);
    expect([...runs.values()].every((v) => v === 1)).toBe(true);
    expect(runs.size).toBe(30);
  });
});
