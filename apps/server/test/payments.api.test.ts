import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BOOKING_MSG, PAYMENT_MSG, ROLE_MSG } from '@spotter/shared';
import { accounts, bookings, payments } from '../src/db/schema';
import { centsToDecimalString, decimalStringToCents, fromCents, percentOf, toCents } from '../src/lib/money';
import { hasCompletedSession } from '../src/modules/bookings/bookings.service';
import { createAccount, useTestApp } from './helper';
import { auth, bookableTrainer, bookAndPay, cancel, capture, createOrder, hold, hourFromNow } from './support/bookings';

const t = await useTestApp();
const db = t.database.db;
const HOUR = 60 * 60_000;

const paymentsOf = (bookingId: string) => db.select().from(payments).where(eq(payments.bookingId, bookingId));
const bookingRow = async (id: string) => (await db.select().from(bookings).where(eq(bookings.id, id)))[0];

describe('money', () => {
  it('is integer cents with one rounding rule', () => {
    expect(toCents(150)).toBe(15000);
    expect(toCents(1.005)).toBe(101);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(-2.675)).toBe(-268);
    expect(fromCents(12345)).toBe(123.45);
    expect(() => fromCents(1.5)).toThrow();
    expect(centsToDecimalString(15000)).toBe('150.00');
    expect(centsToDecimalString(5)).toBe('0.05');
    expect(decimalStringToCents('150.5')).toBe(15050);
    expect(decimalStringToCents('0.07')).toBe(7);
    expect(percentOf(19999, 10)).toBe(2000);
    expect(percentOf(1995, 10)).toBe(200);
  });
});

describe('GET /api/payments/config', () => {
  it('names the demo provider, labelled, when PayPal is not configured', async () => {
    const res = await t.app.inject('/api/payments/config');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ provider: 'demo', currency: 'USD', label: PAYMENT_MSG.demoLabel });
  });
});

describe('POST /api/orders', () => {
  it('charges the trainer’s price as it is now; amounts, products and carts from the browser are ignored', async () => {
    const trainer = await bookableTrainer(t, { price: 150 });
    const me = await createAccount(t, 'user');
    const bookingId = (await hold(t, me.token, trainer.id, hourFromNow(50))).json().booking._id;
    // the trainer changes their price after the hold: the order uses the new one
    await db.update(accounts).set({ priceCents: 16550 }).where(eq(accounts.id, trainer.id));
    const res = await createOrder(t, me.token, {
      bookingId,
      cart: [{ id: 'hoodie', quantity: 1 }],
      amount: { currency_code: 'USD', value: '0.01' },
      price: 1,
      priceCents: 1,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'CREATED', amount: { currency_code: 'USD', value: '165.50' } });
    expect(res.json().id).toMatch(/^DEMO-/);
    const row = await bookingRow(bookingId);
    expect(row).toMatchObject({ priceCents: 16550, provider: 'demo', providerOrderId: res.json().id });
    // asking again gives the same order
    expect((await createOrder(t, me.token, { bookingId })).json().id).toBe(res.json().id);
    const paid = await capture(t, me.token, res.json().id);
    expect(paid.json().purchase_units[0].payments.captures[0].amount).toEqual({ currency_code: 'USD', value: '165.50' });
    expect((await paymentsOf(bookingId))[0].amountCents).toBe(16550);
  });

  it('an order for someone else’s booking is 403; visitors 401, trainers 403, unknown bookings 404', async () => {
    const trainer = await bookableTrainer(t);
    const owner = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    const bookingId = (await hold(t, owner.token, trainer.id, hourFromNow(55))).json().booking._id;
    const res = await createOrder(t, other.token, { bookingId });
    expect(res.statusCode).toBe(403);
    expect((await bookingRow(bookingId)).providerOrderId).toBeNull();
    const visitor = await createOrder(t, undefined, { bookingId });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().message).toBe(ROLE_MSG.loginToBook);
    const byTrainer = await createOrder(t, trainer.token, { bookingId });
    expect(byTrainer.statusCode).toBe(403);
    expect(byTrainer.json().message).toBe(ROLE_MSG.trainersCantBook);
    for (const id of ['6f1c2b9e-0000-4000-8000-000000000000', 'nope'])
      expect((await createOrder(t, owner.token, { bookingId: id })).statusCode).toBe(404);
    expect((await createOrder(t, owner.token, {})).statusCode).toBe(400);
  });

  it('a paid booking, a released hold or a lapsed hold get no new order (409)', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(60));
    const paid = await createOrder(t, me.token, { bookingId });
    expect(paid.statusCode).toBe(409);
    expect(paid.json().message).toBe(BOOKING_MSG.alreadyPaid);

    const released = (await hold(t, me.token, trainer.id, hourFromNow(61))).json().booking._id;
    await cancel(t, me.token, released);
    expect((await createOrder(t, me.token, { bookingId: released })).json().message).toBe(BOOKING_MSG.holdExpired);

    const lapsed = (await hold(t, me.token, trainer.id, hourFromNow(62))).json().booking._id;
    await db
      .update(bookings)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(bookings.id, lapsed));
    const late = await createOrder(t, me.token, { bookingId: lapsed });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(BOOKING_MSG.holdExpired);
  });
});

describe('POST /api/orders/:orderID/capture', () => {
  it('confirms the booking and stores the payment in one go; the answer has the spec’s shape', async () => {
    const trainer = await bookableTrainer(t, { price: 200 });
    const me = await createAccount(t, 'user');
    const bookingId = (await hold(t, me.token, trainer.id, hourFromNow(70))).json().booking._id;
    const orderId = (await createOrder(t, me.token, { bookingId })).json().id;
    const res = await capture(t, me.token, orderId);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.id).toBe(orderId);
    expect(body.status).toBe('COMPLETED');
    const cap = body.purchase_units[0].payments.captures[0];
    expect(cap.status).toBe('COMPLETED');
    expect(cap.id).toMatch(/^DEMO-CAPTURE-/);
    expect(body.booking).toMatchObject({ _id: bookingId, status: 'confirmed', holdExpiresAt: null });
    expect((await bookingRow(bookingId)).status).toBe('confirmed');
    const [payment] = await paymentsOf(bookingId);
    expect(payment).toMatchObject({
      provider: 'demo',
      providerOrderId: orderId,
      captureId: cap.id,
      amountCents: 20000,
      feeCents: 2000,
      currency: 'USD',
      status: 'completed',
      userId: me.id,
      trainerId: trainer.id,
    });
    expect(payment.raw).toMatchObject({ id: orderId, status: 'COMPLETED' });
  });

  it('a second capture of the same order answers the stored result and charges nothing more', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const { bookingId, orderId, capture: first } = await bookAndPay(t, me.token, trainer.id, hourFromNow(75));
    const [again, concurrentA, concurrentB] = await Promise.all([
      capture(t, me.token, orderId),
      capture(t, me.token, orderId),
      capture(t, me.token, orderId),
    ]);
    for (const res of [again, concurrentA, concurrentB]) {
      expect(res.statusCode).toBe(200);
      expect(res.json().purchase_units[0].payments.captures[0].id).toBe(first.purchase_units[0].payments.captures[0].id);
    }
    expect(await paymentsOf(bookingId)).toHaveLength(1);
  });

  it('concurrent first captures of one order store one payment', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const bookingId = (await hold(t, me.token, trainer.id, hourFromNow(76))).json().booking._id;
    const orderId = (await createOrder(t, me.token, { bookingId })).json().id;
    const results = await Promise.all([0, 1, 2, 3].map(() => capture(t, me.token, orderId)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await paymentsOf(bookingId)).toHaveLength(1);
    expect(t.outbox().filter((m) => m.to === me.email && m.subject.startsWith('Booked'))).toHaveLength(1);
  });

  it('a release racing the capture of its hold: no 5xx, and the money and the booking agree', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    for (let i = 0; i < 12; i++) {
      const bookingId = (await hold(t, me.token, trainer.id, hourFromNow(120 + i))).json().booking._id;
      const orderId = (await createOrder(t, me.token, { bookingId })).json().id;
      const [captured, released] = await Promise.all([capture(t, me.token, orderId), cancel(t, me.token, bookingId)]);
      expect(
        [captured.statusCode, released.statusCode].every((s) => s < 500),
        `${captured.body} ${released.body}`,
      ).toBe(true);
      const { status } = await bookingRow(bookingId);
      const [payment] = await paymentsOf(bookingId);
      // paid and kept, or never paid, or paid and given back
      if (status === 'confirmed') expect(payment?.status).toBe('completed');
      else expect(payment?.status ?? 'none').not.toBe('completed');
    }
  });

  it('only the order’s owner can capture it; unknown orders are 404', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const thief = await createAccount(t, 'user');
    const bookingId = (await hold(t, me.token, trainer.id, hourFromNow(80))).json().booking._id;
    const orderId = (await createOrder(t, me.token, { bookingId })).json().id;
    expect((await capture(t, thief.token, orderId)).statusCode).toBe(403);
    expect((await capture(t, trainer.token, orderId)).statusCode).toBe(403);
    expect((await capture(t, undefined, orderId)).statusCode).toBe(401);
    expect((await capture(t, me.token, 'DEMO-NOSUCHORDER')).statusCode).toBe(404);
    expect((await bookingRow(bookingId)).status).toBe('pending');
    expect(await paymentsOf(bookingId)).toEqual([]);
  });

  it('a hold that lapsed before the capture is not charged (409)', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user');
    const bookingId = (await hold(t, me.token, trainer.id, hourFromNow(85))).json().booking._id;
    const orderId = (await createOrder(t, me.token, { bookingId })).json().id;
    await db
      .update(bookings)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(bookings.id, bookingId));
    const res = await capture(t, me.token, orderId);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(BOOKING_MSG.holdExpired);
    expect(await paymentsOf(bookingId)).toEqual([]);
  });
});

describe('GET /api/payments', () => {
  it('a trainer sees earnings whose totals add up to the rows (10% Starter fee); a user sees what they paid', async () => {
    const trainer = await bookableTrainer(t);
    // sign-up takes whole dollars; cents still have to add up
    await db.update(accounts).set({ priceCents: 19999 }).where(eq(accounts.id, trainer.id));
    const ana = await createAccount(t, 'user', { firstName: 'Ana' });
    const ben = await createAccount(t, 'user', { firstName: 'Ben' });
    const a = await bookAndPay(t, ana.token, trainer.id, hourFromNow(90));
    await bookAndPay(t, ben.token, trainer.id, hourFromNow(91));
    await bookAndPay(t, ana.token, trainer.id, hourFromNow(92));
    expect((await cancel(t, ana.token, a.bookingId)).statusCode).toBe(200);

    const earnings = (await t.app.inject({ url: '/api/payments', headers: auth(trainer.token) })).json();
    expect(earnings.role).toBe('trainer');
    expect(earnings.feePercent).toBe(10);
    expect(earnings.payments).toHaveLength(3);
    expect(earnings.totals).toEqual({ count: 3, charged: 599.97, refunded: 199.99, fees: 40, net: 359.98 });
    const sum = (k: 'amount' | 'fee' | 'net') =>
      Math.round(earnings.payments.reduce((s: number, p: Record<string, number>) => s + p[k] * 100, 0));
    expect(sum('amount')).toBe(59997);
    expect(sum('fee')).toBe(4000);
    expect(sum('net')).toBe(35998);
    expect(earnings.payments.find((p: { bookingId: string }) => p.bookingId === a.bookingId)).toMatchObject({
      status: 'refunded',
      fee: 0,
      net: 0,
      amount: 199.99,
    });
    expect(earnings.upcoming).toMatchObject({ count: 2, amount: 399.98 });
    expect(earnings.payments.map((p: { userFirstName: string }) => p.userFirstName).sort()).toEqual(['Ana', 'Ana', 'Ben']);

    const mine = (await t.app.inject({ url: '/api/payments', headers: auth(ana.token) })).json();
    expect(mine.role).toBe('user');
    expect(mine.payments).toHaveLength(2);
    expect(mine.totals).toEqual({ count: 2, charged: 399.98, refunded: 199.99, fees: 0, net: 199.99 });
    expect(mine.upcoming.count).toBe(1);
    expect((await t.app.inject({ url: '/api/payments' })).statusCode).toBe(401);
  });
});

describe('subscribers and verified sessions', () => {
  it('a profile counts distinct users with a paid booking as subscribers; hasCompletedSession needs a session that is over', async () => {
    const trainer = await bookableTrainer(t);
    const ana = await createAccount(t, 'user');
    const ben = await createAccount(t, 'user');
    const cat = await createAccount(t, 'user');
    const subscribers = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/trainerData/${trainer.id}` })).json().trainerData.subscribers;
    expect(await subscribers()).toBe(0);
    const first = await bookAndPay(t, ana.token, trainer.id, hourFromNow(30));
    await bookAndPay(t, ana.token, trainer.id, hourFromNow(31));
    await bookAndPay(t, ben.token, trainer.id, hourFromNow(32));
    await hold(t, cat.token, trainer.id, hourFromNow(33)); // unpaid: not a subscriber
    expect(await subscribers()).toBe(2);

    const end = (await bookingRow(first.bookingId)).endsAt;
    expect(await hasCompletedSession(db, { userId: ana.id, trainerId: trainer.id })).toBe(false);
    expect(await hasCompletedSession(db, { userId: ana.id, trainerId: trainer.id, now: new Date(end.getTime() + HOUR) })).toBe(
      true,
    );
    expect(
      await hasCompletedSession(db, { userId: cat.id, trainerId: trainer.id, now: new Date(end.getTime() + 10 * HOUR) }),
    ).toBe(false);
    expect(await hasCompletedSession(db, { userId: 'nope', trainerId: trainer.id })).toBe(false);
  });
});
