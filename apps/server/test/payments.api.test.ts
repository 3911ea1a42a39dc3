import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PAYMENT_MSG } from '@spotter/shared';
import { accounts, bookings } from '../src/db/schema';
import { centsToDecimalString, decimalStringToCents, fromCents, percentOf, toCents } from '../src/lib/money';
import { hasCompletedSession } from '../src/modules/bookings/bookings.service';
import { createAccount, useTestApp } from './helper';
import { auth, bookableTrainer, bookAndPay, cancel, hold, hourFromNow } from './support/bookings';

const t = await useTestApp();
const db = t.database.db;
const HOUR = 60 * 60_000;

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
    expect(earnings.totals).toMatchObject({ count: 3, charged: 599.97, refunded: 199.99, fees: 40, net: 359.98 });
    // and the ledger's (test/money/payouts.api.test.ts): nothing is due before the sessions end
    expect(earnings.totals).toMatchObject({ payable: 0, paidOut: 0 });
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
