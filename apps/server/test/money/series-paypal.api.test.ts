// A standing weekly series paid session by session by card, through PayPal's Orders v2 contract (the
// local fake of it): the free weeks are held and the others listed before paying, one order pays the
// held weeks, each week is then a session of its own whose cancellation refunds its part to the card;
// PayPal and the ledger agree order by order (docs/product.md#standing-weekly-sessions, weekly-series.ts).
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BOOKING_MSG, PAYMENT_MSG, type TBooking, type TPaymentsResponse, type TSeriesResponse } from '@spotter/shared';
import { bookings, packageBalances, refunds } from '../../src/db/schema';
import { checkLedger } from '../../src/modules/money/ledger-check';
import { createAccount } from '../helper';
import { auth, bookableTrainer, bookAndPay, cancel, capture, createOrder, hold, hourFromNow } from '../support/bookings';
import { usePaypalApp } from '../support/paypal-app';
import { until } from '../support/until';
import { orderProbes } from './order-probes';

const { t, paypal } = await usePaypalApp({ env: { PAYPAL_WEBHOOK_ID: 'WH-SPOTTER-TEST' } });
const db = t.database.db;
const MINUTE = 60_000;
const WEEK = 7 * 24 * 60 * MINUTE;
let jobsAhead = 2;
/** Runs the jobs due a little later each time (the check of an order, a refund's retry). */
const runJobs = () => t.app.jobs.runDue({ now: new Date(Date.now() + jobsAhead++ * MINUTE) });
let hour = 40;
const { ledgerNetByCurrency, paypalNetByCurrency } = orderProbes(t, paypal, () => hourFromNow(hour++));

type Account = Awaited<ReturnType<typeof createAccount>>;

/** A trainer at $100 (UTC, every hour), a user, and the first week's start with its later weeks. */
async function setting() {
  const trainer = await bookableTrainer(t, { price: 100 });
  const me = await createAccount(t, 'user');
  const first = hourFromNow(hour++);
  const week = (k: number) => new Date(Date.parse(first) + k * WEEK).toISOString();
  return { trainer, me, first, week };
}
const holdSeries = (token: string, trainerId: string, startsAt: string, weeks = 4) =>
  t.app.inject({ method: 'POST', url: '/api/bookings', headers: auth(token), payload: { trainerId, startsAt, weeks } });
const seriesRows = (seriesId: string) =>
  db.select().from(bookings).where(eq(bookings.seriesId, seriesId)).orderBy(bookings.startsAt);
const paymentsOf = async (token: string) =>
  (await t.app.inject({ url: '/api/payments', headers: auth(token) })).json() as TPaymentsResponse;

/** Holds the series and orders it; answers the series and its order. */
async function heldSeries(me: Account, trainerId: string, first: string, weeks = 4) {
  const res = await holdSeries(me.token, trainerId, first, weeks);
  expect(res.statusCode).toBe(201);
  const series = res.json() as TSeriesResponse;
  const order = await createOrder(t, me.token, { seriesId: series.seriesId });
  expect(order.statusCode).toBe(200);
  return { series, orderId: order.json().id as string, amount: order.json().amount as { value: string } };
}

describe('a weekly series paid by card', () => {
  it('holds the free weeks and lists the others before paying; one order pays them, each a session of its own', async () => {
    const { trainer, me, first, week } = await setting();
    const other = await createAccount(t, 'user');
    await bookAndPay(t, other.token, trainer.id, week(1));
    const res = await holdSeries(me.token, trainer.id, first);
    expect(res.statusCode).toBe(201);
    const series = res.json() as TSeriesResponse;
    expect(series.unavailable).toEqual([{ startsAt: week(1), reason: 'taken' }]);
    expect(series.bookings.map((b) => [b.startsAt, b.status, b.seriesId])).toEqual(
      [0, 2, 3].map((k) => [week(k), 'pending', series.seriesId]),
    );
    // a week is paid with its series, not alone
    const alone = await createOrder(t, me.token, { bookingId: series.bookings[0]._id });
    expect(alone.statusCode).toBe(409);
    expect(alone.json().message).toBe(BOOKING_MSG.seriesPaidTogether);
    // the three held weeks count as one of the user's holds
    expect((await hold(t, me.token, trainer.id, hourFromNow(hour++))).statusCode).toBe(201);
    expect((await hold(t, me.token, trainer.id, hourFromNow(hour++))).statusCode).toBe(201);
    expect((await hold(t, me.token, trainer.id, hourFromNow(hour++))).statusCode).toBe(409);
    // somebody else can neither order nor capture it
    expect((await createOrder(t, other.token, { seriesId: series.seriesId })).statusCode).toBe(404);

    const order = await createOrder(t, me.token, { seriesId: series.seriesId });
    expect(order.statusCode).toBe(200);
    expect(order.json().amount).toEqual({ currency_code: 'USD', value: '300.00' });
    const again = await createOrder(t, me.token, { seriesId: series.seriesId });
    expect(again.json().id).toBe(order.json().id);
    const orderId = order.json().id as string;
    expect((await capture(t, other.token, orderId)).statusCode).toBe(403);

    const captured = await capture(t, me.token, orderId);
    expect(captured.statusCode).toBe(200);
    const paid = captured.json().bookings as TBooking[];
    expect(paid.map((b) => [b.startsAt, b.status, b.paidFromBalance, b.price, b.seriesId])).toEqual(
      [0, 2, 3].map((k) => [week(k), 'confirmed', false, 100, series.seriesId]),
    );
    expect(captured.json().purchase_units[0].payments.captures[0].amount).toEqual({ currency_code: 'USD', value: '300.00' });
    expect(paypalNetByCurrency(orderId)).toEqual({ USD: 30000 });
    expect(await ledgerNetByCurrency(orderId)).toEqual({ USD: 30000 });
    // a second capture charges nothing and answers the same sessions
    const second = await capture(t, me.token, orderId);
    expect(second.statusCode).toBe(200);
    expect((second.json().bookings as TBooking[]).map((b) => b._id)).toEqual(paid.map((b) => b._id));
    expect(paypalNetByCurrency(orderId)).toEqual({ USD: 30000 });
    // its payment is no package balance to spend
    expect((await t.app.inject({ url: '/api/balances', headers: auth(me.token) })).json().balances).toEqual([]);
    // the user's payments: a row per week, by PayPal; the trainer's earnings: the same three
    const mine = await paymentsOf(me.token);
    const rows = mine.payments.filter((p) => p.orderId === orderId);
    expect(rows.map((p) => [p.startsAt, p.provider, p.amount, p.status]).sort()).toEqual(
      [0, 2, 3].map((k) => [week(k), 'paypal', 100, 'completed']),
    );
    expect(mine.totals).toMatchObject({ charged: 300, refunded: 0 });
    const earned = (await paymentsOf(trainer.token)).payments.filter((p) => p.orderId === orderId);
    expect(earned.map((p) => [p.provider, p.amount, p.fee, p.net])).toEqual(Array(3).fill(['paypal', 100, 10, 90]));
    // the trainer's schedule shows them as one series
    const schedule = (await t.app.inject({ url: '/api/bookings', headers: auth(trainer.token) })).json().bookings as TBooking[];
    expect(schedule.filter((b) => b.seriesId === series.seriesId)).toHaveLength(3);
    expect((await checkLedger({ db })).differences).toEqual([]);
  });

  it('a week cancelled more than 24 hours ahead refunds its part to the card; the others stay', async () => {
    const { trainer, me, first } = await setting();
    const { series, orderId } = await heldSeries(me, trainer.id, first);
    expect((await capture(t, me.token, orderId)).statusCode).toBe(200);
    const res = await cancel(t, me.token, series.bookings[1]._id);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(BOOKING_MSG.refunded);
    expect(res.json().booking.status).toBe('refunded');
    expect(paypalNetByCurrency(orderId)).toEqual({ USD: 30000 });
    expect(await ledgerNetByCurrency(orderId)).toEqual({ USD: 30000 });
    const rows = await seriesRows(series.seriesId);
    expect(rows.map((r) => r.status)).toEqual(['confirmed', 'refunded', 'confirmed', 'confirmed']);
    // the user's row of that week says refunded; the trainer's earnings no longer have it
    const mine = (await paymentsOf(me.token)).payments.filter((p) => p.orderId === orderId);
    expect(mine.filter((p) => p.status === 'refunded').map((p) => [p.bookingId, p.refunded])).toEqual([
      [series.bookings[1]._id, 100],
    ]);
    expect((await paymentsOf(trainer.token)).payments.filter((p) => p.orderId === orderId)).toHaveLength(3);
    // and the trainer cancels another: refunded to the card too
    expect((await cancel(t, trainer.token, series.bookings[3]._id, { reason: 'Away that week' })).statusCode).toBe(200);
    expect(paypalNetByCurrency(orderId)).toEqual({ USD: 20000 });
    expect(await ledgerNetByCurrency(orderId)).toEqual({ USD: 20000 });
    expect((await checkLedger({ db })).differences).toEqual([]);
  });

  it('two weeks cancelled while PayPal does not answer the first refund: the job gives both back, once each', async () => {
    const { trainer, me, first } = await setting();
    const { series, orderId } = await heldSeries(me, trainer.id, first);
    expect((await capture(t, me.token, orderId)).statusCode).toBe(200);
    paypal.failNext('refund', 'server-error');
    expect((await cancel(t, me.token, series.bookings[0]._id)).statusCode).toBe(200);
    expect((await cancel(t, me.token, series.bookings[1]._id)).statusCode).toBe(200);
    await until(async () => {
      await runJobs();
      return paypalNetByCurrency(orderId).USD === 20000 && (await ledgerNetByCurrency(orderId)).USD === 20000;
    }, 'the refund jobs to give both weeks back');
    const [purchase] = await db.select().from(packageBalances).where(eq(packageBalances.providerOrderId, orderId));
    expect(purchase.status).toBe('closed');
    await runJobs();
    expect(paypalNetByCurrency(orderId)).toEqual({ USD: 20000 });
    expect((await checkLedger({ db })).differences).toEqual([]);
  });

  it('a week whose hold ran out and was taken before the payment arrived is refunded; the rest are booked', async () => {
    const { trainer, me, first, week } = await setting();
    const { series, orderId } = await heldSeries(me, trainer.id, first);
    // the second week's hold ran out, and somebody else booked that hour
    await db
      .update(bookings)
      .set({ holdExpiresAt: new Date(Date.now() - MINUTE) })
      .where(eq(bookings.id, series.bookings[1]._id));
    const other = await createAccount(t, 'user');
    await bookAndPay(t, other.token, trainer.id, week(1));
    const captured = await capture(t, me.token, orderId);
    expect(captured.statusCode).toBe(200);
    expect((captured.json().bookings as TBooking[]).map((b) => b.startsAt)).toEqual([0, 2, 3].map(week));
    await until(async () => {
      await runJobs();
      return paypalNetByCurrency(orderId).USD === 30000;
    }, 'the week not held to be refunded');
    expect(await ledgerNetByCurrency(orderId)).toEqual({ USD: 30000 });
    const [r] = await db
      .select()
      .from(refunds)
      .where(and(eq(refunds.providerOrderId, orderId), eq(refunds.status, 'completed')));
    expect(r.amountCents).toBe(10000);
    expect((await checkLedger({ db })).differences).toEqual([]);
  });

  it('no week held any more: nothing is captured', async () => {
    const { trainer, me, first } = await setting();
    const { series, orderId } = await heldSeries(me, trainer.id, first);
    await db
      .update(bookings)
      .set({ holdExpiresAt: new Date(Date.now() - MINUTE) })
      .where(eq(bookings.seriesId, series.seriesId));
    const res = await capture(t, me.token, orderId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'HOLD_EXPIRED', message: BOOKING_MSG.seriesNotHeld });
    expect(paypalNetByCurrency(orderId)).toEqual({});
    const again = await createOrder(t, me.token, { seriesId: series.seriesId });
    expect(again.json()).toMatchObject({ code: 'HOLD_EXPIRED', message: BOOKING_MSG.seriesNotHeld });
  });

  it('a capture whose answer is lost is settled by the check: the weeks are booked', async () => {
    const { trainer, me, first } = await setting();
    const { series, orderId } = await heldSeries(me, trainer.id, first);
    paypal.failNext('capture', 'slow');
    const lost = await capture(t, me.token, orderId);
    expect(lost.statusCode).toBe(504);
    expect(lost.json().message).toBe(PAYMENT_MSG.captureUnknown);
    await until(async () => {
      await runJobs();
      return (await seriesRows(series.seriesId)).every((r) => r.status === 'confirmed');
    }, 'the check to settle the series');
    expect(await ledgerNetByCurrency(orderId)).toEqual(paypalNetByCurrency(orderId));
    expect(paypalNetByCurrency(orderId)).toEqual({ USD: 40000 });
    expect((await checkLedger({ db })).differences).toEqual([]);
  });

  it('a capture of another amount is refunded in full and books nothing', async () => {
    const { trainer, me, first } = await setting();
    const { series, orderId } = await heldSeries(me, trainer.id, first);
    paypal.captureAs(orderId, { value: '0.01' });
    const res = await capture(t, me.token, orderId);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'PAYMENT_MISMATCH', message: PAYMENT_MSG.amountMismatch });
    expect((await seriesRows(series.seriesId)).every((r) => r.status === 'pending')).toBe(true);
    expect(paypalNetByCurrency(orderId)).toEqual({});
    expect(await ledgerNetByCurrency(orderId)).toEqual({});
    expect((await capture(t, me.token, orderId)).statusCode).toBe(422);
    const [{ n }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(packageBalances)
      .where(and(eq(packageBalances.providerOrderId, orderId), eq(packageBalances.status, 'closed')));
    expect(n).toBe(1);
  });

  it('a trainer who leaves: the series’ weeks are cancelled and refunded to the card', async () => {
    const { trainer, me, first } = await setting();
    const { orderId } = await heldSeries(me, trainer.id, first);
    expect((await capture(t, me.token, orderId)).statusCode).toBe(200);
    const gone = await t.app.inject({
      method: 'DELETE',
      url: '/api/trainer',
      headers: auth(trainer.token),
      payload: { password: trainer.password },
    });
    expect(gone.statusCode).toBe(200);
    await until(async () => {
      await runJobs();
      return !paypalNetByCurrency(orderId).USD;
    }, 'every week refunded');
    expect(await ledgerNetByCurrency(orderId)).toEqual({});
    expect((await checkLedger({ db })).differences).toEqual([]);
  });
});
