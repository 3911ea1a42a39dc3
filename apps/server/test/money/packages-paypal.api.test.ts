// A package bought and refunded through PayPal's Orders v2 contract (the local fake of it): the
// ledger agrees with PayPal order by order, a capture whose answer is lost is reconciled, a capture
// of another amount is refunded, a refund PayPal does not answer is finished by its job
// (docs/product.md#packages, docs/decisions/042-money-ledger.md).
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PACKAGE_MSG, PAYMENT_MSG, type TBalance } from '@spotter/shared';
import { ledgerEntries, ledgerTransactions, packageBalances, paymentEvents, refunds } from '../../src/db/schema';
import { checkLedger } from '../../src/modules/money/ledger-check';
import { createAccount } from '../helper';
import { auth, bookableTrainer, capture, createOrder, hourFromNow } from '../support/bookings';
import { usePaypalApp } from '../support/paypal-app';
import { until } from '../support/until';
import { orderProbes } from './order-probes';

const { t, paypal } = await usePaypalApp({ env: { PAYPAL_WEBHOOK_ID: 'WH-SPOTTER-TEST' } });
const db = t.database.db;
const MINUTE = 60_000;
let jobsAhead = 2;
/** Runs the jobs due a little later each time (the check of an order, a refund's retry). */
const runJobs = () => t.app.jobs.runDue({ now: new Date(Date.now() + jobsAhead++ * MINUTE) });
let hour = 40;
const { ledgerNetByCurrency, paypalNetByCurrency, completedDelivery, postWebhook } = orderProbes(t, paypal, () =>
  hourFromNow(hour++),
);

async function packageOf() {
  const trainer = await bookableTrainer(t, { price: 100 });
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/trainer/packages',
    headers: auth(trainer.token),
    payload: { packages: [{ sessions: 4, price: 360, validityMonths: null }] },
  });
  expect(res.statusCode).toBe(200);
  return { trainer, packageId: res.json().packages[0]._id as string };
}
const balancesOf = async (token: string) =>
  (await t.app.inject({ url: '/api/balances', headers: auth(token) })).json().balances as TBalance[];
const purchaseOf = async (orderId: string) =>
  (await db.select().from(packageBalances).where(eq(packageBalances.providerOrderId, orderId)))[0];

describe('a package through PayPal', () => {
  it('is bought, a session taken, and the rest refunded: PayPal and the ledger agree', async () => {
    const { trainer, packageId } = await packageOf();
    const me = await createAccount(t, 'user');
    const orderId = (await createOrder(t, me.token, { packageId })).json().id as string;
    const captured = await capture(t, me.token, orderId);
    expect(captured.statusCode).toBe(200);
    expect(captured.json().balance).toMatchObject({ amount: 360, sessionsLeft: 4 });
    expect(await ledgerNetByCurrency(orderId)).toEqual({ USD: 36000 });
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: auth(me.token),
      payload: { trainerId: trainer.id, startsAt: hourFromNow(hour++), payWith: 'balance' },
    });
    expect(booked.statusCode).toBe(201);
    const refunded = await t.app.inject({ method: 'POST', url: `/api/balances/${trainer.id}/refund`, headers: auth(me.token) });
    expect(refunded.json()).toEqual({ message: PACKAGE_MSG.refunded('$270.00'), refundedAmount: 270 });
    expect(paypalNetByCurrency(orderId)).toEqual({ USD: 9000 });
    expect(await ledgerNetByCurrency(orderId)).toEqual(paypalNetByCurrency(orderId));
  });

  it('a capture whose answer is lost: recorded, the answer says we are checking, the job settles it', async () => {
    const { packageId } = await packageOf();
    const me = await createAccount(t, 'user');
    const orderId = (await createOrder(t, me.token, { packageId })).json().id as string;
    paypal.failNext('capture', 'slow');
    const lost = await capture(t, me.token, orderId);
    expect(lost.statusCode).toBe(504);
    expect(lost.json().message).toBe(PAYMENT_MSG.captureUnknown);
    expect((await purchaseOf(orderId)).status).toBe('pending');
    const events = await db.select().from(paymentEvents).where(eq(paymentEvents.providerOrderId, orderId));
    expect(events.map((e) => e.kind)).toContain('capture-unknown');
    // PayPal did capture it: the check finds out and the balance is the user's
    await until(async () => {
      await runJobs();
      return (await purchaseOf(orderId)).status === 'active';
    }, 'the check to settle the package');
    expect(await balancesOf(me.token)).toMatchObject([{ amount: 360, sessionsLeft: 4 }]);
    expect(await ledgerNetByCurrency(orderId)).toEqual(paypalNetByCurrency(orderId));
  });

  it('a capture of another amount is refunded in full and buys nothing', async () => {
    const { packageId } = await packageOf();
    const me = await createAccount(t, 'user');
    const orderId = (await createOrder(t, me.token, { packageId })).json().id as string;
    paypal.captureAs(orderId, { value: '0.01' });
    const res = await capture(t, me.token, orderId);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'PAYMENT_MISMATCH', message: PAYMENT_MSG.amountMismatch });
    expect((await purchaseOf(orderId)).status).toBe('closed');
    expect(await balancesOf(me.token)).toEqual([]);
    expect(paypalNetByCurrency(orderId)).toEqual({});
    expect(await ledgerNetByCurrency(orderId)).toEqual({});
  });

  it('a refund PayPal does not answer: the rest stops paying for sessions, and the job finishes it', async () => {
    const { trainer, packageId } = await packageOf();
    const me = await createAccount(t, 'user');
    const orderId = (await createOrder(t, me.token, { packageId })).json().id as string;
    expect((await capture(t, me.token, orderId)).statusCode).toBe(200);
    paypal.failNext('refund', 'server-error');
    const res = await t.app.inject({ method: 'POST', url: `/api/balances/${trainer.id}/refund`, headers: auth(me.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: PACKAGE_MSG.refundStarted, refundedAmount: 360 });
    expect(await balancesOf(me.token)).toMatchObject([{ status: 'refunding', sessionsLeft: 0 }]);
    const meanwhile = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: auth(me.token),
      payload: { trainerId: trainer.id, startsAt: hourFromNow(hour++), payWith: 'balance' },
    });
    expect(meanwhile.statusCode).toBe(409);
    await until(async () => {
      await runJobs();
      const [r] = await db
        .select()
        .from(refunds)
        .where(and(eq(refunds.providerOrderId, orderId), eq(refunds.status, 'completed')));
      return !!r;
    }, 'the refund’s job to finish it');
    expect((await purchaseOf(orderId)).status).toBe('closed');
    expect(paypalNetByCurrency(orderId)).toEqual({});
    expect(await ledgerNetByCurrency(orderId)).toEqual({});
  });
});

describe('PayPal’s webhook for a package', () => {
  it('PAYMENT.CAPTURE.COMPLETED of a package order whose capture answer never came: settled from PayPal’s order', async () => {
    const { packageId } = await packageOf();
    const me = await createAccount(t, 'user');
    const orderId = (await createOrder(t, me.token, { packageId })).json().id as string;
    paypal.failNext('capture', 'slow');
    expect((await capture(t, me.token, orderId)).statusCode).toBe(504);
    expect((await postWebhook(completedDelivery(orderId))).statusCode).toBe(200);
    await until(async () => {
      await t.app.jobs.runDue();
      return (await purchaseOf(orderId)).status === 'active';
    }, 'the webhook’s check to settle the package');
    expect(await ledgerNetByCurrency(orderId)).toEqual(paypalNetByCurrency(orderId));
  });
});

describe('money PayPal gives back by itself from a package', () => {
  it('a refund made in PayPal’s dashboard is booked once: from the balance first, what sessions took from Spotter’s losses', async () => {
    const { trainer, packageId } = await packageOf();
    const me = await createAccount(t, 'user');
    const orderId = (await createOrder(t, me.token, { packageId })).json().id as string;
    expect((await capture(t, me.token, orderId)).statusCode).toBe(200);
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: auth(me.token),
      payload: { trainerId: trainer.id, startsAt: hourFromNow(hour++), payWith: 'balance' },
    });
    expect(booked.statusCode).toBe(201);
    // $300 of the $360 back at PayPal: the $270 left in the balance, and $30 of what the session took
    paypal.refundOutside(orderId, '300.00');
    const delivery = paypal.webhookDelivery(paypal.captureEvent('PAYMENT.CAPTURE.REFUNDED', orderId), {
      webhookId: 'WH-SPOTTER-TEST',
    });
    expect((await postWebhook(delivery)).statusCode).toBe(200);
    expect(await ledgerNetByCurrency(orderId)).toEqual(paypalNetByCurrency(orderId));
    expect(paypalNetByCurrency(orderId)).toEqual({ USD: 6000 });
    expect(await balancesOf(me.token)).toEqual([]);
    expect((await purchaseOf(orderId)).status).toBe('closed');
    const [losses] = await db
      .select({ n: sql<string>`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(and(eq(ledgerEntries.account, 'platform:losses'), eq(ledgerTransactions.providerOrderId, orderId)));
    expect(Number(losses.n)).toBe(-3000);
    // the same event again: nothing more
    expect((await postWebhook(delivery)).statusCode).toBe(200);
    expect(await ledgerNetByCurrency(orderId)).toEqual({ USD: 6000 });
    expect((await checkLedger({ db })).differences).toEqual([]);
  });
});
