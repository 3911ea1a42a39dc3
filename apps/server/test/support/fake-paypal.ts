import { createSign, createVerify, generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { crc32 } from 'node:zlib';

/**
 * A local stand-in for PayPal's REST API, following its documented contract for the calls Spotter
 * makes: OAuth client credentials; Orders v2 create, capture and GET; Payments v2 refund; Payouts v1
 * create batch and GET batch; Webhooks verify-webhook-signature (and signed webhook deliveries a test
 * posts to Spotter). Checks Basic auth and Bearer tokens, honours PayPal-Request-Id (a repeated
 * request id answers the first answer again and does nothing more), and can be told to decline,
 * fail or hang.
 */
export type FakeCall = 'token' | 'create' | 'capture' | 'refund' | 'getOrder' | 'payout' | 'getPayout' | 'cancelItem' | 'verify';
/**
 * decline: 422 INSTRUMENT_DECLINED (capture), 422 INSUFFICIENT_FUNDS (payout) · server-error: 500
 * INTERNAL_SERVER_ERROR · hang: never answers, does nothing · slow: does the work (and remembers the
 * answer for its request id) but answers only after `slowMs`, past the client's timeout.
 */
export type FakeMode = 'decline' | 'server-error' | 'hang' | 'slow';

/** A payout item's transaction_status (Payouts v1). */
export type PayoutItemStatus =
  'SUCCESS' | 'FAILED' | 'PENDING' | 'UNCLAIMED' | 'RETURNED' | 'ONHOLD' | 'BLOCKED' | 'REFUNDED' | 'REVERSED';

type Money = { currency_code: string; value: string };
type Order = {
  id: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED';
  amount: Money;
  referenceId?: string;
  description?: string;
  createTime: string;
  updateTime: string;
  captureIds: string[];
};
type Refund = { id: string; status: 'COMPLETED'; amount: Money; createTime: string };
type Capture = {
  id: string;
  orderId: string;
  /** What was really charged: the order's amount unless a test said otherwise (captureAs). */
  amount: Money;
  status: 'PENDING' | 'DECLINED' | 'COMPLETED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
  refunded: boolean;
  refunds: Refund[];
  createTime: string;
  updateTime: string;
};
type PayoutItem = {
  payoutItemId: string;
  transactionId?: string;
  status: PayoutItemStatus;
  recipientType: string;
  receiver: string;
  senderItemId?: string;
  note?: string;
  amount: { currency: string; value: string };
  timeProcessed?: string;
};
type PayoutBatch = {
  id: string;
  senderBatchHeader: Record<string, unknown>;
  senderBatchId?: string;
  timeCreated: string;
  timeCompleted?: string;
  items: PayoutItem[];
};
type Answer = { status: number; body: unknown };
/** What a capture does instead of charging the order's amount at once (captureAs). */
export type CaptureScript = Partial<Money> & { status?: 'PENDING' };

const debugId = () => randomBytes(7).toString('hex');
const paypalId = () => randomBytes(9).toString('hex').toUpperCase().slice(0, 17);
const SANDBOX = 'https://api.sandbox.paypal.com';
/** "150.00" (or "150", as JPY is written) in hundredths, without floats. */
const hundredths = (value: string) => {
  const [units, fraction = ''] = value.split('.');
  return Number(units) * 100 + Number(fraction.padEnd(2, '0'));
};
const decimal = (h: number) => `${Math.floor(h / 100)}.${String(h % 100).padStart(2, '0')}`;
/** Settled item statuses never change; these may still (UNCLAIMED becomes SUCCESS when claimed or RETURNED after 30 days). */
const OPEN_ITEM_STATUSES: PayoutItemStatus[] = ['PENDING', 'ONHOLD', 'UNCLAIMED'];
/** The errors PayPal names on an item that did not pay (payout_batch_items.errors). */
const ITEM_ERRORS: Partial<Record<PayoutItemStatus, { name: string; message: string }>> = {
  UNCLAIMED: {
    name: 'RECEIVER_UNREGISTERED',
    message: "This receiver is not registered. You'll need to request them to sign up with PayPal to receive the payment.",
  },
  RETURNED: { name: 'RECEIVER_UNREGISTERED', message: 'The payment was not claimed within 30 days and was returned.' },
  FAILED: { name: 'RECEIVER_ACCOUNT_LOCKED', message: 'Receiver account is locked or inactive.' },
  BLOCKED: { name: 'RECEIVER_COUNTRY_NOT_ALLOWED', message: 'The payment was blocked.' },
};
const WEBHOOK_AUTH_ALGO = 'SHA256withRSA';

export async function startFakePaypal(
  opts: { clientId?: string; clientSecret?: string; tokenTtlSeconds?: number; slowMs?: number } = {},
) {
  const clientId = opts.clientId ?? `fake-client-${paypalId()}`;
  const clientSecret = opts.clientSecret ?? `fake-secret-${paypalId()}`;
  const tokens = new Map<string, number>(); // token → expires at (ms)
  const orders = new Map<string, Order>();
  const captures = new Map<string, Capture>();
  const batches = new Map<string, PayoutBatch>();
  const batchBySenderId = new Map<string, string>(); // sender_batch_id → payout_batch_id
  const idempotent = new Map<string, Answer>(); // `${call}:${request id}` → first answer
  const scripted: Array<{ call: FakeCall; mode: FakeMode }> = [];
  const captureAmounts = new Map<string, CaptureScript>(); // order id or 'next' → what the capture charges
  const itemStatuses = new Map<string, PayoutItemStatus>(); // receiver or sender_item_id → final status
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let autoApprove = true;
  // the key PayPal signs webhook deliveries with, made on first use (verify-webhook-signature checks with it)
  let webhookKeys: { privateKey: KeyObject; publicKey: KeyObject } | undefined;
  const certUrl = `${SANDBOX}/v1/notifications/certs/CERT-360caa42-fca2a594-${randomBytes(4).toString('hex')}`;

  /** What the fake did, for assertions: every request, every charge, every refund. */
  const state = {
    requests: [] as Array<{
      call: FakeCall | 'unknown';
      path: string;
      requestId?: string;
      authorization?: string;
      body: unknown;
    }>,
    tokensIssued: 0,
    /**
     * What really moved. charges and refunds keep their { orderId, captureId, amount } and
     * { captureId, refundId, amount } shape for exact comparisons; each also has a non-enumerable
     * `currency` (read it as `charge.currency`), since a capture may be scripted in another currency.
     */
    ledger: {
      charges: [] as Array<{ orderId: string; captureId: string; amount: string; readonly currency?: string }>,
      refunds: [] as Array<{ captureId: string; refundId: string; amount: string; readonly currency?: string }>,
      /** One row per payout item sent; `status` follows the item (PENDING until a GET of its batch settles it). */
      payouts: [] as Array<{
        batchId: string;
        senderBatchId?: string;
        payoutItemId: string;
        senderItemId?: string;
        receiver: string;
        amount: string;
        currency: string;
        status: PayoutItemStatus;
      }>,
    },
  };
  const withCurrency = <T extends object>(row: T, currency: string) =>
    Object.defineProperty(row, 'currency', { value: currency, enumerable: false }) as T & { readonly currency: string };

  const sendJson = (res: ServerResponse, { status, body }: Answer) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Paypal-Debug-Id': debugId() });
    res.end(JSON.stringify(body));
  };
  const unprocessable = (issue: string, description: string): Answer => ({
    status: 422,
    body: {
      name: 'UNPROCESSABLE_ENTITY',
      details: [{ issue, description }],
      message: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
      debug_id: debugId(),
      links: [
        { href: `https://developer.paypal.com/docs/api/orders/v2/#error-${issue}`, rel: 'information_link', method: 'GET' },
      ],
    },
  });
  const notFound = (): Answer => ({
    status: 404,
    body: {
      name: 'RESOURCE_NOT_FOUND',
      details: [
        {
          issue: 'INVALID_RESOURCE_ID',
          description: 'Specified resource ID does not exist. Please check the resource ID and try again.',
        },
      ],
      message: 'The specified resource does not exist.',
      debug_id: debugId(),
    },
  });
  const invalidRequest = (field: string, issue: string): Answer => ({
    status: 400,
    body: {
      name: 'INVALID_REQUEST',
      message: 'Request is not well-formed, syntactically incorrect, or violates schema.',
      details: [{ field, issue, location: 'body' }],
      debug_id: debugId(),
    },
  });
  const serverError = (): Answer => ({
    status: 500,
    body: { name: 'INTERNAL_SERVER_ERROR', message: 'An internal server error has occurred.', debug_id: debugId() },
  });
  /** Payouts v1 and Notifications v1 name their errors in the older style. */
  const validationError = (field: string, issue: string): Answer => ({
    status: 400,
    body: {
      name: 'VALIDATION_ERROR',
      message: 'Invalid request - see details',
      debug_id: debugId(),
      information_link: 'https://developer.paypal.com/docs/api/payments.payouts-batch/#errors',
      details: [{ field, location: 'body', issue }],
    },
  });

  function readBody(req: IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
      let data = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (data += c));
      req.on('end', () => resolve(data));
      req.on('error', reject);
    });
  }

  function bearerOk(req: IncomingMessage) {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const expires = m ? tokens.get(m[1]) : undefined;
    return expires !== undefined && expires > Date.now();
  }

  function issueToken(req: IncomingMessage, raw: string): Answer {
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
    if (req.headers.authorization !== expected)
      return { status: 401, body: { error: 'invalid_client', error_description: 'Client Authentication failed' } };
    if (new URLSearchParams(raw).get('grant_type') !== 'client_credentials')
      return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' } };
    const token = `A21AA${randomBytes(24).toString('base64url')}`;
    const ttl = opts.tokenTtlSeconds ?? 32_400;
    tokens.set(token, Date.now() + ttl * 1000);
    state.tokensIssued++;
    return {
      status: 200,
      body: {
        scope: 'https://uri.paypal.com/services/payments/payment',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-FAKE',
        expires_in: ttl,
        nonce: debugId(),
      },
    };
  }

  function createOrder(body: Record<string, unknown>): Answer {
    if (body.intent !== 'CAPTURE' && body.intent !== 'AUTHORIZE') return invalidRequest('/intent', 'MISSING_REQUIRED_PARAMETER');
    const unit = (body.purchase_units as Array<Record<string, unknown>> | undefined)?.[0];
    const amount = unit?.amount as { currency_code?: string; value?: string } | undefined;
    if (!amount?.currency_code || typeof amount.value !== 'string')
      return invalidRequest('/purchase_units/0/amount', 'MISSING_REQUIRED_PARAMETER');
    if (!/^\d{1,10}(\.\d{2})?$/.test(amount.value)) return invalidRequest('/purchase_units/0/amount/value', 'DECIMAL_PRECISION');
    const now = new Date().toISOString();
    const order: Order = {
      id: paypalId(),
      status: autoApprove ? 'APPROVED' : 'CREATED',
      amount: { currency_code: amount.currency_code, value: amount.value },
      referenceId: unit?.reference_id as string | undefined,
      description: unit?.description as string | undefined,
      createTime: now,
      updateTime: now,
      captureIds: [],
    };
    orders.set(order.id, order);
    return {
      status: 201,
      body: {
        id: order.id,
        intent: 'CAPTURE',
        status: 'CREATED',
        purchase_units: [{ reference_id: order.referenceId ?? 'default', amount: order.amount, description: order.description }],
        create_time: order.createTime,
        links: [
          { href: `https://api.sandbox.paypal.com/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' },
          { href: `https://www.sandbox.paypal.com/checkoutnow?token=${order.id}`, rel: 'approve', method: 'GET' },
          { href: `https://api.sandbox.paypal.com/v2/checkout/orders/${order.id}/capture`, rel: 'capture', method: 'POST' },
        ],
      },
    };
  }

  function captureOrder(orderId: string, mode?: FakeMode): Answer {
    const order = orders.get(orderId);
    if (!order) return notFound();
    if (order.status === 'COMPLETED')
      return unprocessable(
        'ORDER_ALREADY_CAPTURED',
        "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    if (order.status !== 'APPROVED')
      return unprocessable('ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.');
    if (mode === 'decline') {
      return unprocessable(
        'INSTRUMENT_DECLINED',
        "The instrument presented  was either declined by the processor or bank, or it can't be used for this payment.",
      );
    }
    // what a test scripted for this order (or the next capture) is what PayPal really charges
    const script = captureAmounts.get(orderId) ?? captureAmounts.get('next');
    captureAmounts.delete(captureAmounts.has(orderId) ? orderId : 'next');
    const now = new Date().toISOString();
    // the order is COMPLETED once captured, even while its capture is PENDING
    order.status = 'COMPLETED';
    order.updateTime = now;
    const capture: Capture = {
      id: paypalId(),
      orderId,
      amount: {
        currency_code: script?.currency_code ?? order.amount.currency_code,
        value: script?.value ?? order.amount.value,
      },
      status: script?.status ?? 'COMPLETED',
      refunded: false,
      refunds: [],
      createTime: now,
      updateTime: now,
    };
    captures.set(capture.id, capture);
    order.captureIds.push(capture.id);
    if (capture.status === 'COMPLETED') charge(capture);
    return {
      status: 201,
      body: {
        id: orderId,
        status: 'COMPLETED',
        payment_source: {
          paypal: { email_address: 'buyer@example.com', account_id: 'FAKEBUYER', name: { given_name: 'John', surname: 'Doe' } },
        },
        purchase_units: [
          {
            reference_id: order.referenceId ?? 'default',
            payments: { captures: [captureJson(capture)] },
          },
        ],
        payer: { name: { given_name: 'John', surname: 'Doe' }, email_address: 'buyer@example.com', payer_id: 'FAKEBUYER' },
        links: [{ href: `https://api.sandbox.paypal.com/v2/checkout/orders/${orderId}`, rel: 'self', method: 'GET' }],
      },
    };
  }

  /** The money moves: a capture COMPLETED (at once, or when a PENDING one settles). */
  function charge(capture: Capture) {
    state.ledger.charges.push(
      withCurrency(
        { orderId: capture.orderId, captureId: capture.id, amount: capture.amount.value },
        capture.amount.currency_code,
      ),
    );
  }

  function refundCapture(captureId: string, body: Record<string, unknown>): Answer {
    const capture = captures.get(captureId);
    if (!capture) return notFound();
    if (capture.status === 'PENDING')
      return unprocessable(
        'PENDING_CAPTURE',
        'Cannot initiate a refund as the capture is pending. Capture is typically pending when the payer has funded the transaction using e-check/bank funded.',
      );
    if (capture.status === 'DECLINED') return unprocessable('REFUND_NOT_ALLOWED', 'Capture cannot be refunded.');
    if (capture.refunded) return unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded');
    const asked = body.amount as { value?: string; currency_code?: string } | undefined;
    if (asked?.value !== undefined && !/^\d{1,10}(\.\d{1,2})?$/.test(asked.value))
      return invalidRequest('/amount/value', 'DECIMAL_PRECISION');
    if (asked?.currency_code && asked.currency_code !== capture.amount.currency_code)
      return unprocessable('REFUND_CAPTURE_CURRENCY_MISMATCH', 'Refund must be in the same currency as the capture');
    // partial refunds add up to at most what was captured; no amount refunds what is left
    const left = hundredths(capture.amount.value) - capture.refunds.reduce((sum, r) => sum + hundredths(r.amount.value), 0);
    const amount = asked?.value ?? decimal(left);
    if (hundredths(amount) > left)
      return unprocessable(
        'REFUND_AMOUNT_EXCEEDED',
        'The refund amount must be less than or equal to the capture amount that has not yet been refunded.',
      );
    const refundId = paypalId();
    const now = new Date().toISOString();
    capture.refunds.push({
      id: refundId,
      status: 'COMPLETED',
      amount: { currency_code: capture.amount.currency_code, value: amount },
      createTime: now,
    });
    capture.refunded = hundredths(amount) === left;
    capture.status = capture.refunded ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    capture.updateTime = now;
    state.ledger.refunds.push(withCurrency({ captureId, refundId, amount }, capture.amount.currency_code));
    return {
      status: 201,
      body: {
        id: refundId,
        status: 'COMPLETED',
        links: [{ href: `https://api.sandbox.paypal.com/v2/payments/refunds/${refundId}`, rel: 'self', method: 'GET' }],
      },
    };
  }

  function captureJson(capture: Capture) {
    return {
      id: capture.id,
      status: capture.status,
      ...(capture.status === 'PENDING' ? { status_details: { reason: 'PENDING_REVIEW' } } : {}),
      amount: capture.amount,
      final_capture: true,
      seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
      create_time: capture.createTime,
      update_time: capture.updateTime,
      links: [
        { href: `${SANDBOX}/v2/payments/captures/${capture.id}`, rel: 'self', method: 'GET' },
        { href: `${SANDBOX}/v2/payments/captures/${capture.id}/refund`, rel: 'refund', method: 'POST' },
        { href: `${SANDBOX}/v2/checkout/orders/${capture.orderId}`, rel: 'up', method: 'GET' },
      ],
    };
  }

  function refundJson(refund: Refund, capture: Capture) {
    return {
      id: refund.id,
      status: refund.status,
      amount: refund.amount,
      create_time: refund.createTime,
      update_time: refund.createTime,
      links: [
        { href: `${SANDBOX}/v2/payments/refunds/${refund.id}`, rel: 'self', method: 'GET' },
        { href: `${SANDBOX}/v2/payments/captures/${capture.id}`, rel: 'up', method: 'GET' },
      ],
    };
  }

  /** GET /v2/checkout/orders/{id}: the order now, with its captures and their refunds once there are any. */
  function getOrder(orderId: string): Answer {
    const order = orders.get(orderId);
    if (!order) return notFound();
    const caps = order.captureIds.map((id) => captures.get(id)!);
    return {
      status: 200,
      body: {
        id: order.id,
        intent: 'CAPTURE',
        status: order.status,
        purchase_units: [
          {
            reference_id: order.referenceId ?? 'default',
            amount: order.amount,
            description: order.description,
            ...(caps.length
              ? {
                  payments: {
                    captures: caps.map(captureJson),
                    ...(caps.some((c) => c.refunds.length)
                      ? { refunds: caps.flatMap((c) => c.refunds.map((r) => refundJson(r, c))) }
                      : {}),
                  },
                }
              : {}),
          },
        ],
        ...(order.status !== 'CREATED'
          ? {
              payer: {
                name: { given_name: 'John', surname: 'Doe' },
                email_address: 'buyer@example.com',
                payer_id: 'FAKEBUYER',
              },
            }
          : {}),
        create_time: order.createTime,
        update_time: order.updateTime,
        links: [{ href: `${SANDBOX}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' }],
      },
    };
  }

  const batchLink = (id: string) => ({
    href: `${SANDBOX}/v1/payments/payouts/${id}`,
    rel: 'self',
    method: 'GET',
    encType: 'application/json',
  });

  /** POST /v1/payments/payouts: checks the batch as PayPal does, refuses a sender_batch_id used before. */
  function createPayout(body: Record<string, unknown>, mode?: FakeMode): Answer {
    const header = body.sender_batch_header as Record<string, unknown> | undefined;
    if (!header || typeof header !== 'object') return validationError('sender_batch_header', 'Required field is missing');
    const senderBatchId = header.sender_batch_id;
    if (senderBatchId !== undefined && (typeof senderBatchId !== 'string' || senderBatchId.length > 256))
      return validationError('sender_batch_header.sender_batch_id', 'Invalid sender_batch_id');
    const items = body.items as Array<Record<string, unknown>> | undefined;
    if (!Array.isArray(items) || items.length === 0) return validationError('items', 'Required field is missing');
    if (items.length > 15_000) return validationError('items', 'Maximum number of items allowed is 15000');
    const seen = new Set<string>();
    for (const [n, item] of items.entries()) {
      const type = (item.recipient_type ?? header.recipient_type) as string | undefined;
      if (type !== 'EMAIL' && type !== 'PHONE' && type !== 'PAYPAL_ID')
        return validationError(`items[${n}].recipient_type`, 'Recipient type is invalid');
      const receiver = item.receiver;
      if (typeof receiver !== 'string' || !receiver || (type === 'EMAIL' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(receiver)))
        return validationError(`items[${n}].receiver`, 'Receiver is invalid or does not match with type');
      const amount = item.amount as { value?: unknown; currency?: unknown } | undefined;
      if (typeof amount?.currency !== 'string' || !/^[A-Z]{3}$/.test(amount.currency))
        return validationError(`items[${n}].amount.currency`, 'Currency is invalid');
      if (typeof amount.value !== 'string' || !/^\d{1,10}(\.\d{1,2})?$/.test(amount.value) || hundredths(amount.value) === 0)
        return validationError(`items[${n}].amount.value`, 'Amount is invalid');
      const senderItemId = item.sender_item_id;
      if (senderItemId !== undefined) {
        if (typeof senderItemId !== 'string' || senderItemId.length > 63)
          return validationError(`items[${n}].sender_item_id`, 'Invalid sender_item_id');
        if (seen.has(senderItemId))
          return validationError(`items[${n}].sender_item_id`, 'This transaction is duplicated in this batch');
        seen.add(senderItemId);
      }
    }
    // PayPal pays a sender_batch_id once in 30 days; again, it answers this error with a link to the first batch
    const earlier = typeof senderBatchId === 'string' ? batchBySenderId.get(senderBatchId) : undefined;
    if (earlier)
      return {
        status: 400,
        body: {
          name: 'USER_BUSINESS_ERROR',
          message: 'User business error.',
          debug_id: debugId(),
          information_link: 'https://developer.paypal.com/docs/api/payments.payouts-batch/#errors',
          details: [
            {
              field: 'SENDER_BATCH_ID',
              location: 'body',
              issue: 'Batch with given sender_batch_id already exists',
              link: [batchLink(earlier)],
            },
          ],
          links: [],
        },
      };
    if (mode === 'decline')
      return {
        status: 422,
        body: {
          name: 'INSUFFICIENT_FUNDS',
          message: 'Sender does not have sufficient funds. Please add funds and retry.',
          debug_id: debugId(),
          information_link: 'https://developer.paypal.com/docs/api/payments.payouts-batch/#errors',
        },
      };
    const batch: PayoutBatch = {
      id: paypalId().slice(0, 13),
      senderBatchHeader: header,
      senderBatchId: senderBatchId as string | undefined,
      timeCreated: new Date().toISOString(),
      items: items.map((item) => {
        const amount = item.amount as { value: string; currency: string };
        return {
          payoutItemId: paypalId().slice(0, 13),
          status: 'PENDING',
          recipientType: (item.recipient_type ?? header.recipient_type) as string,
          receiver: item.receiver as string,
          senderItemId: item.sender_item_id as string | undefined,
          note: item.note as string | undefined,
          amount: { value: amount.value, currency: amount.currency },
        };
      }),
    };
    batches.set(batch.id, batch);
    if (batch.senderBatchId) batchBySenderId.set(batch.senderBatchId, batch.id);
    for (const item of batch.items)
      state.ledger.payouts.push({
        batchId: batch.id,
        senderBatchId: batch.senderBatchId,
        payoutItemId: item.payoutItemId,
        senderItemId: item.senderItemId,
        receiver: item.receiver,
        amount: item.amount.value,
        currency: item.amount.currency,
        status: item.status,
      });
    return {
      status: 201,
      body: {
        batch_header: { payout_batch_id: batch.id, batch_status: 'PENDING', sender_batch_header: header },
        links: [batchLink(batch.id)],
      },
    };
  }

  /** Items still open take the status a test scripted for them (SUCCESS unless told), as PayPal processes them. */
  function settle(batch: PayoutBatch) {
    for (const item of batch.items) {
      if (!OPEN_ITEM_STATUSES.includes(item.status)) continue;
      const next =
        (item.senderItemId !== undefined ? itemStatuses.get(item.senderItemId) : undefined) ??
        itemStatuses.get(item.receiver) ??
        'SUCCESS';
      if (next === item.status) continue;
      item.status = next;
      if (next !== 'PENDING' && next !== 'ONHOLD') {
        item.timeProcessed ??= new Date().toISOString();
        item.transactionId ??= paypalId();
      }
      const row = state.ledger.payouts.find((p) => p.payoutItemId === item.payoutItemId);
      if (row) row.status = next;
    }
    if (!batch.items.some((i) => i.status === 'PENDING' || i.status === 'ONHOLD'))
      batch.timeCompleted ??= new Date().toISOString();
  }

  /**
   * POST /v1/payments/payouts-item/{payout_item_id}/cancel: an UNCLAIMED item is taken back (RETURNED,
   * the money back with the sender, and it can no longer be claimed); any other is refused.
   */
  function cancelItem(itemId: string): Answer {
    const found = [...batches.values()]
      .flatMap((b) => b.items.map((item) => ({ b, item })))
      .find((x) => x.item.payoutItemId === itemId);
    if (!found)
      return {
        status: 404,
        body: { name: 'INVALID_RESOURCE_ID', message: 'Requested resource ID was not found.', debug_id: debugId() },
      };
    const { b, item } = found;
    if (item.status !== 'UNCLAIMED')
      return unprocessable('ITEM_NOT_UNCLAIMED', 'Only an unclaimed payout item can be cancelled.');
    item.status = 'RETURNED';
    itemStatuses.set(item.senderItemId ?? item.receiver, 'RETURNED');
    const row = state.ledger.payouts.find((p) => p.payoutItemId === item.payoutItemId);
    if (row) row.status = 'RETURNED';
    return {
      status: 200,
      body: {
        payout_item_id: item.payoutItemId,
        ...(item.transactionId ? { transaction_id: item.transactionId } : {}),
        transaction_status: 'RETURNED',
        payout_batch_id: b.id,
        payout_item: {
          recipient_type: item.recipientType,
          amount: item.amount,
          receiver: item.receiver,
          sender_item_id: item.senderItemId,
        },
      },
    };
  }

  /** GET /v1/payments/payouts/{payout_batch_id}?page=&page_size=&total_required= */
  function getPayout(batchId: string, query: URLSearchParams): Answer {
    const batch = batches.get(batchId);
    if (!batch)
      return {
        status: 404,
        body: {
          name: 'INVALID_RESOURCE_ID',
          message: 'Requested resource ID was not found.',
          debug_id: debugId(),
          information_link: 'https://developer.paypal.com/docs/api/payments.payouts-batch/#errors',
        },
      };
    settle(batch);
    const page = Math.max(1, Number(query.get('page') ?? 1) || 1);
    const pageSize = Math.min(1000, Math.max(1, Number(query.get('page_size') ?? 1000) || 1000));
    const totalPages = Math.max(1, Math.ceil(batch.items.length / pageSize));
    const shown = batch.items.slice((page - 1) * pageSize, page * pageSize);
    const open = batch.items.some((i) => i.status === 'PENDING' || i.status === 'ONHOLD');
    const currency = batch.items[0].amount.currency;
    const total = batch.items.reduce((sum, i) => sum + hundredths(i.amount.value), 0);
    const pageLink = (n: number, rel: string) => ({
      href: `${SANDBOX}/v1/payments/payouts/${batch.id}?page_size=${pageSize}&page=${n}`,
      rel,
      method: 'GET',
      encType: 'application/json',
    });
    return {
      status: 200,
      body: {
        ...(query.get('total_required') === 'true' ? { total_items: batch.items.length, total_pages: totalPages } : {}),
        batch_header: {
          payout_batch_id: batch.id,
          batch_status: open ? 'PROCESSING' : 'SUCCESS',
          time_created: batch.timeCreated,
          ...(batch.timeCompleted ? { time_completed: batch.timeCompleted, time_closed: batch.timeCompleted } : {}),
          sender_batch_header: batch.senderBatchHeader,
          amount: { currency, value: decimal(total) },
          fees: { currency, value: '0.00' },
        },
        items: shown.map((item) => ({
          payout_item_id: item.payoutItemId,
          ...(item.transactionId ? { transaction_id: item.transactionId } : {}),
          transaction_status: item.status,
          payout_item_fee: { currency: item.amount.currency, value: '0.00' },
          payout_batch_id: batch.id,
          payout_item: {
            recipient_type: item.recipientType,
            amount: item.amount,
            ...(item.note !== undefined ? { note: item.note } : {}),
            receiver: item.receiver,
            ...(item.senderItemId !== undefined ? { sender_item_id: item.senderItemId } : {}),
            recipient_wallet: 'PAYPAL',
          },
          ...(item.timeProcessed ? { time_processed: item.timeProcessed } : {}),
          ...(ITEM_ERRORS[item.status]
            ? {
                errors: {
                  ...ITEM_ERRORS[item.status],
                  information_link: 'https://developer.paypal.com/docs/api/payments.payouts-batch/#errors',
                  details: [],
                },
              }
            : {}),
          links: [
            {
              href: `${SANDBOX}/v1/payments/payouts-item/${item.payoutItemId}`,
              rel: 'item',
              method: 'GET',
              encType: 'application/json',
            },
          ],
        })),
        links: [
          pageLink(page, 'self'),
          ...(page < totalPages ? [pageLink(page + 1, 'next')] : []),
          ...(page > 1 ? [pageLink(page - 1, 'previous')] : []),
        ],
      },
    };
  }

  const keys = () => (webhookKeys ??= generateKeyPairSync('rsa', { modulusLength: 2048 }));
  /** What PayPal signs: transmission id, time, the webhook's id and the CRC32 of the body, joined by '|'. */
  const signedText = (transmissionId: string, time: string, webhookId: string, body: string) =>
    `${transmissionId}|${time}|${webhookId}|${crc32(body)}`;

  /** POST /v1/notifications/verify-webhook-signature: SUCCESS only for a delivery signed here, unaltered, for that webhook. */
  function verifySignature(body: Record<string, unknown>): Answer {
    for (const field of ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id'])
      if (typeof body[field] !== 'string' || !body[field]) return validationError(field, 'Required field is missing');
    if (!body.webhook_event || typeof body.webhook_event !== 'object')
      return validationError('webhook_event', 'Required field is missing');
    const b = body as Record<string, string>;
    let ok = false;
    if (b.auth_algo === WEBHOOK_AUTH_ALGO && b.cert_url === certUrl && webhookKeys) {
      const text = signedText(b.transmission_id, b.transmission_time, b.webhook_id, JSON.stringify(body.webhook_event));
      try {
        ok = createVerify('RSA-SHA256').update(text).verify(webhookKeys.publicKey, b.transmission_sig, 'base64');
      } catch {
        ok = false;
      }
    }
    return { status: 200, body: { verification_status: ok ? 'SUCCESS' : 'FAILURE' } };
  }

  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const [path, search = ''] = (req.url ?? '').split('?');
    const requestId = req.headers['paypal-request-id'] as string | undefined;
    let body: Record<string, unknown> = {};
    const call: FakeCall | 'unknown' =
      req.method === 'POST' && path === '/v1/oauth2/token'
        ? 'token'
        : req.method === 'POST' && path === '/v2/checkout/orders'
          ? 'create'
          : req.method === 'POST' && /^\/v2\/checkout\/orders\/[^/]+\/capture$/.test(path)
            ? 'capture'
            : req.method === 'POST' && /^\/v2\/payments\/captures\/[^/]+\/refund$/.test(path)
              ? 'refund'
              : req.method === 'GET' && /^\/v2\/checkout\/orders\/[^/]+$/.test(path)
                ? 'getOrder'
                : req.method === 'POST' && path === '/v1/payments/payouts'
                  ? 'payout'
                  : req.method === 'GET' && /^\/v1\/payments\/payouts\/[^/]+$/.test(path)
                    ? 'getPayout'
                    : req.method === 'POST' && /^\/v1\/payments\/payouts-item\/[^/]+\/cancel$/.test(path)
                      ? 'cancelItem'
                      : req.method === 'POST' && path === '/v1/notifications/verify-webhook-signature'
                        ? 'verify'
                        : 'unknown';
    if (call !== 'token' && raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        return sendJson(res, {
          status: 400,
          body: { name: 'INVALID_REQUEST', message: 'Request is not well-formed', debug_id: debugId() },
        });
      }
    }
    state.requests.push({ call, path, requestId, authorization: req.headers.authorization, body: call === 'token' ? raw : body });
    if (call === 'unknown') return sendJson(res, notFound());
    if (call === 'token') return sendJson(res, issueToken(req, raw));
    if (!bearerOk(req))
      return sendJson(res, {
        status: 401,
        body: { error: 'invalid_token', error_description: 'Token signature verification failed' },
      });

    const script = scripted.findIndex((s) => s.call === call);
    const mode = script >= 0 ? scripted.splice(script, 1)[0].mode : undefined;
    if (mode === 'hang') return; // the socket stays open until the client gives up or the fake closes
    if (mode === 'server-error') return sendJson(res, serverError());

    // the writes honour PayPal-Request-Id; reads and verify-webhook-signature change nothing
    const write = call === 'create' || call === 'capture' || call === 'refund' || call === 'payout' || call === 'cancelItem';
    const key = requestId && write ? `${call}:${requestId}` : undefined;
    let answer = key ? idempotent.get(key) : undefined;
    if (!answer) {
      const id = decodeURIComponent(path.split('/')[4] ?? '');
      answer =
        call === 'create'
          ? createOrder(body)
          : call === 'capture'
            ? captureOrder(id, mode)
            : call === 'refund'
              ? refundCapture(id, body)
              : call === 'getOrder'
                ? getOrder(id)
                : call === 'payout'
                  ? createPayout(body, mode)
                  : call === 'getPayout'
                    ? getPayout(id, new URLSearchParams(search))
                    : call === 'cancelItem'
                      ? cancelItem(id)
                      : verifySignature(body);
      // PayPal keeps the answer of a successful write for its request id
      if (key && answer.status < 300) idempotent.set(key, answer);
    } else if (answer.status === 201) {
      answer = { status: 200, body: answer.body };
    }
    if (mode === 'slow') {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) sendJson(res, answer);
      }, opts.slowMs ?? 2_000);
      timers.add(timer);
      return;
    }
    sendJson(res, answer);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    state,
    orders,
    /** The next call of this kind behaves so (once). */
    failNext(call: FakeCall, mode: FakeMode) {
      scripted.push({ call, mode });
    },
    /** Orders are approved by the buyer at once unless this is turned off (then capture answers ORDER_NOT_APPROVED). */
    setAutoApprove(value: boolean) {
      autoApprove = value;
    },
    /** Revokes every token, as PayPal does when a token is invalidated early. */
    revokeTokens() {
      tokens.clear();
    },
    /**
     * The next capture of this order (or of any order: 'next') charges this instead of the order's
     * amount, e.g. `{ value: '0.01' }` or `{ currency_code: 'JPY', value: '150' }`; the ledger records it.
     */
    captureAs(orderIdOrNext: string, script: CaptureScript) {
      captureAmounts.set(orderIdOrNext, script);
    },
    /**
     * A capture made with `captureAs(…, { status: 'PENDING' })` settles: COMPLETED (the money moves,
     * the ledger records the charge) or DECLINED (nothing moves). Answers the capture id.
     */
    settleCapture(orderId: string, status: 'COMPLETED' | 'DECLINED') {
      const order = orders.get(orderId);
      const capture = order && captures.get(order.captureIds[order.captureIds.length - 1]);
      if (capture?.status !== 'PENDING') throw new Error(`order ${orderId} has no PENDING capture`);
      capture.status = status;
      capture.updateTime = order!.updateTime = new Date().toISOString();
      if (status === 'COMPLETED') charge(capture);
      return capture.id;
    },
    /**
     * Items to this receiver (e-mail) or with this sender_item_id end so when their batch is next
     * read (GET): SUCCESS unless told. PENDING/ONHOLD keep the batch PROCESSING; an UNCLAIMED item
     * may still move on (script RETURNED or SUCCESS later). Stays in force until changed.
     */
    payoutItemStatus(receiverOrSenderItemId: string, status: PayoutItemStatus) {
      itemStatuses.set(receiverOrSenderItemId, status);
    },
    /** Forgets every PayPal-Request-Id seen (PayPal keeps them for a limited time): a repeat is then a new request. */
    forgetRequestIds() {
      idempotent.clear();
    },
    /**
     * A webhook delivery as PayPal sends it: the event as the JSON body and the PAYPAL-* headers
     * signing it for `webhookId` (lower-case names, as Node and Fastify give them). This fake's
     * verify-webhook-signature answers SUCCESS for it, unaltered and for that webhook id only.
     */
    webhookDelivery(
      event: unknown,
      {
        webhookId,
        transmissionId = randomUUID(),
        transmissionTime = new Date().toISOString(),
      }: {
        webhookId: string;
        transmissionId?: string;
        transmissionTime?: string;
      },
    ) {
      const body = JSON.stringify(event);
      const sig = createSign('RSA-SHA256')
        .update(signedText(transmissionId, transmissionTime, webhookId, body))
        .sign(keys().privateKey, 'base64');
      return {
        headers: {
          'content-type': 'application/json',
          'paypal-auth-algo': WEBHOOK_AUTH_ALGO,
          'paypal-cert-url': certUrl,
          'paypal-transmission-id': transmissionId,
          'paypal-transmission-sig': sig,
          'paypal-transmission-time': transmissionTime,
        },
        body,
      };
    },
    /**
     * Money given back at PayPal without Spotter asking: a refund made in PayPal's dashboard, or a
     * reversal (a chargeback the payer won), of `value` (all that is left by default) of this
     * order's latest capture. Both move the money as a refund does; answers the refund's id.
     */
    refundOutside(orderId: string, value?: string) {
      const order = orders.get(orderId);
      const captureId = order?.captureIds[order.captureIds.length - 1];
      if (!captureId) throw new Error(`order ${orderId} has no capture`);
      const capture = captures.get(captureId)!;
      const answer = refundCapture(captureId, value ? { amount: { value, currency_code: capture.amount.currency_code } } : {});
      if (answer.status !== 201) throw new Error(`refund refused: ${JSON.stringify(answer.body)}`);
      return (answer.body as { id: string }).id;
    },
    /**
     * A PAYMENT.CAPTURE.* event about this order's latest capture as it is now, shaped as PayPal
     * sends it: COMPLETED / DENIED carry the capture (resource.id, resource.amount, resource.status
     * and resource.supplementary_data.related_ids.order_id; DENIED after settleCapture(…, 'DECLINED'));
     * REFUNDED and REVERSED carry the latest refund (resource.id is the refund's, links rel 'up' name
     * the capture).
     */
    captureEvent(
      eventType: 'PAYMENT.CAPTURE.COMPLETED' | 'PAYMENT.CAPTURE.DENIED' | 'PAYMENT.CAPTURE.REFUNDED' | 'PAYMENT.CAPTURE.REVERSED',
      orderId: string,
    ) {
      const order = orders.get(orderId);
      const capture = order && captures.get(order.captureIds[order.captureIds.length - 1]);
      if (!capture) throw new Error(`order ${orderId} has no capture`);
      const refund = capture.refunds[capture.refunds.length - 1];
      const aboutRefund = eventType === 'PAYMENT.CAPTURE.REFUNDED' || eventType === 'PAYMENT.CAPTURE.REVERSED';
      if (aboutRefund && !refund) throw new Error(`capture ${capture.id} has no refund`);
      const resource = aboutRefund
        ? refundJson(refund, capture)
        : { ...captureJson(capture), supplementary_data: { related_ids: { order_id: orderId } } };
      return {
        id: `WH-${paypalId()}`,
        event_version: '1.0',
        create_time: new Date().toISOString(),
        resource_type: aboutRefund ? 'refund' : 'capture',
        resource_version: '2.0',
        event_type: eventType,
        summary: `Payment ${eventType.split('.')[2].toLowerCase()} for ${resource.amount.currency_code} ${resource.amount.value}`,
        resource,
        links: [{ href: `${SANDBOX}/v1/notifications/webhooks-events/WH-${paypalId()}`, rel: 'self', method: 'GET' }],
      };
    },
    /**
     * A CUSTOMER.DISPUTE.* event about this order's latest capture, shaped as PayPal's Disputes API
     * sends it: resource.dispute_id, disputed_transactions[].seller_transaction_id (the capture),
     * status; RESOLVED adds dispute_outcome.outcome_code. Money a payer wins is a separate
     * PAYMENT.CAPTURE.REVERSED (refundOutside + captureEvent).
     */
    disputeEvent(
      eventType: 'CUSTOMER.DISPUTE.CREATED' | 'CUSTOMER.DISPUTE.RESOLVED',
      orderId: string,
      { disputeId = `PP-D-${paypalId()}`, outcome = 'RESOLVED_SELLER_FAVOUR' }: { disputeId?: string; outcome?: string } = {},
    ) {
      const order = orders.get(orderId);
      const capture = order && captures.get(order.captureIds[order.captureIds.length - 1]);
      if (!capture) throw new Error(`order ${orderId} has no capture`);
      const now = new Date().toISOString();
      return {
        id: `WH-${paypalId()}`,
        event_version: '1.0',
        create_time: now,
        resource_type: 'dispute',
        event_type: eventType,
        summary: eventType === 'CUSTOMER.DISPUTE.CREATED' ? 'A new dispute opened' : 'A dispute was resolved',
        resource: {
          dispute_id: disputeId,
          create_time: now,
          update_time: now,
          disputed_transactions: [
            {
              seller_transaction_id: capture.id,
              create_time: capture.createTime,
              transaction_status: 'COMPLETED',
              gross_amount: capture.amount,
            },
          ],
          reason: 'MERCHANDISE_OR_SERVICE_NOT_RECEIVED',
          status: eventType === 'CUSTOMER.DISPUTE.CREATED' ? 'WAITING_FOR_SELLER_RESPONSE' : 'RESOLVED',
          dispute_amount: capture.amount,
          ...(eventType === 'CUSTOMER.DISPUTE.RESOLVED' ? { dispute_outcome: { outcome_code: outcome } } : {}),
          links: [{ href: `${SANDBOX}/v1/customer/disputes/${disputeId}`, rel: 'self', method: 'GET' }],
        },
        links: [{ href: `${SANDBOX}/v1/notifications/webhooks-events/WH-${paypalId()}`, rel: 'self', method: 'GET' }],
      };
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type FakePaypal = Awaited<ReturnType<typeof startFakePaypal>>;
