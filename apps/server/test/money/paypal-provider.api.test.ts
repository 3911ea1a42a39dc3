import { afterAll, describe, expect, it } from 'vitest';
import {
  PaymentRejectedError,
  ProviderUnavailableError,
  type PayoutItemRequest,
} from '../../src/modules/money/providers/payment-provider';
import { createPaypalProvider } from '../../src/modules/money/providers/paypal-provider';
import { startFakePaypal } from '../support/fake-paypal';

// The PayPal adapter against the local fake of PayPal's documented REST contract: GET order,
// Payouts v1 and verify-webhook-signature (docs/decisions/042-money-ledger.md).
const TIMEOUT_MS = 2_000;
const paypal = await startFakePaypal({ slowMs: TIMEOUT_MS * 3 });
afterAll(() => paypal.close());
const provider = createPaypalProvider({
  clientId: paypal.clientId,
  clientSecret: paypal.clientSecret,
  apiBase: paypal.url,
  timeoutMs: TIMEOUT_MS,
});
// only for calls that hang: a short timeout keeps the test quick
const impatient = createPaypalProvider({
  clientId: paypal.clientId,
  clientSecret: paypal.clientSecret,
  apiBase: paypal.url,
  timeoutMs: 300,
});

let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now()}-${n++}`;

async function order(amountCents = 15_000) {
  const created = await provider.createOrder({
    requestId: unique('order'),
    amountCents,
    currency: 'USD',
    description: 'Session with a trainer',
  });
  return created.id;
}
const capture = (orderId: string) => provider.captureOrder({ orderId, requestId: `capture-${orderId}` });
const chargesOf = (orderId: string) => paypal.state.ledger.charges.filter((c) => c.orderId === orderId);
const item = (over: Partial<PayoutItemRequest> = {}): PayoutItemRequest => ({
  senderItemId: unique('payout'),
  email: 'trainer@example.com',
  amountCents: 1_250,
  currency: 'USD',
  note: 'Your share of 1 session',
  ...over,
});
const payoutsOf = (senderBatchId: string) => paypal.state.ledger.payouts.filter((p) => p.senderBatchId === senderBatchId);
const requestsOf = (call: string) => paypal.state.requests.filter((r) => r.call === call);

describe('getOrder: GET /v2/checkout/orders/{id}', () => {
  it('answers the order before its capture, after it, and what was refunded of it', async () => {
    const orderId = await order();
    expect(await provider.getOrder({ orderId })).toMatchObject({
      id: orderId,
      status: 'APPROVED',
      amountCents: 15_000,
      currency: 'USD',
      capture: undefined,
      refundedCents: 0,
    });

    const captured = await capture(orderId);
    const captureId = captured.capture!.id;
    expect(await provider.getOrder({ orderId })).toMatchObject({
      status: 'COMPLETED',
      amountCents: 15_000,
      currency: 'USD',
      capture: { id: captureId, status: 'COMPLETED', amountCents: 15_000, currency: 'USD' },
      refundedCents: 0,
    });

    await provider.refundCapture({ captureId, amountCents: 5_000, currency: 'USD', requestId: unique('refund') });
    expect(await provider.getOrder({ orderId })).toMatchObject({
      status: 'COMPLETED',
      capture: { id: captureId, status: 'PARTIALLY_REFUNDED', amountCents: 15_000 },
      refundedCents: 5_000,
    });
    await provider.refundCapture({ captureId, amountCents: 10_000, currency: 'USD', requestId: unique('refund') });
    expect(await provider.getOrder({ orderId })).toMatchObject({
      capture: { id: captureId, status: 'REFUNDED' },
      refundedCents: 15_000,
    });
    // the fake refunds no more than was captured
    await expect(
      provider.refundCapture({ captureId, amountCents: 1, currency: 'USD', requestId: unique('refund') }),
    ).rejects.toMatchObject({ statusCode: 422, details: [{ issue: 'CAPTURE_FULLY_REFUNDED' }] });
    expect(paypal.state.ledger.refunds.filter((r) => r.captureId === captureId).map((r) => r.amount)).toEqual([
      '50.00',
      '100.00',
    ]);
  });

  it('passes on a capture of $0.01 as PayPal states it, and the fake records what it charged', async () => {
    const orderId = await order();
    paypal.captureAs(orderId, { value: '0.01' });
    const captured = await capture(orderId);
    expect(captured.capture).toMatchObject({ status: 'COMPLETED', amountCents: 1, currency: 'USD' });
    expect(await provider.getOrder({ orderId })).toMatchObject({
      amountCents: 15_000,
      currency: 'USD',
      capture: { amountCents: 1, currency: 'USD' },
    });
    expect(chargesOf(orderId)).toEqual([{ orderId, captureId: captured.capture!.id, amount: '0.01' }]);
    expect(chargesOf(orderId)[0].currency).toBe('USD');
  });

  it('passes on a capture in another currency (150 JPY for a $150 order)', async () => {
    const orderId = await order();
    paypal.captureAs('next', { currency_code: 'JPY', value: '150' });
    const captured = await capture(orderId);
    expect(captured.capture).toMatchObject({ currency: 'JPY', amountCents: 15_000 });
    expect(await provider.getOrder({ orderId })).toMatchObject({
      amountCents: 15_000,
      currency: 'USD',
      capture: { currency: 'JPY', amountCents: 15_000 },
    });
    expect(chargesOf(orderId)[0]).toMatchObject({ amount: '150' });
    expect(chargesOf(orderId)[0].currency).toBe('JPY');
    // a refund in the order's currency is refused, as PayPal does; in the capture's it goes through
    const captureId = captured.capture!.id;
    await expect(
      provider.refundCapture({ captureId, amountCents: 15_000, currency: 'USD', requestId: unique('refund') }),
    ).rejects.toMatchObject({ statusCode: 422, details: [{ issue: 'CURRENCY_MISMATCH' }] });
    await provider.refundCapture({ captureId, amountCents: 15_000, currency: 'JPY', requestId: unique('refund') });
    expect(await provider.getOrder({ orderId })).toMatchObject({ capture: { status: 'REFUNDED' }, refundedCents: 15_000 });
    // 'next' was used up: the following capture charges the order's amount
    const other = await order(2_000);
    expect((await capture(other)).capture).toMatchObject({ amountCents: 2_000, currency: 'USD' });
  });

  it('shows a capture that answered after the timeout as COMPLETED', async () => {
    const orderId = await order();
    paypal.failNext('capture', 'slow');
    await expect(capture(orderId)).rejects.toMatchObject({ name: 'ProviderUnavailableError', reason: 'timeout' });
    const now = await provider.getOrder({ orderId });
    expect(now).toMatchObject({ status: 'COMPLETED', capture: { status: 'COMPLETED', amountCents: 15_000 } });
    expect(now.capture!.id).toBe(chargesOf(orderId)[0].captureId);
  });

  it('an unknown order is a refusal (404), a 5xx or a timeout is unavailability', async () => {
    await expect(provider.getOrder({ orderId: 'NO-SUCH-ORDER' })).rejects.toMatchObject({
      name: 'PaymentRejectedError',
      statusCode: 404,
    });
    const orderId = await order();
    paypal.failNext('getOrder', 'server-error');
    await expect(provider.getOrder({ orderId })).rejects.toBeInstanceOf(ProviderUnavailableError);
    paypal.failNext('getOrder', 'hang');
    await expect(impatient.getOrder({ orderId })).rejects.toMatchObject({ reason: 'timeout' });
    expect((await provider.getOrder({ orderId })).status).toBe('APPROVED');
  });
});

describe('Payouts v1: POST /v1/payments/payouts and GET /v1/payments/payouts/{id}', () => {
  it('sends the batch as PayPal documents it, with sender_batch_id and PayPal-Request-Id both the batch id', async () => {
    const senderBatchId = unique('batch');
    const one = item({ amountCents: 1_250 });
    const two = item({ email: 'other.trainer@example.com', amountCents: 9_999 });
    const batch = await provider.createPayoutBatch({ senderBatchId, items: [one, two] });
    expect(batch).toMatchObject({ batchId: expect.any(String), status: 'PENDING' });
    const sent = requestsOf('payout').at(-1)!;
    expect(sent.requestId).toBe(senderBatchId);
    expect(sent.body).toMatchObject({
      sender_batch_header: { sender_batch_id: senderBatchId },
      items: [
        {
          recipient_type: 'EMAIL',
          receiver: 'trainer@example.com',
          amount: { value: '12.50', currency: 'USD' },
          sender_item_id: one.senderItemId,
        },
        {
          recipient_type: 'EMAIL',
          receiver: 'other.trainer@example.com',
          amount: { value: '99.99', currency: 'USD' },
          sender_item_id: two.senderItemId,
        },
      ],
    });
    expect(payoutsOf(senderBatchId)).toEqual([
      expect.objectContaining({ batchId: batch.batchId, senderItemId: one.senderItemId, amount: '12.50', status: 'PENDING' }),
      expect.objectContaining({ batchId: batch.batchId, senderItemId: two.senderItemId, amount: '99.99', status: 'PENDING' }),
    ]);

    expect(await provider.getPayoutBatch({ batchId: batch.batchId })).toMatchObject({
      batchId: batch.batchId,
      status: 'SUCCESS',
      items: [
        { senderItemId: one.senderItemId, itemId: expect.any(String), status: 'SUCCESS' },
        { senderItemId: two.senderItemId, itemId: expect.any(String), status: 'SUCCESS' },
      ],
    });
    expect(payoutsOf(senderBatchId).map((p) => p.status)).toEqual(['SUCCESS', 'SUCCESS']);
  });

  it('a batch sent twice with the same senderBatchId pays once: both answers name the same batch', async () => {
    const senderBatchId = unique('batch');
    const items = [item()];
    const first = await provider.createPayoutBatch({ senderBatchId, items });
    const again = await provider.createPayoutBatch({ senderBatchId, items });
    expect(again.batchId).toBe(first.batchId);
    expect(payoutsOf(senderBatchId)).toHaveLength(1);
  });

  it('once PayPal no longer knows the request id, its refusal of the repeated sender_batch_id answers the first batch', async () => {
    const senderBatchId = unique('batch');
    const items = [item()];
    const first = await provider.createPayoutBatch({ senderBatchId, items });
    paypal.forgetRequestIds();
    const posts = requestsOf('payout').length;
    const again = await provider.createPayoutBatch({ senderBatchId, items });
    expect(requestsOf('payout')).toHaveLength(posts + 1);
    expect(again).toMatchObject({
      batchId: first.batchId,
      status: 'SUCCESS',
      items: [{ senderItemId: items[0].senderItemId, status: 'SUCCESS' }],
    });
    expect(payoutsOf(senderBatchId)).toHaveLength(1);
  });

  it('a batch PayPal created but answered after the timeout is paid once when sent again', async () => {
    const senderBatchId = unique('batch');
    const items = [item()];
    paypal.failNext('payout', 'slow');
    await expect(provider.createPayoutBatch({ senderBatchId, items })).rejects.toMatchObject({ reason: 'timeout' });
    expect(payoutsOf(senderBatchId)).toHaveLength(1);
    const again = await provider.createPayoutBatch({ senderBatchId, items });
    expect(again.batchId).toBe(payoutsOf(senderBatchId)[0].batchId);
    expect(payoutsOf(senderBatchId)).toHaveLength(1);
  });

  it('shows an item UNCLAIMED when PayPal could not pay it, then RETURNED', async () => {
    const senderBatchId = unique('batch');
    const email = `${unique('nobody')}@example.com`;
    const paid = item();
    const unclaimed = item({ email });
    paypal.payoutItemStatus(email, 'UNCLAIMED');
    const batch = await provider.createPayoutBatch({ senderBatchId, items: [paid, unclaimed] });
    expect(await provider.getPayoutBatch({ batchId: batch.batchId })).toMatchObject({
      status: 'SUCCESS',
      items: [
        { senderItemId: paid.senderItemId, status: 'SUCCESS' },
        { senderItemId: unclaimed.senderItemId, status: 'UNCLAIMED' },
      ],
    });
    expect(payoutsOf(senderBatchId).map((p) => p.status)).toEqual(['SUCCESS', 'UNCLAIMED']);
    paypal.payoutItemStatus(unclaimed.senderItemId, 'RETURNED');
    expect((await provider.getPayoutBatch({ batchId: batch.batchId })).items[1]).toMatchObject({ status: 'RETURNED' });
  });

  it('a batch still being processed is PROCESSING with its item PENDING', async () => {
    const one = item();
    paypal.payoutItemStatus(one.senderItemId, 'PENDING');
    const batch = await provider.createPayoutBatch({ senderBatchId: unique('batch'), items: [one] });
    expect(await provider.getPayoutBatch({ batchId: batch.batchId })).toMatchObject({
      status: 'PROCESSING',
      items: [{ status: 'PENDING' }],
    });
    paypal.payoutItemStatus(one.senderItemId, 'FAILED');
    expect(await provider.getPayoutBatch({ batchId: batch.batchId })).toMatchObject({
      status: 'SUCCESS',
      items: [{ status: 'FAILED' }],
    });
  });

  it('reads every page of a large batch', async () => {
    const items = Array.from({ length: 1_001 }, (_, i) => item({ senderItemId: `big-${n}-${i}`, amountCents: 100 }));
    const batch = await provider.createPayoutBatch({ senderBatchId: unique('batch'), items });
    const read = await provider.getPayoutBatch({ batchId: batch.batchId });
    expect(read.items).toHaveLength(1_001);
    expect(new Set(read.items.map((i) => i.senderItemId)).size).toBe(1_001);
  });

  it('a batch PayPal refuses is a refusal and pays nothing; a 5xx is unavailability', async () => {
    const refused = unique('batch');
    await expect(
      provider.createPayoutBatch({ senderBatchId: refused, items: [item({ email: 'not-an-address' })] }),
    ).rejects.toMatchObject({
      name: 'PaymentRejectedError',
      statusCode: 400,
      providerName: 'VALIDATION_ERROR',
    });
    await expect(
      provider.createPayoutBatch({ senderBatchId: refused, items: [item({ amountCents: 0 })] }),
    ).rejects.toBeInstanceOf(PaymentRejectedError);
    paypal.failNext('payout', 'decline');
    await expect(provider.createPayoutBatch({ senderBatchId: refused, items: [item()] })).rejects.toMatchObject({
      statusCode: 422,
      providerName: 'INSUFFICIENT_FUNDS',
    });
    expect(payoutsOf(refused)).toEqual([]);
    paypal.failNext('payout', 'server-error');
    await expect(provider.createPayoutBatch({ senderBatchId: refused, items: [item()] })).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
    expect(payoutsOf(refused)).toEqual([]);
    await expect(provider.getPayoutBatch({ batchId: 'NOSUCHBATCH' })).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('verifyWebhook: POST /v1/notifications/verify-webhook-signature', () => {
  const webhookId = 'WH-SPOTTER-1';
  async function delivery() {
    const orderId = await order();
    await capture(orderId);
    return paypal.webhookDelivery(paypal.captureEvent('PAYMENT.CAPTURE.COMPLETED', orderId), { webhookId });
  }

  it("is true for PayPal's own delivery, asking with the five headers, the webhook id and the event", async () => {
    const sent = await delivery();
    const event = JSON.parse(sent.body);
    expect(event).toMatchObject({
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: {
        amount: { currency_code: 'USD', value: '150.00' },
        supplementary_data: { related_ids: { order_id: expect.any(String) } },
      },
    });
    expect(await provider.verifyWebhook({ headers: sent.headers, event, webhookId })).toBe(true);
    expect(requestsOf('verify').at(-1)!.body).toEqual({
      auth_algo: sent.headers['paypal-auth-algo'],
      cert_url: sent.headers['paypal-cert-url'],
      transmission_id: sent.headers['paypal-transmission-id'],
      transmission_sig: sent.headers['paypal-transmission-sig'],
      transmission_time: sent.headers['paypal-transmission-time'],
      webhook_id: webhookId,
      webhook_event: event,
    });
    // the raw body works too
    expect(await provider.verifyWebhook({ headers: sent.headers, event: sent.body, webhookId })).toBe(true);
  });

  it('is false for a forged signature, an altered body, another webhook id or missing headers', async () => {
    const sent = await delivery();
    const event = JSON.parse(sent.body);
    expect(await provider.verifyWebhook({ headers: sent.headers, event, webhookId })).toBe(true);
    const forged = { ...sent.headers, 'paypal-transmission-sig': Buffer.from('forged').toString('base64') };
    expect(await provider.verifyWebhook({ headers: forged, event, webhookId })).toBe(false);
    const altered = { ...event, resource: { ...event.resource, amount: { currency_code: 'USD', value: '1500.00' } } };
    expect(await provider.verifyWebhook({ headers: sent.headers, event: altered, webhookId })).toBe(false);
    expect(await provider.verifyWebhook({ headers: sent.headers, event, webhookId: 'WH-SOMEONE-ELSE' })).toBe(false);
    const other = await delivery();
    expect(await provider.verifyWebhook({ headers: other.headers, event, webhookId })).toBe(false);
    const calls = requestsOf('verify').length;
    const { 'paypal-transmission-sig': _sig, ...unsigned } = sent.headers;
    expect(await provider.verifyWebhook({ headers: unsigned, event, webhookId })).toBe(false);
    expect(requestsOf('verify')).toHaveLength(calls);
  });

  it('throws ProviderUnavailableError when PayPal cannot answer (500, timeout), so the delivery is retried', async () => {
    const sent = await delivery();
    const event = JSON.parse(sent.body);
    paypal.failNext('verify', 'server-error');
    await expect(provider.verifyWebhook({ headers: sent.headers, event, webhookId })).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
    paypal.failNext('verify', 'hang');
    await expect(impatient.verifyWebhook({ headers: sent.headers, event, webhookId })).rejects.toMatchObject({
      name: 'ProviderUnavailableError',
      reason: 'timeout',
    });
    expect(await provider.verifyWebhook({ headers: sent.headers, event, webhookId })).toBe(true);
  });

  it('signs a refund event too, naming the refund and its capture', async () => {
    const orderId = await order();
    const captureId = (await capture(orderId)).capture!.id;
    await provider.refundCapture({ captureId, amountCents: 15_000, currency: 'USD', requestId: unique('refund') });
    const event = paypal.captureEvent('PAYMENT.CAPTURE.REFUNDED', orderId);
    expect(event).toMatchObject({
      event_type: 'PAYMENT.CAPTURE.REFUNDED',
      resource: {
        id: paypal.state.ledger.refunds.find((r) => r.captureId === captureId)!.refundId,
        amount: { currency_code: 'USD', value: '150.00' },
        links: expect.arrayContaining([expect.objectContaining({ rel: 'up', href: expect.stringContaining(captureId) })]),
      },
    });
    const sent = paypal.webhookDelivery(event, { webhookId });
    expect(await provider.verifyWebhook({ headers: sent.headers, event: JSON.parse(sent.body), webhookId })).toBe(true);
  });
});
