// Review of the weekly series paid by card (docs/product.md#standing-weekly-sessions, weekly-series.ts):
// attacks on its money (orders and captures at once, holds released or taken before the capture, a
// price changed, a package balance beside it), its rights, its limits, and what happens to a paid
// week after (cancel, move, release and resale, the trainer leaving), through PayPal's Orders v2
// contract (the local fake). After each scenario the ledger check finds no difference and PayPal's
// net of each order equals the ledger's. Attacks that held stay as regression tests; a test that
// fails shows a defect the review found.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  BOOKING_RULES,
  PAYMENT_MSG,
  type TBalance,
  type TBooking,
  type TPaymentsResponse,
  type TSeriesResponse,
} from '@spotter/shared';
import { accounts, bookings, ledgerTransactions, packageBalances, paymentEvents, refunds } from '../../src/db/schema';
import { account, balance } from '../../src/modules/money';
import { checkLedger } from '../../src/modules/money/ledger-check';
import { orderProbes } from '../money/order-probes';
import { createAccount } from '../helper';
import { auth, bookableTrainer, bookAndPay, cancel, capture, createOrder, hold, hourFromNow } from '../support/bookings';
import { usePaypalApp } from '../support/paypal-app';
import { until } from '../support/until';

const { t, paypal } = await usePaypalApp({ env: { PAYPAL_WEBHOOK_ID: 'WH-SPOTTER-TEST' } });
const db = t.database.db;
const MINUTE = 60_000;
const WEEK = 7 * 24 * 60 * MINUTE;
let hour = 30;
const { ledgerNetByCurrency, paypalNetByCurrency, postWebhook, givenBackDelivery } = orderProbes(t, paypal, () =>
  hourFromNow(hour++),
);

type Account = Awaited<ReturnType<typeof createAccount>>;

/**
 * Runs the jobs due 3 minutes from now (a refund's finish comes 2 minutes after it was written), no
 * further: the holds of the test running (10 minutes) do not run out.
 */
const runJobs = async () => {
  while ((await t.app.jobs.runDue({ now: new Date(Date.now() + 3 * MINUTE) })) > 0);
};

/** A trainer at $100 (UTC, every hour, 1 hour's notice), a user, and the first week's start with its later weeks. */
async function setting(firstInHours?: number) {
  const trainer = await bookableTrainer(t, { price: 100 });
  const me = await createAccount(t, 'user');
  const first = hourFromNow(firstInHours ?? hour++);
  const week = (k: number) => new Date(Date.parse(first) + k * WEEK).toISOString();
  return { trainer, me, first, week };
}
const holdSeries = (token: string | undefined, trainerId: string, startsAt: string, weeks: unknown = 4) =>
  t.app.inject({
    method: 'POST',
    url: '/api/bookings',
    headers: auth(token),
    payload: { trainerId, startsAt, weeks } as object,
  });
const seriesRows = (seriesId: string) =>
  db.select().from(bookings).where(eq(bookings.seriesId, seriesId)).orderBy(bookings.startsAt);
const seriesPurchases = (seriesId: string) => db.select().from(packageBalances).where(eq(packageBalances.seriesId, seriesId));
const paymentsOf = async (token: string) =>
  (await t.app.inject({ url: '/api/payments', headers: auth(token) })).json() as TPaymentsResponse;
const balancesOf = async (token: string) =>
  (await t.app.inject({ url: '/api/balances', headers: auth(token) })).json().balances as TBalance[];
const reschedule = (token: string, id: string, startsAt: string) =>
  t.app.inject({ method: 'POST', url: `/api/bookings/${id}/reschedule`, headers: auth(token), payload: { startsAt } });
const release = (token: string, id: string) =>
  t.app.inject({ method: 'POST', url: `/api/bookings/${id}/release`, headers: auth(token) });
const leave = (trainer: Account) =>
  t.app.inject({ method: 'DELETE', url: '/api/trainer', headers: auth(trainer.token), payload: { password: trainer.password } });
const completedRefundsOf = async (orderId: string) =>
  (
    await db
      .select()
      .from(refunds)
      .where(and(eq(refunds.providerOrderId, orderId), eq(refunds.status, 'completed')))
  ).map((r) => r.amountCents);

/** PayPal's net of the order equals the ledger's, and is `cents`; the ledger check finds nothing. */
async function agrees(orderId: string, cents: number) {
  expect(paypalNetByCurrency(orderId)).toEqual(cents ? { USD: cents } : {});
  expect(await ledgerNetByCurrency(orderId)).toEqual(cents ? { USD: cents } : {});
  expect((await checkLedger({ db })).differences).toEqual([]);
}

/** Waits (running the jobs) until PayPal's net of the order is `cents`. */
async function settlesAt(orderId: string, cents: number, what: string) {
  await until(async () => {
    await runJobs();
    return (paypalNetByCurrency(orderId).USD ?? 0) === cents && ((await ledgerNetByCurrency(orderId)).USD ?? 0) === cents;
  }, what);
}

/** Holds the series; answers it. */
async function held(me: Account, trainerId: string, first: string, weeks = 4) {
  const res = await holdSeries(me.token, trainerId, first, weeks);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as TSeriesResponse;
}

/** Holds the series, orders and captures it; answers the series and its order. */
async function paidSeries(me: Account, trainerId: string, first: string, weeks = 4) {
  const series = await held(me, trainerId, first, weeks);
  const order = await createOrder(t, me.token, { seriesId: series.seriesId });
  expect(order.statusCode, order.body).toBe(200);
  const orderId = order.json().id as string;
  const captured = await capture(t, me.token, orderId);
  expect(captured.statusCode, captured.body).toBe(200);
  return { series, orderId, ids: series.bookings.map((b) => b._id) };
}

/** Every 4xx in the product's words: a JSON message, never a 500. */
function expectWords(res: { statusCode: number; body: string }, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  const body = JSON.parse(res.body) as { message?: unknown };
  expect(typeof body.message).toBe('string');
}

describe('money: nobody pays twice, nobody gets a week without paying, nobody gets more back', () => {
  it('three POST /api/orders { seriesId } at once answer one order (one provider order, one series payment)', async () => {
    const { trainer, me, first } = await setting();
    const series = await held(me, trainer.id, first);
    const answers = await Promise.all([0, 1, 2].map(() => createOrder(t, me.token, { seriesId: series.seriesId })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect((await seriesPurchases(series.seriesId)).length).toBe(1);
    expect(new Set(answers.map((a) => a.json().id as string)).size).toBe(1);
  });

  it('several orders of one series captured at once: the weeks are paid once, every other charge refunded', async () => {
    const { trainer, me, first } = await setting();
    const series = await held(me, trainer.id, first);
    const answers = await Promise.all([0, 1].map(() => createOrder(t, me.token, { seriesId: series.seriesId })));
    const orderIds = [...new Set(answers.map((a) => a.json().id as string))];
    const captured = await Promise.all(orderIds.flatMap((id) => [capture(t, me.token, id), capture(t, me.token, id)]));
    for (const c of captured) expect(c.statusCode).toBeLessThan(500);
    expect((await seriesRows(series.seriesId)).map((r) => r.status)).toEqual(Array(4).fill('confirmed'));
    await until(async () => {
      await runJobs();
      return orderIds.reduce((sum, id) => sum + (paypalNetByCurrency(id).USD ?? 0), 0) === 40000;
    }, 'every charge but one to be refunded');
    for (const id of orderIds) expect(await ledgerNetByCurrency(id)).toEqual(paypalNetByCurrency(id));
    expect((await checkLedger({ db })).differences).toEqual([]);
    // and the card was charged once, not charged twice and refunded
    const charged = paypal.state.ledger.charges.filter((c) => orderIds.includes(c.orderId));
    expect(charged.map((c) => c.amount)).toEqual(['400.00']);
  });

  it('three captures of one order at once charge it once', async () => {
    const { trainer, me, first } = await setting();
    const series = await held(me, trainer.id, first);
    const orderId = (await createOrder(t, me.token, { seriesId: series.seriesId })).json().id as string;
    const answers = await Promise.all([0, 1, 2].map(() => capture(t, me.token, orderId)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect((await seriesRows(series.seriesId)).map((r) => r.status)).toEqual(Array(4).fill('confirmed'));
    await runJobs();
    await agrees(orderId, 40000);
  });

  it('a week the user released before the capture is not paid: its part is refunded at once, the others booked', async () => {
    const { trainer, me, first, week } = await setting();
    const series = await held(me, trainer.id, first);
    const order = await createOrder(t, me.token, { seriesId: series.seriesId });
    expect(order.json().amount.value).toBe('400.00');
    const orderId = order.json().id as string;
    expect((await cancel(t, me.token, series.bookings[1]._id)).statusCode).toBe(200);
    // asking again answers the same order
    expect((await createOrder(t, me.token, { seriesId: series.seriesId })).json().id).toBe(orderId);
    const captured = await capture(t, me.token, orderId);
    expect(captured.statusCode).toBe(200);
    expect((captured.json().bookings as TBooking[]).map((b) => [b.startsAt, b.status])).toEqual(
      [0, 2, 3].map((k) => [week(k), 'confirmed']),
    );
    await settlesAt(orderId, 30000, 'the released week refunded');
    expect(await completedRefundsOf(orderId)).toEqual([10000]);
    await agrees(orderId, 30000);
    // the user's payments: the order's rows add up to what PayPal kept
    const mine = await paymentsOf(me.token);
    const rows = mine.payments.filter((p) => p.orderId === orderId);
    expect(rows.reduce((s, p) => s + p.amount - (p.refunded ?? 0), 0)).toBe(300);
    expect(mine.totals.charged).toBeCloseTo(mine.totals.refunded + mine.totals.fees + mine.totals.net, 2);
  });

  it('a week whose hold ran out before the order (nobody took it) is not paid in place of a week the order was for', async () => {
    const { trainer, me, first, week } = await setting();
    const series = await held(me, trainer.id, first);
    // the first week's hold ran out (its expiry job has not run yet): the order is for the three others
    await db
      .update(bookings)
      .set({ holdExpiresAt: new Date(Date.now() - MINUTE) })
      .where(eq(bookings.id, series.bookings[0]._id));
    const order = await createOrder(t, me.token, { seriesId: series.seriesId });
    expect(order.json().amount.value).toBe('300.00');
    const orderId = order.json().id as string;
    const captured = await capture(t, me.token, orderId);
    expect(captured.statusCode).toBe(200);
    expect(
      (await seriesRows(series.seriesId)).filter((r) => r.status === 'confirmed').map((r) => r.startsAt.toISOString()),
    ).toEqual([1, 2, 3].map(week));
    await agrees(orderId, 30000);
  });

  it('a released week re-held and paid by somebody else before the capture: theirs; the series’ user is refunded its part', async () => {
    const { trainer, me, first, week } = await setting();
    const other = await createAccount(t, 'user');
    const series = await held(me, trainer.id, first);
    const orderId = (await createOrder(t, me.token, { seriesId: series.seriesId })).json().id as string;
    expect((await cancel(t, me.token, series.bookings[1]._id)).statusCode).toBe(200);
    const theirs = await hold(t, other.token, trainer.id, week(1));
    expect(theirs.statusCode).toBe(201);
    // (a single hold is offered 14 days ahead: the second week)
    const captured = await capture(t, me.token, orderId);
    expect(captured.statusCode).toBe(200);
    expect((captured.json().bookings as TBooking[]).map((b) => b.startsAt)).toEqual([0, 2, 3].map(week));
    // the other's hold is still theirs, and they can pay for it
    const otherOrder = await createOrder(t, other.token, { bookingId: theirs.json().booking._id });
    expect(otherOrder.statusCode).toBe(200);
    expect((await capture(t, other.token, otherOrder.json().id)).statusCode).toBe(200);
    await settlesAt(orderId, 30000, 'the week taken by somebody else refunded');
    await agrees(orderId, 30000);
    await agrees(otherOrder.json().id as string, 10000);
  });

  it('a released week re-held (not paid) by somebody else: the capture does not take it from them', async () => {
    const { trainer, me, first, week } = await setting();
    const other = await createAccount(t, 'user');
    const series = await held(me, trainer.id, first);
    const orderId = (await createOrder(t, me.token, { seriesId: series.seriesId })).json().id as string;
    expect((await cancel(t, me.token, series.bookings[0]._id)).statusCode).toBe(200);
    const theirs = await hold(t, other.token, trainer.id, week(0));
    expect(theirs.statusCode).toBe(201);
    expect((await capture(t, me.token, orderId)).statusCode).toBe(200);
    const [row] = await db.select().from(bookings).where(eq(bookings.id, theirs.json().booking._id));
    expect(row.status).toBe('pending');
    expect(row.userId).toBe(other.id);
    await settlesAt(orderId, 30000, 'the week held by somebody else refunded');
    await agrees(orderId, 30000);
  });

  it('the trainer’s price changed after the weeks were held: the order and the weeks are at the held price', async () => {
    const { trainer, me, first } = await setting();
    const series = await held(me, trainer.id, first);
    await db.update(accounts).set({ priceCents: 15000 }).where(eq(accounts.id, trainer.id));
    const order = await createOrder(t, me.token, { seriesId: series.seriesId });
    expect(order.json().amount).toEqual({ currency_code: 'USD', value: '400.00' });
    const orderId = order.json().id as string;
    const captured = await capture(t, me.token, orderId);
    expect(captured.statusCode).toBe(200);
    expect((captured.json().bookings as TBooking[]).map((b) => [b.status, b.price])).toEqual(Array(4).fill(['confirmed', 100]));
    await agrees(orderId, 40000);
    // a week cancelled gives back what it cost, not the new price
    expect((await cancel(t, me.token, series.bookings[3]._id)).statusCode).toBe(200);
    await settlesAt(orderId, 30000, 'the cancelled week refunded at its price');
    await agrees(orderId, 30000);
    const earned = (await paymentsOf(trainer.token)).payments.filter((p) => p.orderId === orderId);
    expect(earned.map((p) => [p.amount, p.fee, p.net])).toEqual(Array(3).fill([100, 10, 90]));
  });

  it('a package balance with the same trainer is left alone by the series, and the series is no balance to spend', async () => {
    const { trainer, me, first, week } = await setting();
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/trainer/packages',
      headers: auth(trainer.token),
      payload: { packages: [{ sessions: 5, price: 400, validityMonths: null }] },
    });
    expect(put.statusCode).toBe(200);
    const pkgOrder = await createOrder(t, me.token, { packageId: put.json().packages[0]._id });
    expect(pkgOrder.statusCode).toBe(200);
    expect((await capture(t, me.token, pkgOrder.json().id)).statusCode).toBe(200);
    const fromPackage = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: auth(me.token),
      payload: { trainerId: trainer.id, startsAt: hourFromNow(hour++), payWith: 'balance' },
    });
    expect(fromPackage.statusCode).toBe(201);
    const [pkg] = await db
      .select()
      .from(packageBalances)
      .where(and(eq(packageBalances.userId, me.id), eq(packageBalances.kind, 'package')));
    expect(pkg.sessionsLeft).toBe(4);

    const { series, orderId } = await paidSeries(me, trainer.id, first);
    expect(series.bookings.every((b) => !b.paidFromBalance)).toBe(true);
    const after = await balancesOf(me.token);
    expect(after.map((b) => [b.sessionsLeft, b.status])).toEqual([[4, 'active']]);
    expect(await balance(db, account.balance(pkg.id))).toBe(32000);
    // a series week cancelled goes to the card, the package keeps its sessions
    const res = await cancel(t, me.token, series.bookings[0]._id);
    expect(res.statusCode).toBe(200);
    await settlesAt(orderId, 30000, 'the series week refunded to the card');
    expect((await balancesOf(me.token)).map((b) => b.sessionsLeft)).toEqual([4]);
    expect(await balance(db, account.balance(pkg.id))).toBe(32000);
    // the package's own session goes back to the package
    expect((await cancel(t, me.token, fromPackage.json().booking._id)).statusCode).toBe(200);
    expect((await balancesOf(me.token)).map((b) => b.sessionsLeft)).toEqual([5]);
    // a series paid from the package still takes the package
    const fromBalance = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: auth(me.token),
      payload: { trainerId: trainer.id, startsAt: week(0), weeks: 4, payWith: 'balance' },
    });
    expect(fromBalance.statusCode, fromBalance.body).toBe(201);
    expect((fromBalance.json() as TSeriesResponse).bookings.every((b) => b.paidFromBalance)).toBe(true);
    // a series paid from the package is no series to pay by card
    const byCard = await createOrder(t, me.token, { seriesId: (fromBalance.json() as TSeriesResponse).seriesId });
    expectWords(byCard, 409);
    expect(byCard.json().code).toBe('ALREADY_PAID');
    await agrees(orderId, 30000);
    await agrees(pkgOrder.json().id as string, 40000);
  });
});

describe('money: more than one payment of a user with a trainer', () => {
  it('two series with one trainer: a week cancelled in each is refunded to its own order', async () => {
    const { trainer, me, first, week } = await setting();
    const a = await paidSeries(me, trainer.id, first);
    const second = new Date(Date.parse(week(0)) + 60 * MINUTE).toISOString();
    const b = await paidSeries(me, trainer.id, second, 8);
    expect((await cancel(t, me.token, a.ids[0])).statusCode).toBe(200);
    expect((await cancel(t, me.token, b.ids[7])).statusCode).toBe(200);
    expect((await cancel(t, trainer.token, b.ids[6])).statusCode).toBe(200);
    await settlesAt(a.orderId, 30000, 'the first series’ week refunded');
    await settlesAt(b.orderId, 60000, 'the second series’ weeks refunded');
    await agrees(a.orderId, 30000);
    await agrees(b.orderId, 60000);
    // no package balance to refund the rest of
    const rest = await t.app.inject({ method: 'POST', url: `/api/balances/${trainer.id}/refund`, headers: auth(me.token) });
    expectWords(rest, 404);
    await agrees(a.orderId, 30000);
    await agrees(b.orderId, 60000);
  });

  it('a capture of another amount refunded: the weeks stay held and a new order pays them once', async () => {
    const { trainer, me, first } = await setting();
    const series = await held(me, trainer.id, first);
    const firstOrder = (await createOrder(t, me.token, { seriesId: series.seriesId })).json().id as string;
    paypal.captureAs(firstOrder, { value: '1.00' });
    expectWords(await capture(t, me.token, firstOrder), 422);
    await settlesAt(firstOrder, 0, 'the wrong amount refunded');
    const again = await createOrder(t, me.token, { seriesId: series.seriesId });
    expect(again.statusCode).toBe(200);
    const secondOrder = again.json().id as string;
    expect(secondOrder).not.toBe(firstOrder);
    expect(again.json().amount.value).toBe('400.00');
    expect((await capture(t, me.token, secondOrder)).statusCode).toBe(200);
    // the first order's capture again: still the mismatch, nothing charged
    expectWords(await capture(t, me.token, firstOrder), 422);
    expect((await seriesRows(series.seriesId)).map((r) => r.status)).toEqual(Array(4).fill('confirmed'));
    await agrees(firstOrder, 0);
    await agrees(secondOrder, 40000);
  });
});

describe('rights', () => {
  it('a visitor, a trainer, another user, ids that are no uuid and weeks not 4, 8 or 12 get their 4xx, never a 500', async () => {
    const { trainer, me, first } = await setting();
    const other = await createAccount(t, 'user');
    const otherTrainer = await bookableTrainer(t, { price: 100 });
    expectWords(await holdSeries(undefined, trainer.id, first), 401);
    expectWords(await holdSeries(otherTrainer.token, trainer.id, first), 403);
    expectWords(await holdSeries(trainer.token, trainer.id, first), 403);
    for (const weeks of [0, 1, 2, 3, 5, 13, 16, -4, 4.5, '4', null, true])
      expectWords(await holdSeries(me.token, trainer.id, first, weeks), 400);

    const series = await held(me, trainer.id, first);
    expectWords(await createOrder(t, undefined, { seriesId: series.seriesId }), 401);
    expectWords(await createOrder(t, trainer.token, { seriesId: series.seriesId }), 403);
    expectWords(await createOrder(t, other.token, { seriesId: series.seriesId }), 404);
    for (const seriesId of ['nope', ' ', "'; drop table bookings; --", '0'.repeat(5000), series.bookings[0]._id]) {
      const res = await createOrder(t, me.token, { seriesId });
      expect([400, 404]).toContain(res.statusCode);
      expectWords(res, res.statusCode);
    }
    expectWords(await createOrder(t, me.token, { seriesId: series.seriesId, bookingId: series.bookings[0]._id }), 400);
    expectWords(await createOrder(t, me.token, { seriesId: 42 }), 400);
    // nobody else releases one of its weeks
    expectWords(await cancel(t, other.token, series.bookings[0]._id), 404);

    const orderId = (await createOrder(t, me.token, { seriesId: series.seriesId })).json().id as string;
    expectWords(await capture(t, other.token, orderId), 403);
    expectWords(await capture(t, trainer.token, orderId), 403);
    expectWords(await capture(t, undefined, orderId), 401);
    expect(paypalNetByCurrency(orderId)).toEqual({});
    expect((await seriesRows(series.seriesId)).map((r) => r.status)).toEqual(Array(4).fill('pending'));
    expect((await capture(t, me.token, orderId)).statusCode).toBe(200);
    // a paid week: nobody else moves, releases or cancels it
    expectWords(await reschedule(other.token, series.bookings[0]._id, hourFromNow(hour++)), 404);
    expectWords(await release(other.token, series.bookings[0]._id), 404);
    expectWords(await cancel(t, other.token, series.bookings[0]._id), 404);
    await agrees(orderId, 40000);
  });
});

describe('limits', () => {
  it('a series is one of the user’s 3 holds: a fourth series or a single hold is refused', async () => {
    const { trainer, me } = await setting();
    const firsts = [hourFromNow(hour++), hourFromNow(hour++), hourFromNow(hour++)];
    for (const f of firsts) expect((await held(me, trainer.id, f, 12)).bookings).toHaveLength(12);
    expectWords(await holdSeries(me.token, trainer.id, hourFromNow(hour++), 12), 409);
    expect((await holdSeries(me.token, trainer.id, hourFromNow(hour++), 4)).json().code).toBe('TOO_MANY_HOLDS');
    expect((await hold(t, me.token, trainer.id, hourFromNow(hour++))).json().code).toBe('TOO_MANY_HOLDS');
    const [{ n }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(bookings)
      .where(and(eq(bookings.userId, me.id), eq(bookings.status, 'pending')));
    expect(n).toBe(3 * 12);
    expect(BOOKING_RULES.maxPendingHolds).toBe(3);
  });

  it('the cooldown is kept: weeks the user released are not theirs again at once, alone or in a new series; others may hold them', async () => {
    const { trainer, me, first, week } = await setting();
    const other = await createAccount(t, 'user');
    const series = await held(me, trainer.id, first);
    for (const b of series.bookings) expect((await cancel(t, me.token, b._id)).statusCode).toBe(200);
    const alone = await hold(t, me.token, trainer.id, week(1));
    expectWords(alone, 409);
    expect(alone.json().code).toBe('HOLD_COOLDOWN');
    const again = await holdSeries(me.token, trainer.id, first);
    expectWords(again, 409);
    expect(again.json().code).toBe('SLOT_TAKEN');
    // a series starting on another hour is fine
    expect((await held(me, trainer.id, hourFromNow(hour++))).bookings).toHaveLength(4);
    expect((await hold(t, other.token, trainer.id, week(1))).statusCode).toBe(201);
    // an order of the released series is no way back to the weeks
    expect((await createOrder(t, me.token, { seriesId: series.seriesId })).json().code).toBe('HOLD_EXPIRED');
  });

  it('a trainer’s buffer between sessions holds across a series and single holds, both ways', async () => {
    const trainer = await bookableTrainer(t, { price: 100, bufferMinutes: 30 });
    const a = await createAccount(t, 'user');
    const b = await createAccount(t, 'user');
    const first = hourFromNow(hour++);
    const at = (k: number, plusHours = 0) => new Date(Date.parse(first) + k * WEEK + plusHours * 60 * MINUTE).toISOString();
    // b holds the hour after a's second week first: that week is not offered to a's series
    expect((await hold(t, b.token, trainer.id, at(1, 1))).statusCode).toBe(201);
    const series = await held(a, trainer.id, first);
    expect(series.unavailable).toEqual([{ startsAt: at(1), reason: 'not-offered' }]);
    // and the hour before a's first week is not offered to b
    expectWords(await hold(t, b.token, trainer.id, at(0, -1)), 400);
  });

  it('captures PayPal refuses do not keep the weeks held past 30 minutes from when they were held, and one capture’s time', async () => {
    const { trainer, me, first } = await setting();
    const series = await held(me, trainer.id, first, 12);
    // the user never approves the order, and asks for its capture again and again
    paypal.setAutoApprove(false);
    let orderId: string;
    // held 29 minutes ago (the most an order keeps them: 30 minutes), still alive a minute more
    const since = new Date(Date.now() - 29 * MINUTE);
    try {
      orderId = (await createOrder(t, me.token, { seriesId: series.seriesId })).json().id as string;
      await db
        .update(bookings)
        .set({ createdAt: since, holdExpiresAt: new Date(Date.now() + MINUTE) })
        .where(eq(bookings.seriesId, series.seriesId));
      for (let i = 0; i < 3; i++) expectWords(await capture(t, me.token, orderId), 422);
    } finally {
      paypal.setAutoApprove(true);
    }
    const rows = await seriesRows(series.seriesId);
    // the order's cap (30 minutes) and one capture's time (5 minutes) at most
    for (const r of rows) expect(r.holdExpiresAt!.getTime()).toBeLessThanOrEqual(since.getTime() + 35 * MINUTE);
    expect(paypalNetByCurrency(orderId)).toEqual({});
  });
});

describe('a paid week after: each way out refunds its price to the card exactly once', () => {
  it('a week cancelled twice at once is refunded once; again later: refused', async () => {
    const { trainer, me, first } = await setting();
    const { orderId, ids } = await paidSeries(me, trainer.id, first);
    const answers = await Promise.all([
      cancel(t, me.token, ids[1]),
      cancel(t, me.token, ids[1]),
      cancel(t, trainer.token, ids[1]),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    expectWords(await cancel(t, me.token, ids[1]), 409);
    await settlesAt(orderId, 30000, 'the cancelled week refunded');
    expect(await completedRefundsOf(orderId)).toEqual([10000]);
    await agrees(orderId, 30000);
  });

  it('a moved week stays paid; cancelled after, its price comes back once', async () => {
    const { trainer, me, first, week } = await setting();
    const { orderId, ids } = await paidSeries(me, trainer.id, first);
    const to = new Date(Date.parse(week(0)) + 2 * 60 * MINUTE).toISOString();
    const moved = await reschedule(me.token, ids[0], to);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().booking).toMatchObject({ startsAt: to, status: 'confirmed', seriesId: expect.any(String) });
    await agrees(orderId, 40000);
    // moved again, then cancelled: once
    const to2 = new Date(Date.parse(week(0)) + 3 * 60 * MINUTE).toISOString();
    expect((await reschedule(me.token, ids[0], to2)).statusCode).toBe(200);
    const res = await cancel(t, me.token, ids[0]);
    expect(res.statusCode).toBe(200);
    await settlesAt(orderId, 30000, 'the moved week refunded');
    await runJobs();
    expect(await completedRefundsOf(orderId)).toEqual([10000]);
    await agrees(orderId, 30000);
    // the user's row of that week says refunded, at its new time
    const mine = (await paymentsOf(me.token)).payments.filter((p) => p.bookingId === ids[0]);
    expect(mine.map((p) => [p.startsAt, p.status, p.refunded])).toEqual([[to2, 'refunded', 100]]);
  });

  it('a week released inside 24 hours and bought by somebody else is refunded to the card once', async () => {
    const { trainer, me, first, week } = await setting(3);
    const buyer = await createAccount(t, 'user');
    const { orderId, ids } = await paidSeries(me, trainer.id, first);
    // not yet inside its 24 hours: the second week cannot be released
    expectWords(await release(me.token, ids[1]), 409);
    const released = await release(me.token, ids[0]);
    expect(released.statusCode, released.body).toBe(200);
    expect(paypalNetByCurrency(orderId)).toEqual({ USD: 40000 });
    const bought = await bookAndPay(t, buyer.token, trainer.id, week(0));
    await settlesAt(orderId, 30000, 'the released week refunded once resold');
    await runJobs();
    expect(await completedRefundsOf(orderId)).toEqual([10000]);
    await agrees(orderId, 30000);
    await agrees(bought.orderId, 10000);
    const [mine] = await db.select().from(bookings).where(eq(bookings.id, ids[0]));
    expect(mine.status).toBe('refunded');
    // the trainer's earnings: three series weeks and the buyer's session
    const earned = (await paymentsOf(trainer.token)).payments;
    expect(earned.filter((p) => p.orderId === orderId)).toHaveLength(3);
    expect(earned.filter((p) => p.orderId === bought.orderId)).toHaveLength(1);
  });

  it('a week released inside 24 hours and bought by somebody else’s series: refunded to the card once', async () => {
    const { trainer, me, first } = await setting(3);
    const buyer = await createAccount(t, 'user');
    const { orderId, ids } = await paidSeries(me, trainer.id, first);
    expect((await release(me.token, ids[0])).statusCode).toBe(200);
    // the buyer's series starts on the released hour
    const theirs = await holdSeries(buyer.token, trainer.id, first);
    expect(theirs.statusCode, theirs.body).toBe(201);
    const series = theirs.json() as TSeriesResponse;
    expect(series.bookings.map((b) => b.startsAt)).toEqual([first]);
    const order = await createOrder(t, buyer.token, { seriesId: series.seriesId });
    expect(order.json().amount.value).toBe('100.00');
    expect((await capture(t, buyer.token, order.json().id)).statusCode).toBe(200);
    await settlesAt(orderId, 30000, 'the released week refunded once resold');
    await runJobs();
    expect(await completedRefundsOf(orderId)).toEqual([10000]);
    await agrees(orderId, 30000);
    await agrees(order.json().id as string, 10000);
  });

  it('the trainer leaving after a week was cancelled and another released: every week refunded exactly once', async () => {
    const { trainer, me, first } = await setting(3);
    const { series, orderId, ids } = await paidSeries(me, trainer.id, first);
    expect((await release(me.token, ids[0])).statusCode).toBe(200);
    expect((await cancel(t, me.token, ids[2])).statusCode).toBe(200);
    await settlesAt(orderId, 30000, 'the cancelled week refunded');
    expect((await leave(trainer)).statusCode).toBe(200);
    await settlesAt(orderId, 0, 'every week refunded');
    await runJobs();
    const back = await completedRefundsOf(orderId);
    expect(back.reduce((a, b) => a + b, 0)).toBe(40000);
    await agrees(orderId, 0);
    expect((await seriesRows(series.seriesId)).map((r) => r.status)).toEqual(Array(4).fill('refunded'));
  });

  it('the trainer leaving while a week’s refund is in flight: each week still refunded once', async () => {
    const { trainer, me, first } = await setting();
    const { orderId, ids } = await paidSeries(me, trainer.id, first);
    paypal.failNext('refund', 'server-error');
    expect((await cancel(t, me.token, ids[1])).statusCode).toBe(200);
    expect((await leave(trainer)).statusCode).toBe(200);
    await settlesAt(orderId, 0, 'every week refunded');
    await runJobs();
    expect((await completedRefundsOf(orderId)).reduce((a, b) => a + b, 0)).toBe(40000);
    await agrees(orderId, 0);
  });
});

describe('the trainer leaving before the money arrives, and money PayPal gives back by itself', () => {
  it('the trainer leaves between the order and the capture: once their leaving is done, nothing is captured', async () => {
    const { trainer, me, first } = await setting();
    const series = await held(me, trainer.id, first);
    const orderId = (await createOrder(t, me.token, { seriesId: series.seriesId })).json().id as string;
    expect((await leave(trainer)).statusCode).toBe(200);
    // the leaving's job (due now; the holds' expiry is 10 minutes away)
    await until(async () => {
      await t.app.jobs.runDue({ now: new Date(Date.now() + 1000) });
      return (await seriesRows(series.seriesId)).every((r) => r.status === 'cancelled');
    }, 'the trainer’s leaving to release the held weeks');
    const res = await capture(t, me.token, orderId);
    expectWords(res, 409);
    expect(paypalNetByCurrency(orderId)).toEqual({});
    expect(paypal.state.ledger.charges.filter((c) => c.orderId === orderId)).toEqual([]);
  });

  it('the trainer leaves and the capture comes before their leaving is done: refunded at once, and the answer says so', async () => {
    const { trainer, me, first } = await setting();
    const series = await held(me, trainer.id, first);
    const orderId = (await createOrder(t, me.token, { seriesId: series.seriesId })).json().id as string;
    expect((await leave(trainer)).statusCode).toBe(200);
    const res = await capture(t, me.token, orderId);
    // whatever the provider did, the money is back and no week is booked ...
    await settlesAt(orderId, 0, 'the capture refunded');
    await agrees(orderId, 0);
    expect((await seriesRows(series.seriesId)).every((r) => r.status !== 'confirmed')).toBe(true);
    // ... and the user is not told their payment completed (a session's capture answers 409 lateCaptureRefunded)
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toBe(PAYMENT_MSG.lateCaptureRefunded);
  });

  it('the trainer leaves while a capture’s answer is lost: the check refunds it all, no week is booked', async () => {
    const { trainer, me, first } = await setting();
    const series = await held(me, trainer.id, first);
    const orderId = (await createOrder(t, me.token, { seriesId: series.seriesId })).json().id as string;
    paypal.failNext('capture', 'slow');
    expect((await capture(t, me.token, orderId)).statusCode).toBe(504);
    expect((await leave(trainer)).statusCode).toBe(200);
    await until(async () => {
      await runJobs();
      const [p] = await seriesPurchases(series.seriesId);
      return p.status === 'closed' && !paypalNetByCurrency(orderId).USD && !(await ledgerNetByCurrency(orderId)).USD;
    }, 'the check to refund the series');
    expect((await seriesRows(series.seriesId)).every((r) => r.status !== 'confirmed')).toBe(true);
    expect(await completedRefundsOf(orderId)).toEqual([40000]);
    await agrees(orderId, 0);
  });

  it('a chargeback of the whole series: its upcoming weeks are cancelled and the trainer’s shares given back, as for a session', async () => {
    const { trainer, me, first } = await setting();
    const { series, orderId } = await paidSeries(me, trainer.id, first);
    const lossesBefore = await balance(db, account.losses);
    paypal.refundOutside(orderId);
    expect((await postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REVERSED', orderId))).statusCode).toBe(200);
    await agrees(orderId, 0);
    expect((await seriesRows(series.seriesId)).map((r) => r.status)).not.toContain('confirmed');
    expect(await balance(db, account.trainerPending(trainer.id))).toBe(0);
    expect(await balance(db, account.losses)).toBe(lossesBefore);
  });

  it('after a chargeback of the whole series, a week cancelled: nothing more given back, the ledger agrees, the user’s payments say it all came back', async () => {
    const { trainer, me, first } = await setting();
    const { series, orderId } = await paidSeries(me, trainer.id, first);
    paypal.refundOutside(orderId);
    expect((await postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REVERSED', orderId))).statusCode).toBe(200);
    const week = (await seriesRows(series.seriesId)).find((r) => r.status === 'confirmed');
    if (week) await cancel(t, me.token, week.id);
    for (let i = 0; i < 3; i++) await runJobs().catch(() => undefined);
    await agrees(orderId, 0);
    const refunded = paypal.state.ledger.refunds.reduce((sum, r) => sum + Math.round(Number(r.amount) * 100), 0);
    expect(refunded).toBeGreaterThan(0);
    const mine = await paymentsOf(me.token);
    expect(mine.payments.filter((p) => p.orderId === orderId).reduce((s, p) => s + p.amount - (p.refunded ?? 0), 0)).toBe(0);
  });
});

describe('a refund made in PayPal’s dashboard of part of a series', () => {
  it('takes back the last week; then every other week cancelled: the user gets back what they paid, no more; Spotter loses nothing', async () => {
    const { trainer, me, first } = await setting();
    const { series, orderId, ids } = await paidSeries(me, trainer.id, first);
    const lossesBefore = await balance(db, account.losses);
    paypal.refundOutside(orderId, '100.00');
    expect((await postWebhook(givenBackDelivery('PAYMENT.CAPTURE.REFUNDED', orderId))).statusCode).toBe(200);
    await agrees(orderId, 30000);
    // the latest week to come is the one given back (docs/decisions/045-weekly-series-paid-by-card.md)
    const after = await seriesRows(series.seriesId);
    expect(after.map((r) => r.status)).toEqual(['confirmed', 'confirmed', 'confirmed', 'refunded']);
    for (const id of ids.slice(0, 3)) expect((await cancel(t, me.token, id)).statusCode).toBe(200);
    expect((await cancel(t, me.token, ids[3])).statusCode).toBe(409);
    await until(async () => {
      await runJobs().catch(() => undefined);
      const asked = await db.select().from(refunds).where(eq(refunds.providerOrderId, orderId));
      return asked.every((r) => r.status !== 'requested') && !paypalNetByCurrency(orderId).USD;
    }, 'every week given back');
    await runJobs().catch(() => undefined);
    await agrees(orderId, 0);
    const [p] = await seriesPurchases(series.seriesId);
    expect(p.status).toBe('closed');
    expect(await balance(db, account.balance(p.id))).toBe(0);
    expect(await balance(db, account.trainerPending(trainer.id))).toBe(0);
    expect(await balance(db, account.losses)).toBe(lossesBefore);
  });
});

describe('payments and earnings rows', () => {
  it('the user’s rows and totals add up and match PayPal; the trainer’s rows are the weeks still to give', async () => {
    const { trainer, me, first } = await setting();
    const { orderId, ids } = await paidSeries(me, trainer.id, first, 8);
    expect((await cancel(t, me.token, ids[3])).statusCode).toBe(200);
    expect((await cancel(t, trainer.token, ids[5], { reason: 'Away' })).statusCode).toBe(200);
    await settlesAt(orderId, 60000, 'two weeks refunded');
    await agrees(orderId, 60000);

    const mine = await paymentsOf(me.token);
    const rows = mine.payments.filter((p) => p.orderId === orderId);
    expect(rows).toHaveLength(8);
    expect(
      rows
        .filter((p) => p.status === 'refunded')
        .map((p) => p.bookingId)
        .sort(),
    ).toEqual([ids[3], ids[5]].sort());
    expect(rows.reduce((s, p) => s + p.amount - (p.refunded ?? 0), 0)).toBe(600);
    expect(rows.every((p) => p.provider === 'paypal' && p.captureId !== '')).toBe(true);
    const tot = mine.totals;
    expect(tot).toMatchObject({ charged: 800, refunded: 200, fees: 0, net: 600 });
    expect(tot.charged).toBeCloseTo(tot.refunded + tot.fees + tot.net, 2);
    expect(mine.upcoming.count).toBe(6);
    expect(mine.upcoming.amount).toBe(600);

    const theirs = await paymentsOf(trainer.token);
    const earned = theirs.payments.filter((p) => p.orderId === orderId);
    expect(earned).toHaveLength(6);
    expect(earned.every((p) => p.amount === 100 && p.fee === 10 && p.net === 90 && p.status === 'completed')).toBe(true);
    expect(theirs.totals).toMatchObject({ charged: 600, fees: 60, net: 540, pending: 540 });
    expect(theirs.totals.charged).toBeCloseTo(theirs.totals.refunded + theirs.totals.fees + theirs.totals.net, 2);
    // the series' payment is no balance of the user's
    expect(await balancesOf(me.token)).toEqual([]);
  });
});

// last: it runs the jobs two days ahead (the shares of every session before become payable)
describe('a dispute about a series’ capture', () => {
  it('is recorded, and while it is open no week’s share becomes payable', async () => {
    const { trainer, me, first } = await setting(3);
    const { orderId, ids } = await paidSeries(me, trainer.id, first);
    const disputeId = `PP-D-${Date.now()}-series`;
    const opened = paypal.webhookDelivery(paypal.disputeEvent('CUSTOMER.DISPUTE.CREATED', orderId, { disputeId }), {
      webhookId: 'WH-SPOTTER-TEST',
    });
    expect((await postWebhook(opened)).statusCode).toBe(200);
    const events = await db
      .select({ kind: paymentEvents.kind })
      .from(paymentEvents)
      .where(eq(paymentEvents.providerOrderId, orderId));
    expect.soft(events.map((e) => e.kind)).toContain('dispute-opened');
    // two days after the first week: its share still pending
    const endsAt = Date.parse(first) + 60 * MINUTE;
    await t.app.jobs.runDue({ now: new Date(endsAt + 48 * 60 * MINUTE) });
    await t.app.jobs.runDue({ now: new Date(endsAt + 48 * 60 * MINUTE + 30 * MINUTE) });
    const kinds = (
      await db.select({ kind: ledgerTransactions.kind }).from(ledgerTransactions).where(eq(ledgerTransactions.bookingId, ids[0]))
    ).map((r) => r.kind);
    expect(kinds).not.toContain('payable');
    expect(await balance(db, account.trainerPending(trainer.id))).toBe(4 * 9000);
  });
});
