// Packages held in money (docs/product.md#packages, packages.ts, book-from-balance.ts): a trainer
// sells sessions in blocks; what a user buys is a balance on the ledger that each session takes an
// equal part of; a cancellation puts it back; the rest is refunded through the provider.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PACKAGE_MSG, type TBalance, type TBooking, type TTrainerPackage } from '@spotter/shared';
import { bookings, ledgerEntries, ledgerTransactions, packageBalances, refunds } from '../../src/db/schema';
import { checkLedger } from '../../src/modules/money/ledger-check';
import { createAccount, useTestApp } from '../helper';
import { auth, bookableTrainer, bookAndPay, cancel, capture, createOrder, hourFromNow, slotsOf } from '../support/bookings';
import { until } from '../support/until';

const t = await useTestApp();
const db = t.database.db;

type Account = Awaited<ReturnType<typeof createAccount>>;

const putPackages = (token: string | undefined, packages: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/trainer/packages', headers: auth(token), payload: { packages } as object });
const profile = async (id: string) => (await t.app.inject(`/api/trainerData/${id}`)).json().trainerData;
const balancesOf = async (token: string) =>
  (await t.app.inject({ url: '/api/balances', headers: auth(token) })).json().balances as TBalance[];
const bookFromBalance = (token: string, trainerId: string, startsAt: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/bookings',
    headers: auth(token),
    payload: { trainerId, startsAt, payWith: 'balance' },
  });
const refundRest = (token: string | undefined, trainerId: string) =>
  t.app.inject({ method: 'POST', url: `/api/balances/${trainerId}/refund`, headers: auth(token) });
const accountTotal = async (acc: string) => {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.account, acc));
  return Number(row.total);
};
const balanceRow = async (userId: string, trainerId: string) =>
  (
    await db
      .select()
      .from(packageBalances)
      .where(and(eq(packageBalances.userId, userId), eq(packageBalances.trainerId, trainerId)))
  ).at(-1)!;

/** A trainer at $100 a session (the lowest price) selling 5 for $400 ($80 each). */
async function trainerWithPackage(sessions = 5, price = 400, extra: { validityMonths?: number | null } = {}) {
  const trainer = await bookableTrainer(t, { price: 100 });
  const res = await putPackages(trainer.token, [{ sessions, price, validityMonths: extra.validityMonths ?? null }]);
  expect(res.statusCode).toBe(200);
  return { trainer, pkg: res.json().packages[0] as TTrainerPackage };
}

/** Orders and captures a package with the demo provider. */
async function buy(user: Account, packageId: string) {
  const order = await createOrder(t, user.token, { packageId });
  expect(order.statusCode).toBe(200);
  const captured = await capture(t, user.token, order.json().id);
  expect(captured.statusCode).toBe(200);
  return { orderId: order.json().id as string, answer: captured.json() };
}

describe('a trainer’s packages', () => {
  it('are set, shown on the profile with the per-session price, and kept when unchanged', async () => {
    const trainer = await bookableTrainer(t, { price: 100 });
    const res = await putPackages(trainer.token, [
      { sessions: 10, price: 700, validityMonths: 6 },
      { sessions: 3, price: 250, validityMonths: null },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: PACKAGE_MSG.saved });
    // cheapest per session first; $250 / 3 is $83.33 a session (rounded down to the cent)
    expect(res.json().packages).toEqual([
      { _id: expect.any(String), sessions: 10, price: 700, perSession: 70, validityMonths: 6 },
      { _id: expect.any(String), sessions: 3, price: 250, perSession: 83.33, validityMonths: null },
    ]);
    await until(async () => (await profile(trainer.id)).packages.length === 2, 'the profile to show the packages');
    const tenId = res.json().packages[0]._id as string;
    // saving one unchanged and one new: the unchanged keeps its id, the other is gone
    const again = await putPackages(trainer.token, [
      { sessions: 10, price: 700, validityMonths: 6 },
      { sessions: 4, price: 360, validityMonths: 1 },
    ]);
    expect(again.statusCode).toBe(200);
    await until(
      async () => (await profile(trainer.id)).packages.some((p: TTrainerPackage) => p.sessions === 4),
      'the new package',
    );
    const now = (await profile(trainer.id)).packages as TTrainerPackage[];
    expect(now.map((p) => [p.sessions, p.price])).toEqual([
      [10, 700],
      [4, 360],
    ]);
    expect(now[0]._id).toBe(tenId);
    expect((await putPackages(trainer.token, [])).statusCode).toBe(200);
    await until(async () => (await profile(trainer.id)).packages.length === 0, 'no packages');
  });

  it('refuses what is not a package, in the product’s words', async () => {
    const trainer = await bookableTrainer(t, { price: 100 });
    const user = await createAccount(t, 'user');
    const notCheaper = await putPackages(trainer.token, [{ sessions: 4, price: 400, validityMonths: null }]);
    expect(notCheaper.statusCode).toBe(400);
    expect(notCheaper.json()).toMatchObject({ errors: { 'packages.0.price': PACKAGE_MSG.notCheaper(400) } });
    for (const bad of [
      [{ sessions: 1, price: 40, validityMonths: null }],
      [{ sessions: 21, price: 40, validityMonths: null }],
      [{ sessions: 5, price: 40.5, validityMonths: null }],
      [{ sessions: 5, price: 0, validityMonths: null }],
      [{ sessions: 5, price: 100, validityMonths: 13 }],
      [{ sessions: 5, price: 100 }],
      Array.from({ length: 4 }, () => ({ sessions: 5, price: 100, validityMonths: null })),
      'five',
    ]) {
      expect((await putPackages(trainer.token, bad)).statusCode).toBe(400);
    }
    expect((await putPackages(user.token, [{ sessions: 5, price: 100, validityMonths: null }])).statusCode).toBe(403);
    expect((await putPackages(undefined, [])).statusCode).toBe(401);
  });
});

describe('buying a package', () => {
  it('through the order and capture path: the money is the user’s balance on the ledger', async () => {
    const { trainer, pkg } = await trainerWithPackage(5, 400, { validityMonths: 3 });
    const user = await createAccount(t, 'user');
    const order = await createOrder(t, user.token, { packageId: pkg._id });
    expect(order.statusCode).toBe(200);
    expect(order.json()).toMatchObject({ amount: { currency_code: 'USD', value: '400.00' } });
    // asking again answers the same order
    expect((await createOrder(t, user.token, { packageId: pkg._id })).json().id).toBe(order.json().id);
    const captured = await capture(t, user.token, order.json().id);
    expect(captured.statusCode).toBe(200);
    expect(captured.json()).toMatchObject({
      status: 'COMPLETED',
      balance: { trainerId: trainer.id, amount: 400, perSession: 80, sessionsLeft: 5, sessions: 5, status: 'active' },
    });
    expect(Date.parse(captured.json().balance.expiresAt)).toBeGreaterThan(Date.now() + 80 * 86_400_000);
    // a repeated capture charges nothing and answers the same
    expect((await capture(t, user.token, order.json().id)).json().balance).toMatchObject({ amount: 400, sessionsLeft: 5 });
    const row = await balanceRow(user.id, trainer.id);
    expect(await accountTotal(`balance:${row.id}`)).toBe(40000);
    expect(await balancesOf(user.token)).toMatchObject([{ trainerId: trainer.id, amount: 400, sessionsLeft: 5 }]);
    // one package at a time
    const second = await createOrder(t, user.token, { packageId: pkg._id });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(PACKAGE_MSG.haveBalance);
    // somebody else's order is not theirs to capture
    const other = await createAccount(t, 'user');
    expect((await capture(t, other.token, order.json().id)).statusCode).toBe(403);
    // a price change later changes nothing bought
    expect((await putPackages(trainer.token, [{ sessions: 5, price: 300, validityMonths: null }])).statusCode).toBe(200);
    expect((await balancesOf(user.token))[0]).toMatchObject({ amount: 400, perSession: 80, sessionsLeft: 5 });
  });

  it('refuses an unknown package, a trainer, a visitor', async () => {
    const { pkg } = await trainerWithPackage();
    const trainer = await createAccount(t, 'trainer');
    expect((await createOrder(t, undefined, { packageId: pkg._id })).statusCode).toBe(401);
    expect((await createOrder(t, trainer.token, { packageId: pkg._id })).statusCode).toBe(403);
    const user = await createAccount(t, 'user');
    expect((await createOrder(t, user.token, { packageId: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await createOrder(t, user.token, { packageId: 'nope' })).statusCode).toBe(404);
    expect((await createOrder(t, user.token, { packageId: pkg._id, bookingId: pkg._id })).statusCode).toBe(400);
    expect((await createOrder(t, user.token, {})).statusCode).toBe(400);
  });
});

describe('sessions from the balance', () => {
  it('a booking paid from it is confirmed at once; each takes an equal part; a cancellation puts it back', async () => {
    const { trainer, pkg } = await trainerWithPackage(3, 250);
    const user = await createAccount(t, 'user');
    await buy(user, pkg._id);
    const slot = hourFromNow(50);
    const res = await bookFromBalance(user.token, trainer.id, slot);
    expect(res.statusCode).toBe(201);
    const booking = res.json().booking as TBooking;
    expect(booking).toMatchObject({
      status: 'confirmed',
      paidFromBalance: true,
      price: 83.33,
      holdExpiresAt: null,
      canCancel: true,
    });
    expect(t.outbox().some((m) => m.to === user.email && m.subject.startsWith('Booked'))).toBe(true);
    expect(await balancesOf(user.token)).toMatchObject([{ amount: 166.67, sessionsLeft: 2 }]);
    await until(async () => !(await slotsOf(t, trainer.id)).includes(slot), 'the slot to be taken');
    // the ledger: the balance paid the trainer's share and the fee
    const [redeem] = await db
      .select()
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.key, `redeem:${booking._id}`));
    expect(redeem.kind).toBe('redeem');
    expect(await accountTotal(`trainer:${trainer.id}:pending`)).toBe(8333 - 833);
    // the trainer's earnings page has a row for it, as the ledger has it
    const earnings = (await t.app.inject({ url: '/api/payments', headers: auth(trainer.token) })).json();
    expect(earnings.payments).toMatchObject([{ bookingId: booking._id, provider: 'package', amount: 83.33, fee: 8.33, net: 75 }]);
    expect(earnings.totals).toMatchObject({ count: 1, charged: 83.33, fees: 8.33, net: 75, pending: 75 });
    expect(await accountTotal(`balance:${(await balanceRow(user.id, trainer.id)).id}`)).toBe(16667);

    // cancelled more than 24 hours ahead: back in the balance, with its session
    const cancelled = await cancel(t, user.token, booking._id);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({
      message: PACKAGE_MSG.returnedToBalance,
      booking: { status: 'cancelled', paidFromBalance: true },
    });
    expect(await balancesOf(user.token)).toMatchObject([{ amount: 250, sessionsLeft: 3 }]);
    // the balance's ledger entries, as its payments page shows them
    expect((await balancesOf(user.token))[0].entries.map((e) => [e.kind, e.amount, e.startsAt])).toEqual([
      ['package', 250, null],
      ['redeem', -83.33, slot],
      ['unredeem', 83.33, slot],
    ]);
    expect(await accountTotal(`trainer:${trainer.id}:pending`)).toBe(0);
    expect((await t.app.inject({ url: '/api/payments', headers: auth(trainer.token) })).json().payments).toEqual([]);
    const mail = t.outbox().find((m) => m.to === user.email && m.subject.startsWith('Cancelled'))!;
    expect(mail.text).toContain('is back in your package balance');

    // the three sessions take 83.33, 83.33 and the last the rest, 83.34: all of it, to the cent
    const taken: number[] = [];
    for (const h of [60, 61, 62])
      taken.push((await bookFromBalance(user.token, trainer.id, hourFromNow(h))).json().booking.price);
    expect(taken).toEqual([83.33, 83.33, 83.34]);
    const row = await balanceRow(user.id, trainer.id);
    expect(await accountTotal(`balance:${row.id}`)).toBe(0);
    expect(await balancesOf(user.token)).toEqual([]);
    const none = await bookFromBalance(user.token, trainer.id, hourFromNow(63));
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(PACKAGE_MSG.balanceUsedUp);
    expect((await checkLedger({ db })).differences).toEqual([]);
  });

  it('the trainer cancels one inside 24 hours: back in the balance too', async () => {
    const { trainer, pkg } = await trainerWithPackage();
    const user = await createAccount(t, 'user');
    await buy(user, pkg._id);
    const booking = (await bookFromBalance(user.token, trainer.id, hourFromNow(5))).json().booking as TBooking;
    expect((await cancel(t, user.token, booking._id)).statusCode).toBe(409);
    const res = await cancel(t, trainer.token, booking._id, { reason: 'Ill' });
    expect(res.statusCode).toBe(200);
    expect(await balancesOf(user.token)).toMatchObject([{ amount: 400, sessionsLeft: 5 }]);
  });

  it('without a balance, with another trainer’s: 409 in the product’s words', async () => {
    const { trainer } = await trainerWithPackage();
    const user = await createAccount(t, 'user');
    const res = await bookFromBalance(user.token, trainer.id, hourFromNow(70));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(PACKAGE_MSG.noBalance);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/bookings',
          headers: auth(user.token),
          payload: { trainerId: trainer.id, startsAt: hourFromNow(70), payWith: 'card' },
        })
      ).statusCode,
    ).toBe(400);
  });

  it('ten bookings at once against a balance that covers three: exactly three, and none below zero', async () => {
    const { trainer, pkg } = await trainerWithPackage(3, 270);
    const user = await createAccount(t, 'user');
    await buy(user, pkg._id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => bookFromBalance(user.token, trainer.id, hourFromNow(80 + i))),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(3);
    expect(answers.filter((r) => r.statusCode === 409)).toHaveLength(7);
    const row = await balanceRow(user.id, trainer.id);
    expect(row.sessionsLeft).toBe(0);
    expect(await accountTotal(`balance:${row.id}`)).toBe(0);
    const paid = await db
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(eq(bookings.balanceId, row.id), eq(bookings.status, 'confirmed')));
    expect(paid).toHaveLength(3);
    expect((await checkLedger({ db })).differences).toEqual([]);
  });
});

describe('refunding the rest', () => {
  it('refunds what no session took through the provider; a session booked stays; a later cancellation can be refunded too', async () => {
    const { trainer, pkg } = await trainerWithPackage(5, 400);
    const user = await createAccount(t, 'user');
    const { orderId } = await buy(user, pkg._id);
    const booking = (await bookFromBalance(user.token, trainer.id, hourFromNow(90))).json().booking as TBooking;
    const res = await refundRest(user.token, trainer.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: PACKAGE_MSG.refunded('$320.00'), refundedAmount: 320 });
    const [refund] = await db.select().from(refunds).where(eq(refunds.providerOrderId, orderId));
    expect(refund).toMatchObject({ status: 'completed', amountCents: 32000, bookingId: null });
    const row = await balanceRow(user.id, trainer.id);
    expect(row.status).toBe('closed');
    expect(await accountTotal(`balance:${row.id}`)).toBe(0);
    expect(await balancesOf(user.token)).toEqual([]);
    expect((await bookFromBalance(user.token, trainer.id, hourFromNow(91))).statusCode).toBe(409);
    const again = await refundRest(user.token, trainer.id);
    expect(again.statusCode).toBe(404);
    // the booked session stays; cancelled, its $80 goes back to the card at once (the balance, closed, is not opened again)
    expect(
      (await t.app.inject({ url: '/api/bookings', headers: auth(user.token) }))
        .json()
        .bookings.find((b: TBooking) => b._id === booking._id).status,
    ).toBe('confirmed');
    expect((await cancel(t, user.token, booking._id)).statusCode).toBe(200);
    expect(await balancesOf(user.token)).toEqual([]);
    const done = await db
      .select()
      .from(refunds)
      .where(and(eq(refunds.providerOrderId, orderId), eq(refunds.status, 'completed')));
    expect(done.map((r) => r.amountCents).sort((a, b) => a - b)).toEqual([8000, 32000]);
    expect((await balanceRow(user.id, trainer.id)).status).toBe('closed');
    expect(await accountTotal(`balance:${row.id}`)).toBe(0);
    const mail = t
      .outbox()
      .filter((m) => m.to === user.email && m.subject.startsWith('Cancelled'))
      .at(-1)!;
    expect(mail.text).toContain('is refunded');
    expect((await checkLedger({ db })).differences).toEqual([]);
  });

  it('nothing to refund, somebody else’s trainer: refused', async () => {
    const { trainer, pkg } = await trainerWithPackage(2, 180);
    const user = await createAccount(t, 'user');
    expect((await refundRest(user.token, trainer.id)).statusCode).toBe(404);
    await buy(user, pkg._id);
    await bookFromBalance(user.token, trainer.id, hourFromNow(100));
    await bookFromBalance(user.token, trainer.id, hourFromNow(101));
    const empty = await refundRest(user.token, trainer.id);
    expect(empty.statusCode).toBe(409);
    expect(empty.json().message).toBe(PACKAGE_MSG.nothingToRefund);
    expect((await refundRest(trainer.token, trainer.id)).statusCode).toBe(403);
    expect((await refundRest(undefined, trainer.id)).statusCode).toBe(401);
  });
});

describe('a trainer who leaves', () => {
  it('every session paid from a balance is cancelled and every balance refunded', async () => {
    const { trainer, pkg } = await trainerWithPackage(4, 360);
    const user = await createAccount(t, 'user');
    const { orderId } = await buy(user, pkg._id);
    const booking = (await bookFromBalance(user.token, trainer.id, hourFromNow(120))).json().booking as TBooking;
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/trainer',
      headers: auth(trainer.token),
      payload: { password: trainer.password },
    });
    expect(del.statusCode).toBe(200);
    await until(async () => {
      await t.app.jobs.runDue();
      const [r] = await db.select().from(refunds).where(eq(refunds.providerOrderId, orderId));
      return r?.status === 'completed';
    }, 'the balance to be refunded');
    const [b] = await db.select().from(bookings).where(eq(bookings.id, booking._id));
    expect(b.status).toBe('cancelled');
    const [r] = await db.select().from(refunds).where(eq(refunds.providerOrderId, orderId));
    expect(r.amountCents).toBe(36000);
    expect((await checkLedger({ db })).differences).toEqual([]);
  });
});

describe('a standing weekly series', () => {
  it('books the free weeks from the balance in one step and lists the others with why', async () => {
    const { trainer, pkg } = await trainerWithPackage(10, 900);
    const user = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    await buy(user, pkg._id);
    const first = hourFromNow(50);
    const week = (k: number) => new Date(Date.parse(first) + k * 7 * 86_400_000).toISOString();
    // somebody else has the second week already
    await bookAndPay(t, other.token, trainer.id, week(1));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: auth(user.token),
      payload: { trainerId: trainer.id, startsAt: first, weeks: 12, payWith: 'balance' },
    });
    expect(res.statusCode).toBe(201);
    const { bookings: series, unavailable } = res.json() as {
      bookings: TBooking[];
      unavailable: Array<{ startsAt: string; reason: string }>;
    };
    // 11 weeks free, 10 sessions in the package: the 12th week is past what it pays for
    expect(series.map((b) => b.startsAt)).toEqual([0, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(week));
    expect(unavailable).toEqual([
      { startsAt: week(1), reason: 'taken' },
      { startsAt: week(11), reason: 'no-balance-left' },
    ]);
    expect(new Set(series.map((b) => b.seriesId)).size).toBe(1);
    expect(series.every((b) => b.status === 'confirmed' && b.paidFromBalance && b.price === 90)).toBe(true);
    expect(await balancesOf(user.token)).toEqual([]);
    // each on its own: one cancelled back to the balance, another moved
    expect((await cancel(t, user.token, series[1]._id)).statusCode).toBe(200);
    expect(await balancesOf(user.token)).toMatchObject([{ amount: 90, sessionsLeft: 1 }]);
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${series[0]._id}/reschedule`,
      headers: auth(user.token),
      payload: { startsAt: new Date(Date.parse(week(0)) + 3_600_000).toISOString() },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().booking.seriesId).toBe(series[0].seriesId);
    expect((await checkLedger({ db })).differences).toEqual([]);
  });

  it('paid from the balance needs a package, 4, 8 or 12 weeks, and a time the trainer offers', async () => {
    const { trainer, pkg } = await trainerWithPackage(4, 360);
    const user = await createAccount(t, 'user');
    const post = (payload: object) => t.app.inject({ method: 'POST', url: '/api/bookings', headers: auth(user.token), payload });
    const noPackage = await post({ trainerId: trainer.id, startsAt: hourFromNow(60), weeks: 4, payWith: 'balance' });
    expect(noPackage.statusCode).toBe(409);
    expect(noPackage.json().message).toBe(PACKAGE_MSG.noBalance);
    await buy(user, pkg._id);
    expect((await post({ trainerId: trainer.id, startsAt: hourFromNow(60), weeks: 5, payWith: 'balance' })).statusCode).toBe(400);
    const half = new Date(Date.parse(hourFromNow(60)) + 30 * 60_000).toISOString();
    expect((await post({ trainerId: trainer.id, startsAt: half, weeks: 4, payWith: 'balance' })).statusCode).toBe(400);
    expect(await balancesOf(user.token)).toMatchObject([{ sessionsLeft: 4 }]);
  });
});

// last: these jobs run with a clock a month ahead
describe('a package’s end date', () => {
  it('14 days before, its user is reminded of what is left; on the day, the rest goes to the trainer and it pays for nothing more', async () => {
    const { trainer, pkg } = await trainerWithPackage(2, 180, { validityMonths: 1 });
    const user = await createAccount(t, 'user');
    const { answer } = await buy(user, pkg._id);
    const expiresAt = Date.parse(answer.balance.expiresAt);
    expect(expiresAt).toBeGreaterThan(Date.now() + 27 * 86_400_000);
    const session = (await bookFromBalance(user.token, trainer.id, hourFromNow(130))).json().booking as TBooking;
    const runJobsAt = async (ms: number) => {
      while ((await t.app.jobs.runDue({ now: new Date(ms) })) > 0);
    };
    const reminders = () => t.outbox().filter((m) => m.to === user.email && m.subject.startsWith('Your package with'));
    await runJobsAt(expiresAt - 15 * 86_400_000);
    expect(reminders()).toEqual([]);
    await runJobsAt(expiresAt - 14 * 86_400_000 + 60_000);
    expect(reminders()).toHaveLength(1);
    expect(reminders()[0].text).toContain('You have 1 session ($90.00) left of your package with');
    expect(reminders()[0].text).toContain('ask for the unused balance back');
    const row = await balanceRow(user.id, trainer.id);
    await runJobsAt(expiresAt + 60_000);
    expect((await balanceRow(user.id, trainer.id)).status).toBe('closed');
    expect(await accountTotal(`balance:${row.id}`)).toBe(0);
    // the rest, $90, to the trainer less the 10 % fee, recorded as an expiry
    const [expired] = await db
      .select()
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.key, `expire:${row.id}`));
    expect(expired.kind).toBe('expire');
    const entries = await db
      .select({ account: ledgerEntries.account, amount: ledgerEntries.amountCents })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.transactionId, expired.id));
    expect(Object.fromEntries(entries.map((e) => [e.account, e.amount]))).toEqual({
      [`balance:${row.id}`]: -9000,
      [`trainer:${trainer.id}:payable`]: 8100,
      'platform:fees': 900,
    });
    expect(await balancesOf(user.token)).toEqual([]);
    expect((await bookFromBalance(user.token, trainer.id, hourFromNow(131))).statusCode).toBe(409);
    expect((await refundRest(user.token, trainer.id)).statusCode).toBe(404);
    // the session booked before stays the user's
    const [kept] = await db.select().from(bookings).where(eq(bookings.id, session._id));
    expect(['confirmed', 'completed']).toContain(kept.status);
    expect(reminders()).toHaveLength(1);
    expect((await checkLedger({ db })).differences).toEqual([]);
  });
});
