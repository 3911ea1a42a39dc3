import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PAYMENT_MSG } from '@spotter/shared';
import { bookings, payments } from '../src/db/schema';
import { createAccount } from './helper';
import { bookableTrainer, bookAndPay, cancel, capture, createOrder, hold, hourFromNow } from './support/bookings';
import { usePaypalApp } from './support/paypal-app';

// long enough that a loaded 2-core machine still gets a prompt answer (a 500) in time: 400 ms was not
const TIMEOUT_MS = 2_000;
const { t, paypal } = await usePaypalApp({ timeoutMs: TIMEOUT_MS });
const db = t.database.db;
const trainer = await bookableTrainer(t, { price: 200 });
let hourOffset = 30;
const nextSlot = () => hourFromNow(hourOffset++);

const paymentsOf = (bookingId: string) => db.select().from(payments).where(eq(payments.bookingId, bookingId));
const statusOf = async (id: string) =>
  (await db.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, id)))[0].status;
const captureRequests = (orderId: string) =>
  paypal.state.requests.filter((r) => r.call === 'capture' && r.path.includes(orderId));

async function heldOrder(userToken: string) {
  const bookingId = (await hold(t, userToken, trainer.id, nextSlot())).json().booking._id as string;
  const order = await createOrder(t, userToken, { bookingId });
  expect(order.statusCode).toBe(200);
  return { bookingId, orderId: order.json().id as string };
}

describe('PayPal Orders v2', () => {
  it('config names PayPal and its public client id, never the secret', async () => {
    const res = await t.app.inject('/api/payments/config');
    expect(res.json()).toEqual({ provider: 'paypal', clientId: paypal.clientId, currency: 'USD' });
    expect(res.body).not.toContain(paypal.clientSecret);
  });

  it('creates and captures an order: Basic auth for the token, Bearer and PayPal-Request-Id on every write, one token reused', async () => {
    const me = await createAccount(t, 'user');
    const tokensBefore = paypal.state.tokensIssued;
    const { bookingId, orderId, capture: answer } = await bookAndPay(t, me.token, trainer.id, nextSlot());
    const cap = answer.purchase_units[0].payments.captures[0];
    expect(answer.status).toBe('COMPLETED');
    expect(cap.status).toBe('COMPLETED');
    expect(paypal.state.ledger.charges.filter((c) => c.orderId === orderId)).toEqual([
      { orderId, captureId: cap.id, amount: '200.00' },
    ]);

    const create = paypal.state.requests.find(
      (r) =>
        r.call === 'create' &&
        (r.body as { purchase_units: Array<{ reference_id: string }> }).purchase_units[0].reference_id === bookingId,
    )!;
    expect(create.body).toMatchObject({
      intent: 'CAPTURE',
      purchase_units: [{ amount: { currency_code: 'USD', value: '200.00' } }],
    });
    expect(create.requestId).toBe(`spotter-order-${bookingId}-20000`);
    expect(create.authorization).toMatch(/^Bearer A21AA/);
    expect(captureRequests(orderId)[0].requestId).toBe(`spotter-capture-${orderId}`);
    // the token was fetched at most once for both calls, with client credentials
    expect(paypal.state.tokensIssued - tokensBefore).toBeLessThanOrEqual(1);
    const tokenCall = paypal.state.requests.find((r) => r.call === 'token')!;
    expect(tokenCall.authorization).toBe(`Basic ${Buffer.from(`${paypal.clientId}:${paypal.clientSecret}`).toString('base64')}`);
    expect(tokenCall.body).toBe('grant_type=client_credentials');

    const [payment] = await paymentsOf(bookingId);
    expect(payment).toMatchObject({
      provider: 'paypal',
      providerOrderId: orderId,
      captureId: cap.id,
      amountCents: 20000,
      currency: 'USD',
      status: 'completed',
    });
    expect(payment.raw).toMatchObject({ id: orderId, status: 'COMPLETED', payer: { payer_id: 'FAKEBUYER' } });
    expect(await statusOf(bookingId)).toBe('confirmed');
  });

  it('INSTRUMENT_DECLINED is passed through (422, details, debug_id) so the browser restarts; a later capture works', async () => {
    const me = await createAccount(t, 'user');
    const { bookingId, orderId } = await heldOrder(me.token);
    paypal.failNext('capture', 'decline');
    const res = await capture(t, me.token, orderId);
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.name).toBe('UNPROCESSABLE_ENTITY');
    expect(body.details[0]).toMatchObject({ issue: 'INSTRUMENT_DECLINED' });
    expect(body.details[0].description).toBeTruthy();
    expect(body.debug_id).toMatch(/^[0-9a-f]+$/);
    expect(body.statusCode).toBe(422);
    expect(await statusOf(bookingId)).toBe('pending');
    expect(await paymentsOf(bookingId)).toEqual([]);

    const retry = await capture(t, me.token, orderId);
    expect(retry.statusCode).toBe(200);
    expect(await statusOf(bookingId)).toBe('confirmed');
    expect(paypal.state.ledger.charges.filter((c) => c.orderId === orderId)).toHaveLength(1);
  });

  it('an order the buyer has not approved yet is passed through as PayPal says', async () => {
    const me = await createAccount(t, 'user');
    paypal.setAutoApprove(false);
    try {
      const { bookingId, orderId } = await heldOrder(me.token);
      const res = await capture(t, me.token, orderId);
      expect(res.statusCode).toBe(422);
      expect(res.json().details[0].issue).toBe('ORDER_NOT_APPROVED');
      expect(await statusOf(bookingId)).toBe('pending');
    } finally {
      paypal.setAutoApprove(true);
    }
  });

  it('a 500 from PayPal is a 502 saying we are checking, and nothing is recorded as paid', async () => {
    const me = await createAccount(t, 'user');
    const { bookingId, orderId } = await heldOrder(me.token);
    paypal.failNext('capture', 'server-error');
    const res = await capture(t, me.token, orderId);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ message: PAYMENT_MSG.captureUnknown, statusCode: 502, code: 'PROVIDER_UNAVAILABLE' });
    expect(await statusOf(bookingId)).toBe('pending');
    expect(await paymentsOf(bookingId)).toEqual([]);

    paypal.failNext('create', 'server-error');
    const bookingId2 = (await hold(t, me.token, trainer.id, nextSlot())).json().booking._id;
    const order = await createOrder(t, me.token, { bookingId: bookingId2 });
    expect(order.statusCode).toBe(502);
    // no order, so nothing can have been charged
    expect(order.json().message).toBe(PAYMENT_MSG.providerDown);
  });

  it('a PayPal that does not answer is a 504 after the timeout saying we are checking, and nothing is recorded as paid', async () => {
    const me = await createAccount(t, 'user');
    const { bookingId, orderId } = await heldOrder(me.token);
    paypal.failNext('capture', 'hang');
    const started = Date.now();
    const res = await capture(t, me.token, orderId);
    expect(res.statusCode).toBe(504);
    expect(res.json()).toEqual({ message: PAYMENT_MSG.captureUnknown, statusCode: 504, code: 'PROVIDER_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 5);
    expect(await statusOf(bookingId)).toBe('pending');
    expect(await paymentsOf(bookingId)).toEqual([]);
    expect(paypal.state.ledger.charges.filter((c) => c.orderId === orderId)).toEqual([]);
  });

  it('a capture retried after a timeout charges once: the same PayPal-Request-Id answers the first capture', async () => {
    const me = await createAccount(t, 'user');
    const { bookingId, orderId } = await heldOrder(me.token);
    // PayPal captures the money but its answer comes after our timeout
    paypal.failNext('capture', 'slow');
    const first = await capture(t, me.token, orderId);
    expect(first.statusCode).toBe(504);
    expect(paypal.state.ledger.charges.filter((c) => c.orderId === orderId)).toHaveLength(1);
    expect(await paymentsOf(bookingId)).toEqual([]);

    const retry = await capture(t, me.token, orderId);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().purchase_units[0].payments.captures[0].id).toBe(
      paypal.state.ledger.charges.find((c) => c.orderId === orderId)!.captureId,
    );
    expect(paypal.state.ledger.charges.filter((c) => c.orderId === orderId)).toHaveLength(1);
    const ids = captureRequests(orderId).map((r) => r.requestId);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
    expect(await paymentsOf(bookingId)).toHaveLength(1);
    expect(await statusOf(bookingId)).toBe('confirmed');
  });

  it('cancelling more than 24 h ahead refunds the capture at PayPal, once', async () => {
    const me = await createAccount(t, 'user');
    const { bookingId, capture: answer } = await bookAndPay(t, me.token, trainer.id, nextSlot());
    const captureId = answer.purchase_units[0].payments.captures[0].id;
    const [a, b] = await Promise.all([cancel(t, me.token, bookingId), cancel(t, me.token, bookingId)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const refunds = paypal.state.ledger.refunds.filter((r) => r.captureId === captureId);
    expect(refunds).toEqual([{ captureId, refundId: expect.any(String), amount: '200.00' }]);
    const [payment] = await paymentsOf(bookingId);
    expect(payment).toMatchObject({ status: 'refunded', refundId: refunds[0].refundId });
    expect(await statusOf(bookingId)).toBe('refunded');
  });

  it('a refund PayPal cannot make leaves the booking paid (502)', async () => {
    const me = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, nextSlot());
    paypal.failNext('refund', 'server-error');
    const res = await cancel(t, me.token, bookingId);
    expect(res.statusCode).toBe(502);
    expect(await statusOf(bookingId)).toBe('confirmed');
    expect((await paymentsOf(bookingId))[0].status).toBe('completed');
  });

  it('a token PayPal revoked early is replaced and the call goes through', async () => {
    const me = await createAccount(t, 'user');
    await heldOrder(me.token);
    paypal.revokeTokens();
    const before = paypal.state.tokensIssued;
    // a new booking's order (a second order for the same booking is answered without PayPal)
    await heldOrder(me.token);
    expect(paypal.state.tokensIssued).toBe(before + 1);
  });
});
