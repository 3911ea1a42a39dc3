import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BOOKING_MSG, PAYMENT_MSG } from '@spotter/shared';
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
import { createAccount } from '../helper';
import { bookableTrainer, bookAndPay, cancel, capture, createOrder, hold, hourFromNow } from '../support/bookings';
import { PROVIDER_DOWN, usePaypalApp } from '../support/paypal-app';
import { orderProbes } from './order-probes';

// the ledger behind captures and refunds (docs/decisions/042-money-ledger.md), against the fake PayPal
const { t, paypal } = await usePaypalApp({ env: { PAYPAL_WEBHOOK_ID: 'WH-SPOTTER-TEST' } });
const MINUTE = 60_000;
/** Runs the jobs due by then (the reconciliation's check of an order, a refund's retry). */
const runJobs = (minutesAhead = 2) => t.app.jobs.runDue({ now: new Date(Date.now() + minutesAhead * MINUTE) });
const db = t.database.db;
let hourOffset = 40;
const nextSlot = () => hourFromNow(hourOffset++);
const { statusOf, eventsOf, heldOrder, postWebhook, netPaid, orderWithLostAnswer, completedDelivery } = orderProbes(
  t,
  paypal,
  nextSlot,
);

/** A transaction's entries as account → cents. */
async function entriesOf(key: string) {
  const rows = await db
    .select({ account: ledgerEntries.account, amount: ledgerEntries.amountCents, currency: ledgerEntries.currency })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(eq(ledgerTransactions.key, key));
  return Object.fromEntries(rows.map((r) => [r.account, r.amount]));
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
    // the trainer's earnings say so, as the ledger has it
    const earnings = (await t.app.inject({ url: '/api/payments', headers: { authorization: trainer.token } })).json();
    expect(earnings.totals).toMatchObject({ refunded: 180, pending: 0, payable: 0, paidOut: 0 });
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
    expect(PROVIDER_DOWN).toContain((await capture(t, me.token, orderId)).statusCode);
    const events = await db.select().from(paymentEvents).where(eq(paymentEvents.providerOrderId, orderId));
    expect(events.map((e) => e.kind)).toEqual(['capture-unknown']);
    const checks = await db.select().from(jobs).where(eq(jobs.kind, 'payment.check-order'));
    expect(checks.some((j) => (j.payload as { orderId: string }).orderId === orderId)).toBe(true);
    // the booking is still the user's to pay meanwhile
    const [row] = await db.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, bookingId));
    expect(row.status).toBe('pending');
  });
});

describe('a capture of another amount or currency than the booking’s', () => {
  for (const [what, script, currency, cents] of [
    ['$0.01 for a $150 session', { value: '0.01' }, 'USD', 1],
    ['150 JPY for a $150 session', { currency_code: 'JPY', value: '150' }, 'JPY', 15000],
  ] as const) {
    it(`${what}: refunded in full at once, not booked, the user told why, the event recorded`, async () => {
      const trainer = await bookableTrainer(t, { price: 150 });
      const me = await createAccount(t, 'user');
      const { bookingId, orderId } = await heldOrder(me.token, trainer.id);
      paypal.captureAs(orderId, script);
      const res = await capture(t, me.token, orderId);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'PAYMENT_MISMATCH', message: PAYMENT_MSG.amountMismatch });
      expect(await statusOf(bookingId)).toBe('expired');
      expect(await db.select().from(payments).where(eq(payments.bookingId, bookingId))).toEqual([]);
      // PayPal gave it all back, in the currency it was taken in
      const charge = paypal.state.ledger.charges.find((c) => c.orderId === orderId)!;
      const refunded = paypal.state.ledger.refunds.filter((r) => r.captureId === charge.captureId);
      expect(refunded.map((r) => r.amount)).toEqual([charge.amount]);
      expect((refunded[0] as { currency?: string }).currency).toBe(currency);
      // the ledger held it in suspense and gave it back: nothing stays, nothing counts as paid
      expect(await entriesOf(`capture:paypal:${charge.captureId}`)).toEqual({
        'world:paypal': -cents,
        [`suspense:paypal:${orderId}`]: cents,
      });
      const [refund] = await db.select().from(refunds).where(eq(refunds.providerOrderId, orderId));
      expect(refund).toMatchObject({ status: 'completed', amountCents: cents, currency });
      expect(await eventsOf(orderId)).toEqual(['capture-mismatch']);
      // capturing the order again says the same, and charges nothing
      const again = await capture(t, me.token, orderId);
      expect(again.json()).toMatchObject({ code: 'PAYMENT_MISMATCH', message: PAYMENT_MSG.amountMismatch });
      expect(paypal.state.ledger.charges.filter((c) => c.orderId === orderId)).toHaveLength(1);
      // the slot is free again at once (for anyone else; its user waits as after any ended hold)
      const startsAt = (await db.select().from(bookings).where(eq(bookings.id, bookingId)))[0].startsAt.toISOString();
      const next = await createAccount(t, 'user');
      expect((await hold(t, next.token, trainer.id, startsAt)).statusCode).toBe(201);
    });
  }
});

describe('an outcome that is not known, reconciled', () => {
  it('a capture that succeeds after Spotter’s timeout is found by the job and the booking confirmed', async () => {
    const trainer = await bookableTrainer(t, { price: 140 });
    const me = await createAccount(t, 'user');
    const { bookingId, orderId } = await heldOrder(me.token, trainer.id);
    paypal.failNext('capture', 'slow');
    const first = await capture(t, me.token, orderId);
    expect(first.statusCode).toBe(504);
    expect(first.json().message).toBe(PAYMENT_MSG.captureUnknown);
    expect(await statusOf(bookingId)).toBe('pending');
    await runJobs();
    expect(await statusOf(bookingId)).toBe('confirmed');
    expect(await eventsOf(orderId)).toEqual(['capture-unknown', 'capture-settled']);
    expect(await netPaid(orderId)).toBe(14000);
    expect(paypal.state.ledger.charges.filter((c) => c.orderId === orderId)).toHaveLength(1);
  });

  it('a success after the hold ended and the slot was sold to someone else is refunded in full and both people told', async () => {
    const trainer = await bookableTrainer(t, { price: 130 });
    const me = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    const startsAt = nextSlot();
    const { bookingId, orderId } = await heldOrder(me.token, trainer.id, startsAt);
    paypal.failNext('capture', 'slow');
    expect((await capture(t, me.token, orderId)).statusCode).toBe(504);
    // the hold runs out (as its job would end it) and another user books and pays the slot
    await db.update(bookings).set({ status: 'expired', holdExpiresAt: null }).where(eq(bookings.id, bookingId));
    const resold = await bookAndPay(t, other.token, trainer.id, startsAt);
    expect(resold.capture.status).toBe('COMPLETED');
    const mailsBefore = t.outbox().length;

    await runJobs();
    expect(await statusOf(bookingId)).toBe('expired');
    expect(await statusOf(resold.bookingId)).toBe('confirmed');
    const charge = paypal.state.ledger.charges.find((c) => c.orderId === orderId)!;
    expect(paypal.state.ledger.refunds.filter((r) => r.captureId === charge.captureId).map((r) => r.amount)).toEqual(['130.00']);
    expect(await netPaid(orderId)).toBe(0);
    expect(await eventsOf(orderId)).toEqual(['capture-unknown', 'late-capture-refunded', 'capture-settled']);
    // it was never the trainer's money: their earnings show the resold session only
    const earnings = (await t.app.inject({ url: '/api/payments', headers: { authorization: trainer.token } })).json();
    expect(earnings.payments.map((p: { bookingId: string }) => p.bookingId)).toEqual([resold.bookingId]);
    expect(earnings.totals).toMatchObject({ charged: 130, refunded: 0 });
    // its payer sees the charge and the refund
    const mine = (await t.app.inject({ url: '/api/payments', headers: { authorization: me.token } })).json();
    expect(mine.payments).toEqual([expect.objectContaining({ bookingId, status: 'refunded', amount: 130 })]);
    const told = t
      .outbox()
      .slice(mailsBefore)
      .map((m) => m.to);
    expect(told).toEqual(expect.arrayContaining([me.email]));
    expect(told.length).toBeGreaterThanOrEqual(2);
    // asking for the capture again says what happened
    const again = await capture(t, me.token, orderId);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(PAYMENT_MSG.lateCaptureRefunded);
  });

  it('a PENDING capture is checked until PayPal completes it, then the booking is confirmed', async () => {
    const trainer = await bookableTrainer(t, { price: 125 });
    const me = await createAccount(t, 'user');
    const { bookingId, orderId } = await heldOrder(me.token, trainer.id);
    paypal.captureAs(orderId, { status: 'PENDING' });
    const first = await capture(t, me.token, orderId);
    expect(first.statusCode).toBe(200);
    expect(first.json().purchase_units[0].payments.captures[0].status).toBe('PENDING');
    await runJobs(); // still PENDING: asked again later
    expect(await statusOf(bookingId)).toBe('pending');
    paypal.settleCapture(orderId, 'COMPLETED');
    await runJobs(30);
    expect(await statusOf(bookingId)).toBe('confirmed');
    expect(await netPaid(orderId)).toBe(12500);
  });
});

describe('PayPal webhooks', () => {
  it('a verified PAYMENT.CAPTURE.COMPLETED settles a capture whose answer was lost; a replay changes nothing', async () => {
    const { bookingId, orderId } = await orderWithLostAnswer(135);
    const delivery = completedDelivery(orderId);
    const res = await postWebhook(delivery);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    expect(await statusOf(bookingId)).toBe('confirmed');
    expect(await netPaid(orderId)).toBe(13500);
    const replay = await postWebhook(delivery);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect(await netPaid(orderId)).toBe(13500);
    expect((await eventsOf(orderId)).filter((k) => k === 'webhook')).toHaveLength(1);
  });

  it('a forged or altered delivery is refused and changes nothing', async () => {
    const { bookingId, orderId } = await orderWithLostAnswer(145);
    const good = completedDelivery(orderId);
    const altered = { ...good, body: good.body.replace('145.00', '1.00') };
    const forged = { ...good, headers: { ...good.headers, 'paypal-transmission-sig': Buffer.from('forged').toString('base64') } };
    const otherHook = paypal.webhookDelivery(paypal.captureEvent('PAYMENT.CAPTURE.COMPLETED', orderId), {
      webhookId: 'WH-SOMEONE-ELSE',
    });
    for (const d of [altered, forged, otherHook]) {
      const res = await postWebhook(d);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(PAYMENT_MSG.webhookUnsigned);
    }
    const unsigned = await t.app.inject({ method: 'POST', url: '/api/payments/webhooks/paypal', payload: JSON.parse(good.body) });
    expect(unsigned.statusCode).toBe(400);
    expect(await statusOf(bookingId)).toBe('pending');
    expect(await eventsOf(orderId)).toEqual(['capture-unknown']);
  });
});
