import { and, eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { BOOKING_MSG } from '@spotter/shared';
import {
  accounts,
  bookings,
  jobs,
  ledgerEntries,
  ledgerTransactions,
  paymentEvents,
  payments,
  refunds,
} from '../../src/db/schema';
import { createAccount, useTestApp } from '../helper';
import { bookableTrainer, bookAndPay, cancel, capture, createOrder, hold, hourFromNow } from '../support/bookings';
import { startFakePaypal } from '../support/fake-paypal';

// the ledger behind captures and refunds (docs/decisions/042-money-ledger.md), against the fake PayPal
const paypal = await startFakePaypal();
afterAll(() => paypal.close());
const t = await useTestApp({
  PAYPAL_CLIENT_ID: paypal.clientId,
  PAYPAL_CLIENT_SECRET: paypal.clientSecret,
  PAYPAL_API_BASE: paypal.url,
  PAYPAL_TIMEOUT_MS: '2000',
});
const db = t.database.db;
let hourOffset = 40;
const nextSlot = () => hourFromNow(hourOffset++);

/** A transaction's entries as account → cents. */
async function entriesOf(key: string) {
  const rows = await db
    .select({ account: ledgerEntries.account, amount: ledgerEntries.amountCents, currency: ledgerEntries.currency })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(eq(ledgerTransactions.key, key));
  return Object.fromEntries(rows.map((r) => [r.account, r.amount]));
}
/** What the ledger says was paid on an order, net of refunds: what left the provider's world account. */
async function netPaid(orderId: string) {
  const [row] = await db
    .select({ total: sql<string | null>`-sum(${ledgerEntries.amountCents})` })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(and(eq(ledgerTransactions.providerOrderId, orderId), eq(ledgerEntries.account, 'world:paypal')));
  return Number(row.total ?? 0);
}

describe('the ledger behind a payment', () => {
  it('a capture writes one balanced transaction: the user’s money in, split into the trainer’s share and the fee', async () => {
    const trainer = await bookableTrainer(t, { price: 150 });
    const me = await createAccount(t, 'user');
    const { orderId, capture: answer } = await bookAndPay(t, me.token, trainer.id, nextSlot());
    const captureId = answer.purchase_units[0].payments.captures[0].id;
    const [payment] = await db.select().from(payments).where(eq(payments.providerOrderId, orderId));
    expect(await entriesOf(`capture:paypal:${captureId}`)).toEqual({
      'world:paypal': -15000,
      [`trainer:${trainer.id}:pending`]: 15000 - payment.feeCents,
      'platform:fees': payment.feeCents,
    });
    expect(payment.feeCents).toBeGreaterThan(0);
    expect(await netPaid(orderId)).toBe(15000);
  });

  it('a cancel refunds through one refund row written before the call; the ledger gives it all back', async () => {
    const trainer = await bookableTrainer(t, { price: 180 });
    const me = await createAccount(t, 'user');
    const { bookingId, orderId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(24 * 5));
    expect((await cancel(t, me.token, bookingId)).statusCode).toBe(200);
    const rows = await db.select().from(refunds).where(eq(refunds.bookingId, bookingId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'completed', amountCents: 18000, currency: 'USD' });
    expect(await entriesOf(`refund:${rows[0].id}`)).toMatchObject({ 'world:paypal': 18000, 'platform:fees': expect.any(Number) });
    expect(await netPaid(orderId)).toBe(0);
    expect(paypal.state.ledger.refunds.filter((r) => r.amount === '180.00')).toHaveLength(1);
  });

  it('20 concurrent cancels make one provider refund and one ledger refund', async () => {
    const trainer = await bookableTrainer(t, { price: 195 });
    const me = await createAccount(t, 'user');
    const { bookingId, capture: answer } = await bookAndPay(t, me.token, trainer.id, hourFromNow(24 * 6));
    const captureId = answer.purchase_units[0].payments.captures[0].id;
    const answers = await Promise.all(Array.from({ length: 20 }, () => cancel(t, me.token, bookingId)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.statusCode !== 200)) {
      expect(a.statusCode).toBe(409);
      expect([BOOKING_MSG.cancelInProgress, BOOKING_MSG.alreadyOver]).toContain(a.json().message);
    }
    expect(paypal.state.requests.filter((r) => r.call === 'refund' && r.path.includes(captureId))).toHaveLength(1);
    expect(await db.select().from(refunds).where(eq(refunds.bookingId, bookingId))).toHaveLength(1);
    const refundTx = await db
      .select()
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.bookingId, bookingId), eq(ledgerTransactions.kind, 'refund')));
    expect(refundTx).toHaveLength(1);
  });

  it('a capture of a refunded payment answers its real state: REFUNDED', async () => {
    const trainer = await bookableTrainer(t, { price: 170 });
    const me = await createAccount(t, 'user');
    const { bookingId, orderId } = await bookAndPay(t, me.token, trainer.id, hourFromNow(24 * 7));
    expect((await cancel(t, me.token, bookingId)).statusCode).toBe(200);
    const again = await capture(t, me.token, orderId);
    expect(again.statusCode).toBe(200);
    expect(again.json().purchase_units[0].payments.captures[0].status).toBe('REFUNDED');
    expect(again.json().booking.status).toBe('refunded');
  });
});

describe('one live order per booking, at the price frozen when the slot was held', () => {
  it('a price change between two checkouts gives the same order, and two captures in flight charge once', async () => {
    const trainer = await bookableTrainer(t, { price: 150 });
    const me = await createAccount(t, 'user');
    const bookingId = (await hold(t, me.token, trainer.id, nextSlot())).json().booking._id as string;
    const first = await createOrder(t, me.token, { bookingId });
    await db.update(accounts).set({ priceCents: 20000 }).where(eq(accounts.id, trainer.id));
    const second = await createOrder(t, me.token, { bookingId });
    expect(second.json()).toEqual(first.json());
    expect(second.json().amount).toEqual({ currency_code: 'USD', value: '150.00' });
    const orderId = first.json().id as string;
    const [a, b] = await Promise.all([capture(t, me.token, orderId), capture(t, me.token, orderId)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(paypal.state.ledger.charges.filter((c) => c.orderId === orderId)).toEqual([
      expect.objectContaining({ orderId, amount: '150.00' }),
    ]);
    expect(await db.select().from(payments).where(eq(payments.bookingId, bookingId))).toHaveLength(1);
    expect(await netPaid(orderId)).toBe(15000);
  });
});

describe('an outcome that is not known', () => {
  it('a capture that times out is recorded as unknown, with a job that asks PayPal', async () => {
    const trainer = await bookableTrainer(t, { price: 160 });
    const me = await createAccount(t, 'user');
    const bookingId = (await hold(t, me.token, trainer.id, nextSlot())).json().booking._id as string;
    const orderId = (await createOrder(t, me.token, { bookingId })).json().id as string;
    paypal.failNext('capture', 'server-error');
    expect((await capture(t, me.token, orderId)).statusCode).toBe(502);
    const events = await db.select().from(paymentEvents).where(eq(paymentEvents.providerOrderId, orderId));
    expect(events.map((e) => e.kind)).toEqual(['capture-unknown']);
    const checks = await db.select().from(jobs).where(eq(jobs.kind, 'payment.check-order'));
    expect(checks.some((j) => (j.payload as { orderId: string }).orderId === orderId)).toBe(true);
    // the booking is still the user's to pay meanwhile
    const [row] = await db.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, bookingId));
    expect(row.status).toBe('pending');
  });
});
