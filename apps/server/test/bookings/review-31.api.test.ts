// Review 31: attacks on packages, standing series, moves, releases and the waitlist
// (docs/product.md "Packages", "Standing weekly sessions", "Moving a session", "Releasing a late
// session", "Waitlist"; docs/decisions/043-moves-and-waitlist.md and 044-packages-held-in-money.md). Attacks that held stay as regression tests;
// the five defects the review found (marked 'a defect the review found') are fixed, and their tests
// failed before the fixes.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BOOKING_RULES, PACKAGE_MSG, POLICY_V1, type TBalance, type TBooking, type TTrainerPackage } from '@spotter/shared';
import { bookings, packageBalances, refunds } from '../../src/db/schema';
import { RELEASE_JOBS } from '../../src/modules/bookings/booking-jobs';
import { account, balance, hasTransaction } from '../../src/modules/money';
import { checkLedger } from '../../src/modules/money/ledger-check';
import { dueShares } from '../../src/modules/money/payouts.repo';
import { createPayoutsService } from '../../src/modules/money/payouts.service';
import { createDemoProvider } from '../../src/modules/money/providers/demo-provider';
import { createAccount, useTestApp } from '../helper';
import { auth, bookableTrainer, bookAndPay, cancel, capture, createOrder, hold, hourFromNow } from '../support/bookings';
import { until } from '../support/until';

const t = await useTestApp();
const db = t.database.db;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

type Account = Awaited<ReturnType<typeof createAccount>>;

const putPackages = (token: string | undefined, packages: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/trainer/packages', headers: auth(token), payload: { packages } as object });
const balancesOf = async (token: string) =>
  (await t.app.inject({ url: '/api/balances', headers: auth(token) })).json().balances as TBalance[];
const bookFromBalance = (token: string | undefined, trainerId: string, startsAt: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/bookings',
    headers: auth(token),
    payload: { trainerId, startsAt, payWith: 'balance' },
  });
const bookSeries = (token: string | undefined, trainerId: string, startsAt: string, weeks: number) =>
  t.app.inject({
    method: 'POST',
    url: '/api/bookings',
    headers: auth(token),
    payload: { trainerId, startsAt, weeks, payWith: 'balance' },
  });
const refundRest = (token: string | undefined, trainerId: string) =>
  t.app.inject({ method: 'POST', url: `/api/balances/${trainerId}/refund`, headers: auth(token) });
const reschedule = (token: string | undefined, id: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/bookings/${id}/reschedule`, headers: auth(token), payload: payload as object });
const release = (token: string | undefined, id: string) =>
  t.app.inject({ method: 'POST', url: `/api/bookings/${id}/release`, headers: auth(token) });
const join = (token: string | undefined, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/waitlist', headers: auth(token), payload: payload as object });
const rowOf = async (id: string) => (await db.select().from(bookings).where(eq(bookings.id, id)))[0];
const accountTotal = async (acc: string) => balance(db, acc);
const balanceRows = async (userId: string, trainerId: string) =>
  db
    .select()
    .from(packageBalances)
    .where(and(eq(packageBalances.userId, userId), eq(packageBalances.trainerId, trainerId)));
const liveHoldsOf = async (userId: string) =>
  (
    await db
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(eq(bookings.userId, userId), eq(bookings.status, 'pending'), sql`${bookings.holdExpiresAt} > now()`))
  ).length;
const ledgerClean = async () => expect((await checkLedger({ db })).differences).toEqual([]);

/** The jobs' clock: only forward (jobs of earlier tests may be due). */
let clock = Date.now();
const runJobsAt = async (ms: number) => {
  clock = Math.max(clock, ms);
  while ((await t.app.jobs.runDue({ now: new Date(clock) })) > 0);
};

/** A trainer at $100 a session, bookable every hour with a 1-hour notice, selling `sessions` for `price`. */
async function trainerWithPackage(sessions = 5, price = 400) {
  const trainer = await bookableTrainer(t, { price: 100 });
  const res = await putPackages(trainer.token, [{ sessions, price, validityMonths: null }]);
  expect(res.statusCode).toBe(200);
  return { trainer, pkg: res.json().packages[0] as TTrainerPackage };
}

async function buy(user: Account, packageId: string) {
  const order = await createOrder(t, user.token, { packageId });
  expect(order.statusCode).toBe(200);
  const captured = await capture(t, user.token, order.json().id);
  expect(captured.statusCode).toBe(200);
  return order.json().id as string;
}

/** Every 4xx is in the product's words: a JSON message, never a 500. */
function expectWords(res: { statusCode: number; body: string }, status?: number) {
  expect(res.statusCode, res.body).toBeLessThan(500);
  expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
  if (status) expect(res.statusCode, res.body).toBe(status);
  const body = JSON.parse(res.body) as { message?: unknown };
  expect(typeof body.message).toBe('string');
  expect((body.message as string).length).toBeGreaterThan(0);
}

describe('money that must add up', () => {
  it('two refunds of the rest at once: one refund, the other refused; the ledger balances', async () => {
    const { trainer, pkg } = await trainerWithPackage(5, 400);
    const user = await createAccount(t, 'user');
    const orderId = await buy(user, pkg._id);
    expect((await bookFromBalance(user.token, trainer.id, hourFromNow(40))).statusCode).toBe(201);
    const answers = await Promise.all([refundRest(user.token, trainer.id), refundRest(user.token, trainer.id)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    for (const a of answers.filter((r) => r.statusCode !== 200)) expectWords(a, 409);
    const rows = await db.select().from(refunds).where(eq(refunds.providerOrderId, orderId));
    expect(rows.filter((r) => r.status === 'completed').map((r) => r.amountCents)).toEqual([32000]);
    const [b] = await balanceRows(user.id, trainer.id);
    expect(await accountTotal(account.balance(b.id))).toBe(0);
    await ledgerClean();
  });

  it('a refund of the rest racing bookings from the balance: nothing taken twice, never below zero', async () => {
    const { trainer, pkg } = await trainerWithPackage(3, 270);
    const user = await createAccount(t, 'user');
    const orderId = await buy(user, pkg._id);
    const answers = await Promise.all([
      bookFromBalance(user.token, trainer.id, hourFromNow(41)),
      refundRest(user.token, trainer.id),
      bookFromBalance(user.token, trainer.id, hourFromNow(42)),
      bookFromBalance(user.token, trainer.id, hourFromNow(43)),
    ]);
    for (const a of answers) expect(a.statusCode, a.body).toBeLessThan(500);
    const [b] = await balanceRows(user.id, trainer.id);
    const booked = await db
      .select({ price: bookings.priceCents })
      .from(bookings)
      .where(and(eq(bookings.balanceId, b.id), eq(bookings.status, 'confirmed')));
    const refunded = (await db.select().from(refunds).where(eq(refunds.providerOrderId, orderId)))
      .filter((r) => r.status === 'completed')
      .reduce((s, r) => s + r.amountCents, 0);
    expect(booked.reduce((s, r) => s + r.price, 0) + refunded).toBe(27000);
    expect(await accountTotal(account.balance(b.id))).toBe(0);
    // the refund came first (200, no booking after it took anything) or after all three took it all (409)
    if (answers[1].statusCode !== 200) {
      expectWords(answers[1], 409);
      expect(answers[1].json().message).toBe(PACKAGE_MSG.nothingToRefund);
      expect(refunded).toBe(0);
    }
    expect(b.sessionsLeft).toBe(0);
    await ledgerClean();
  });

  it('a session paid from a balance cancelled twice at once: its part goes back once', async () => {
    const { trainer, pkg } = await trainerWithPackage(4, 360);
    const user = await createAccount(t, 'user');
    await buy(user, pkg._id);
    const booking = (await bookFromBalance(user.token, trainer.id, hourFromNow(44))).json().booking as TBooking;
    const answers = await Promise.all([
      cancel(t, user.token, booking._id),
      cancel(t, user.token, booking._id),
      cancel(t, trainer.token, booking._id, { reason: 'Ill' }),
    ]);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    for (const a of answers.filter((r) => r.statusCode !== 200)) expectWords(a, 409);
    expect(await balancesOf(user.token)).toMatchObject([{ amount: 360, sessionsLeft: 4 }]);
    await ledgerClean();
  });

  it('a balance whose end date passed (its job not run yet) pays for nothing, one session or a series', async () => {
    const { trainer, pkg } = await trainerWithPackage(4, 360);
    const user = await createAccount(t, 'user');
    await buy(user, pkg._id);
    const [b] = await balanceRows(user.id, trainer.id);
    await db
      .update(packageBalances)
      .set({ expiresAt: new Date(Date.now() - MINUTE) })
      .where(eq(packageBalances.id, b.id));
    const one = await bookFromBalance(user.token, trainer.id, hourFromNow(45));
    expectWords(one, 409);
    expect(one.json().message).toBe(PACKAGE_MSG.balanceExpired);
    const series = await bookSeries(user.token, trainer.id, hourFromNow(46), 4);
    expectWords(series, 409);
    expect(await accountTotal(account.balance(b.id))).toBe(36000);
  });

  it('a series racing single bookings of the same slots: each slot once, the balance exactly spent', async () => {
    const { trainer, pkg } = await trainerWithPackage(4, 360);
    const a = await createAccount(t, 'user');
    const bUser = await createAccount(t, 'user');
    await buy(a, pkg._id);
    await buy(bUser, pkg._id);
    const first = hourFromNow(47);
    const week = (k: number) => new Date(Date.parse(first) + k * 7 * 24 * HOUR).toISOString();
    const answers = await Promise.all([
      bookSeries(a.token, trainer.id, first, 4),
      bookFromBalance(bUser.token, trainer.id, week(0)),
      bookFromBalance(bUser.token, trainer.id, week(1)),
      bookSeries(bUser.token, trainer.id, first, 4),
    ]);
    for (const r of answers) expect(r.statusCode, r.body).toBeLessThan(500);
    const live = await db
      .select({ startsAt: bookings.startsAt, userId: bookings.userId })
      .from(bookings)
      .where(and(eq(bookings.trainerId, trainer.id), eq(bookings.status, 'confirmed')));
    const starts = live.map((r) => r.startsAt.toISOString());
    expect(new Set(starts).size).toBe(starts.length);
    for (const who of [a, bUser]) {
      const [row] = await balanceRows(who.id, trainer.id);
      const mine = live.filter((r) => r.userId === who.id).length;
      expect(row.sessionsLeft).toBe(4 - mine);
      expect(await accountTotal(account.balance(row.id))).toBe(mine === 4 ? 0 : 36000 - mine * 9000);
    }
    await ledgerClean();
  });

  it('a released session paid from a balance, resold while its trainer cancels it: back in the balance once', async () => {
    const { trainer, pkg } = await trainerWithPackage(4, 360);
    const me = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    await buy(me, pkg._id);
    const slot = hourFromNow(5);
    const mine = (await bookFromBalance(me.token, trainer.id, slot)).json().booking as TBooking;
    expect((await release(me.token, mine._id)).statusCode).toBe(200);
    const [resale, trainerCancel] = await Promise.all([
      bookAndPay(t, other.token, trainer.id, slot),
      cancel(t, trainer.token, mine._id, { reason: 'sorry' }),
    ]);
    expect(resale.bookingId).toEqual(expect.any(String));
    expect(trainerCancel.statusCode).toBeLessThan(500);
    await until(async () => (await rowOf(mine._id)).status === 'cancelled', 'the released session to be cancelled');
    // the refund job again: nothing more
    await t.app.jobs.enqueue(db, { kind: RELEASE_JOBS.refund, runAt: new Date(), payload: { bookingId: mine._id } });
    await runJobsAt(Date.now());
    expect(await balancesOf(me.token)).toMatchObject([{ amount: 360, sessionsLeft: 4 }]);
    const unredeems = await db.execute(
      sql`select count(*)::int as n from ledger_transactions where key = ${`unredeem:${mine._id}`}`,
    );
    expect((unredeems as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(1);
    await ledgerClean();
  });

  it('a released card session: its refund job run twice refunds once', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    const slot = hourFromNow(6);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, slot);
    expect((await release(me.token, bookingId)).statusCode).toBe(200);
    await Promise.all([
      bookAndPay(t, other.token, trainer.id, slot),
      t.app.jobs.enqueue(db, { kind: RELEASE_JOBS.refund, runAt: new Date(), payload: { bookingId } }),
    ]);
    await t.app.jobs.enqueue(db, { kind: RELEASE_JOBS.refund, runAt: new Date(), payload: { bookingId } });
    await runJobsAt(Date.now());
    await until(async () => (await rowOf(bookingId)).status === 'refunded', 'the released session to be refunded');
    expect(await db.select().from(refunds).where(eq(refunds.bookingId, bookingId))).toHaveLength(1);
    await ledgerClean();
  });

  // a defect the review found (fixed): reschedule-booking.ts never calls queueResaleRefunds (book-from-balance.ts and
  // settle-order.ts do): a session moved into the slot of a released session takes the slot (the
  // live-slot index leaves released sessions out), but the released session is neither cancelled
  // nor refunded: its user paid for a time somebody else now has, and the trainer is paid twice.
  it('a session moved into a released slot: the released session is refunded (somebody else took its slot)', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const mover = await createAccount(t, 'user');
    const slot = hourFromNow(7);
    const { bookingId: released } = await bookAndPay(t, me.token, trainer.id, slot);
    expect((await release(me.token, released)).statusCode).toBe(200);
    const { bookingId: moving } = await bookAndPay(t, mover.token, trainer.id, hourFromNow(60));
    const moved = await reschedule(mover.token, moving, { startsAt: slot });
    // refusing the move would be right too; taking the slot must refund the released session
    if (moved.statusCode !== 200) {
      expectWords(moved, 409);
      return;
    }
    expect(await rowOf(moving)).toMatchObject({ status: 'confirmed', startsAt: new Date(slot) });
    await runJobsAt(Date.now());
    expect((await rowOf(released)).status).toBe('refunded');
    expect(await db.select().from(refunds).where(eq(refunds.bookingId, released))).toHaveLength(1);
  });

  it('a move racing a cancel of the same session: one outcome, one refund at most, the ledger balances', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(62));
    const [moved, cancelled] = await Promise.all([
      reschedule(me.token, bookingId, { startsAt: hourFromNow(64) }),
      cancel(t, me.token, bookingId),
    ]);
    expect(moved.statusCode).toBeLessThan(500);
    expect(cancelled.statusCode).toBe(200);
    const row = await rowOf(bookingId);
    expect(row.status).toBe('refunded');
    expect(await db.select().from(refunds).where(eq(refunds.bookingId, bookingId))).toHaveLength(1);
    await ledgerClean();
  });

  it('two moves of the same session to two slots at once: it ends at one of them, the other stays free', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(66));
    const [a, b] = await Promise.all([
      reschedule(me.token, bookingId, { startsAt: hourFromNow(68) }),
      reschedule(me.token, bookingId, { startsAt: hourFromNow(69) }),
    ]);
    const ok = [a, b].filter((r) => r.statusCode === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of [a, b].filter((x) => x.statusCode !== 200)) expectWords(r);
    const row = await rowOf(bookingId);
    expect([hourFromNow(68), hourFromNow(69)]).toContain(row.startsAt.toISOString());
    const freeOne = row.startsAt.toISOString() === hourFromNow(68) ? hourFromNow(69) : hourFromNow(68);
    expect((await hold(t, other.token, trainer.id, freeOne)).statusCode).toBe(201);
  });
});

describe('rights', () => {
  it('somebody else’s booking cannot be moved, released or cancelled; its trainer cannot move or release it', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const stranger = await createAccount(t, 'user');
    const otherTrainer = await createAccount(t, 'trainer');
    const far = (await bookAndPay(t, me.token, trainer.id, hourFromNow(70))).bookingId;
    const near = (await bookAndPay(t, me.token, trainer.id, hourFromNow(8))).bookingId;
    expectWords(await reschedule(stranger.token, far, { startsAt: hourFromNow(72) }), 404);
    expectWords(await release(stranger.token, near), 404);
    expectWords(await cancel(t, stranger.token, far), 404);
    expectWords(await cancel(t, otherTrainer.token, far), 404);
    expectWords(await reschedule(trainer.token, far, { startsAt: hourFromNow(72) }), 403);
    expectWords(await release(trainer.token, near), 403);
    expectWords(await release(otherTrainer.token, near), 403);
    expect(await rowOf(far)).toMatchObject({ status: 'confirmed', startsAt: new Date(hourFromNow(70)) });
    expect((await rowOf(near)).releasedAt).toBeNull();
  });

  it('a balance is its user’s: nobody else books from it or refunds it; a trainer buys nothing and books nothing from one', async () => {
    const { trainer, pkg } = await trainerWithPackage(3, 270);
    const owner = await createAccount(t, 'user');
    const thief = await createAccount(t, 'user');
    const otherTrainer = await bookableTrainer(t);
    await buy(owner, pkg._id);
    const stolen = await bookFromBalance(thief.token, trainer.id, hourFromNow(74));
    expectWords(stolen, 409);
    expect(stolen.json().message).toBe(PACKAGE_MSG.noBalance);
    expectWords(await refundRest(thief.token, trainer.id), 404);
    expectWords(await refundRest(otherTrainer.token, trainer.id), 403);
    expectWords(await createOrder(t, otherTrainer.token, { packageId: pkg._id }), 403);
    expectWords(await bookFromBalance(otherTrainer.token, trainer.id, hourFromNow(74)), 403);
    expectWords(await bookSeries(trainer.token, trainer.id, hourFromNow(74), 4), 403);
    expect(await balancesOf(owner.token)).toMatchObject([{ amount: 270, sessionsLeft: 3 }]);
  });

  it('ids that are not UUIDs and bodies of the wrong types: 4xx in the product’s words, never a 500', async () => {
    const { trainer, pkg } = await trainerWithPackage(3, 270);
    const user = await createAccount(t, 'user');
    await buy(user, pkg._id);
    const { bookingId } = await bookAndPay(t, user.token, trainer.id, hourFromNow(76));
    const post = (url: string, payload?: unknown) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: auth(user.token),
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    for (const id of ['nope', '1', "' or 1=1 --", '00000000-0000-0000-0000-00000000000g', 'a'.repeat(300)]) {
      const enc = encodeURIComponent(id);
      expectWords(await post(`/api/bookings/${enc}/reschedule`, { startsAt: hourFromNow(78) }));
      expectWords(await post(`/api/bookings/${enc}/release`));
      expectWords(await post(`/api/bookings/${enc}/cancel`));
      expectWords(await post(`/api/balances/${enc}/refund`));
      expectWords(await t.app.inject({ method: 'DELETE', url: `/api/waitlist/${enc}`, headers: auth(user.token) }));
    }
    for (const body of [{}, { startsAt: 5 }, { startsAt: 'soon' }, { startsAt: null }, { startsAt: [hourFromNow(78)] }, 'x'])
      expectWords(await post(`/api/bookings/${bookingId}/reschedule`, body), typeof body === 'string' ? undefined : 400);
    for (const body of [
      { trainerId: trainer.id, startsAt: hourFromNow(78), payWith: 'balance', weeks: '4' },
      { trainerId: trainer.id, startsAt: hourFromNow(78), payWith: 'balance', weeks: 4.5 },
      { trainerId: trainer.id, startsAt: hourFromNow(78), payWith: 'balance', weeks: -4 },
      { trainerId: trainer.id, startsAt: hourFromNow(78), payWith: 'balance', weeks: 1e9 },
      { trainerId: 123, startsAt: hourFromNow(78), payWith: 'balance' },
      { trainerId: trainer.id, startsAt: 'tomorrow', payWith: 'balance' },
      { trainerId: trainer.id, startsAt: hourFromNow(78), payWith: ['balance'] },
      { trainerId: trainer.id, startsAt: hourFromNow(78), payWith: 'balance', weeks: null },
    ])
      expectWords(await post('/api/bookings', body), 400);
    for (const body of [
      { trainerId: trainer.id, from: 5, to: 6 },
      { trainerId: trainer.id, from: hourFromNow(30), to: { a: 1 } },
      { trainerId: [trainer.id], from: hourFromNow(30), to: hourFromNow(32) },
      { trainerId: trainer.id, from: hourFromNow(32), to: hourFromNow(30) },
      'x',
    ])
      expectWords(await post('/api/waitlist', body), typeof body === 'string' ? undefined : 400);
    expectWords(await post('/api/orders', { packageId: 5 }), 400);
    expectWords(await post('/api/orders', { packageId: 'nope' }));
    for (const bad of [
      [{ sessions: '5', price: 100, validityMonths: null }],
      [{ sessions: 5, price: '100', validityMonths: null }],
      { a: 1 },
    ])
      expectWords(await putPackages(trainer.token, bad), 400);
    // nothing moved
    expect(await balancesOf(user.token)).toMatchObject([{ amount: 270, sessionsLeft: 3 }]);
    expect(await rowOf(bookingId)).toMatchObject({ status: 'confirmed', startsAt: new Date(hourFromNow(76)) });
  });
});

describe('waitlist abuse', () => {
  it('ten joins at once for different windows: at most five are kept', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        join(me.token, { trainerId: trainer.id, from: hourFromNow(100 + i * 3), to: hourFromNow(101 + i * 3) }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(5);
    for (const a of answers.filter((r) => r.statusCode !== 201)) expectWords(a, 409);
    // the same window twice at once: once
    const other = await createAccount(t, 'user');
    const same = await Promise.all(
      Array.from({ length: 4 }, () => join(other.token, { trainerId: trainer.id, from: hourFromNow(100), to: hourFromNow(102) })),
    );
    expect(same.filter((a) => a.statusCode === 201)).toHaveLength(1);
  });

  it('an offer never goes to a user who deleted their account', async () => {
    const trainer = await bookableTrainer(t);
    const owner = await createAccount(t, 'user');
    const gone = await createAccount(t, 'user');
    const slot = hourFromNow(110);
    expect((await join(gone.token, { trainerId: trainer.id, from: hourFromNow(109), to: hourFromNow(112) })).statusCode).toBe(
      201,
    );
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/user',
      headers: auth(gone.token),
      payload: { password: gone.password },
    });
    expect(del.statusCode).toBe(200);
    const { bookingId } = await bookAndPay(t, owner.token, trainer.id, slot);
    expect((await cancel(t, owner.token, bookingId)).statusCode).toBe(200);
    await runJobsAt(Date.now());
    const live = await db
      .select({ userId: bookings.userId })
      .from(bookings)
      .where(
        and(eq(bookings.trainerId, trainer.id), sql`${bookings.startsAt} = ${slot}::timestamptz`, eq(bookings.status, 'pending')),
      );
    expect(live).toEqual([]);
  });

  it('an offer racing a hold of the same slot: one live booking of the slot', async () => {
    const trainer = await bookableTrainer(t);
    const owner = await createAccount(t, 'user');
    const waiter = await createAccount(t, 'user');
    const racer = await createAccount(t, 'user');
    const slot = hourFromNow(114);
    expect((await join(waiter.token, { trainerId: trainer.id, from: hourFromNow(113), to: hourFromNow(116) })).statusCode).toBe(
      201,
    );
    const { bookingId } = await bookAndPay(t, owner.token, trainer.id, slot);
    expect((await cancel(t, owner.token, bookingId)).statusCode).toBe(200);
    const [, held] = await Promise.all([runJobsAt(Date.now()), hold(t, racer.token, trainer.id, slot)]);
    expect(held.statusCode).toBeLessThan(500);
    const live = await db
      .select({ userId: bookings.userId })
      .from(bookings)
      .where(
        and(
          eq(bookings.trainerId, trainer.id),
          sql`${bookings.startsAt} = ${slot}::timestamptz`,
          sql`${bookings.status} in ('pending', 'confirmed')`,
        ),
      );
    expect(live).toHaveLength(1);
    expect([waiter.id, racer.id]).toContain(live[0].userId);
  });

  // a defect the review found (fixed): offer-freed-slot.ts / waitlist.repo.ts nextInLine hold a slot for a waiter without the
  // hold limit of hold-slot.ts (BOOKING_RULES.maxPendingHolds, 'a user has at most 3 unpaid holds'),
  // and 'has no offer held' is checked per wait, not per user: a user with waits for several
  // trainers is held several freed slots at once, on top of the three holds they may already have.
  it('a user at the hold limit, waiting for two trainers, is not held two more slots at once', async () => {
    const busy = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    for (const h of [120, 121, 122]) expect((await hold(t, me.token, busy.id, hourFromNow(h))).statusCode).toBe(201);
    expect(await liveHoldsOf(me.id)).toBe(BOOKING_RULES.maxPendingHolds);
    const owner = await createAccount(t, 'user');
    for (const h of [124, 126]) {
      const trainer = await bookableTrainer(t);
      expect((await join(me.token, { trainerId: trainer.id, from: hourFromNow(h - 1), to: hourFromNow(h + 2) })).statusCode).toBe(
        201,
      );
      const { bookingId } = await bookAndPay(t, owner.token, trainer.id, hourFromNow(h));
      expect((await cancel(t, owner.token, bookingId)).statusCode).toBe(200);
    }
    await runJobsAt(Date.now());
    expect(await liveHoldsOf(me.id)).toBeLessThanOrEqual(BOOKING_RULES.maxPendingHolds);
  });
});

describe('one package at a time', () => {
  // a defect the review found (fixed): packages.ts createPackageOrder refuses a second package only when a balance is open
  // already; settlePackage (the capture) does not look again. Two orders made before either is
  // captured (two of the trainer's packages, or two requests at once for one: findPendingPurchase
  // is per package and not locked) are both captured into two active balances with the trainer.
  it('two packages of one trainer ordered before either is captured: the second capture buys nothing', async () => {
    const trainer = await bookableTrainer(t, { price: 100 });
    const res = await putPackages(trainer.token, [
      { sessions: 2, price: 180, validityMonths: null },
      { sessions: 3, price: 270, validityMonths: null },
    ]);
    const [p1, p2] = res.json().packages as TTrainerPackage[];
    const user = await createAccount(t, 'user');
    const o1 = await createOrder(t, user.token, { packageId: p1._id });
    const o2 = await createOrder(t, user.token, { packageId: p2._id });
    expect(o1.statusCode).toBe(200);
    expect(o2.statusCode).toBe(200);
    expect((await capture(t, user.token, o1.json().id)).statusCode).toBe(200);
    const second = await capture(t, user.token, o2.json().id);
    expect(second.statusCode).toBeLessThan(500);
    const open = (await balanceRows(user.id, trainer.id)).filter((b) => b.status === 'active' || b.status === 'refunding');
    expect(open).toHaveLength(1);
  });

  // a defect the review found (fixed): book-from-balance.ts returnToBalance turns a closed balance back to 'active' when a
  // session of it is cancelled, without looking for the newer package bought meanwhile: the user
  // then has two open balances with the trainer (docs/decisions/044-packages-held-in-money.md: one package at a time, one balance
  // per trainer in GET /api/balances), and POST /api/balances/:trainerId/refund refunds only the
  // newest; the older one's money is out of reach until the newer one is used up or refunded.
  it('a session of a refunded package cancelled after a new package was bought: still one balance with the trainer', async () => {
    const { trainer, pkg } = await trainerWithPackage(2, 180);
    const user = await createAccount(t, 'user');
    await buy(user, pkg._id);
    const booking = (await bookFromBalance(user.token, trainer.id, hourFromNow(130))).json().booking as TBooking;
    expect((await refundRest(user.token, trainer.id)).statusCode).toBe(200);
    expect(await balancesOf(user.token)).toEqual([]);
    await buy(user, pkg._id);
    expect((await cancel(t, user.token, booking._id)).statusCode).toBe(200);
    const open = (await balanceRows(user.id, trainer.id)).filter((b) => b.status === 'active' || b.status === 'refunding');
    expect((await balancesOf(user.token)).filter((b) => b.trainerId === trainer.id)).toHaveLength(1);
    expect(open).toHaveLength(1);
  });
});

// last: the payout sweep runs with a clock two days and more ahead
describe('the trainer’s share', () => {
  it('never becomes payable for a cancelled, moved-later or refunded session before its new end', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId: cancelled } = await bookAndPay(t, me.token, trainer.id, hourFromNow(2));
    expect((await cancel(t, trainer.token, cancelled, { reason: 'x' })).statusCode).toBe(200);
    const { bookingId: moved } = await bookAndPay(t, me.token, trainer.id, hourFromNow(30));
    expect((await reschedule(me.token, moved, { startsAt: hourFromNow(300) })).statusCode).toBe(200);
    const due = await dueShares(db, new Date(Date.now() + 3 * 24 * HOUR), POLICY_V1.disputeHours, 10_000);
    expect(due.map((d) => d.bookingId)).not.toContain(cancelled);
    expect(due.map((d) => d.bookingId)).not.toContain(moved);
  });

  // a defect the review found (fixed): payouts.repo.ts pendingShareOf sums only 'payment', 'refund' and 'reversal'
  // transactions, while dueShares also counts 'redeem' and 'unredeem': the sweep
  // (payouts.service.ts makeDueSharesPayable) reads 0 for a session paid from a package and moves
  // nothing, so the trainer is never paid for package sessions; and since such sessions stay in
  // dueShares' first page for ever, 200 of them stop the sweep from reaching any other share.
  it('a session paid from a package becomes payable once the time to dispute it ended, as a card session does', async () => {
    const { trainer, pkg } = await trainerWithPackage(2, 180);
    const user = await createAccount(t, 'user');
    await buy(user, pkg._id);
    const fromBalance = (await bookFromBalance(user.token, trainer.id, hourFromNow(3))).json().booking as TBooking;
    const byCard = (await bookAndPay(t, user.token, trainer.id, hourFromNow(4))).bookingId;
    const service = createPayoutsService({
      db,
      jobs: t.app.jobs,
      log: t.app.log,
      mailer: { send: async () => {} },
      publicUrl: 'http://localhost:3000',
      provider: createDemoProvider(),
      providers: {},
    } as unknown as Parameters<typeof createPayoutsService>[0]);
    const at = new Date(Date.parse(hourFromNow(5)) + 49 * HOUR);
    const due = await dueShares(db, at, POLICY_V1.disputeHours, 10_000);
    expect(due.map((d) => d.bookingId)).toEqual(expect.arrayContaining([fromBalance._id, byCard]));
    await service.makeDueSharesPayable(at);
    expect(await hasTransaction(db, `payable:${byCard}`)).toBe(true);
    expect(await hasTransaction(db, `payable:${fromBalance._id}`)).toBe(true);
    expect(await accountTotal(account.trainerPayable(trainer.id))).toBe(9000 + 8100);
  });
});
