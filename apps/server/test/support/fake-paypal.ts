import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A local stand-in for PayPal's REST API, following its documented contract for the four calls
 * Spotter makes: OAuth client credentials, create order, capture order, refund capture.
 * Checks Basic auth and Bearer tokens, honours PayPal-Request-Id (a repeated request id answers
 * the first answer again and does nothing more), and can be told to decline, fail or hang.
 */
export type FakeCall = 'token' | 'create' | 'capture' | 'refund';
/**
 * decline: 422 INSTRUMENT_DECLINED (capture) · server-error: 500 INTERNAL_SERVER_ERROR ·
 * hang: never answers, does nothing · slow: does the work (and remembers the answer for its
 * request id) but answers only after `slowMs`, past the client's timeout.
 */
export type FakeMode = 'decline' | 'server-error' | 'hang' | 'slow';

type Order = {
  id: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED';
  amount: { currency_code: string; value: string };
  referenceId?: string;
  description?: string;
};
type Capture = { id: string; orderId: string; amount: { currency_code: string; value: string }; refunded: boolean };
type Answer = { status: number; body: unknown };

const debugId = () => randomBytes(7).toString('hex');
const paypalId = () => randomBytes(9).toString('hex').toUpperCase().slice(0, 17);

export async function startFakePaypal(
  opts: { clientId?: string; clientSecret?: string; tokenTtlSeconds?: number; slowMs?: number } = {},
) {
  const clientId = opts.clientId ?? `fake-client-${paypalId()}`;
  const clientSecret = opts.clientSecret ?? `fake-secret-${paypalId()}`;
  const tokens = new Map<string, number>(); // token → expires at (ms)
  const orders = new Map<string, Order>();
  const captures = new Map<string, Capture>();
  const idempotent = new Map<string, Answer>(); // `${call}:${request id}` → first answer
  const scripted: Array<{ call: FakeCall; mode: FakeMode }> = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let autoApprove = true;

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
    ledger: {
      charges: [] as Array<{ orderId: string; captureId: string; amount: string }>,
      refunds: [] as Array<{ captureId: string; refundId: string; amount: string }>,
    },
  };

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
    const order: Order = {
      id: paypalId(),
      status: autoApprove ? 'APPROVED' : 'CREATED',
      amount: { currency_code: amount.currency_code, value: amount.value },
      referenceId: unit?.reference_id as string | undefined,
      description: unit?.description as string | undefined,
    };
    orders.set(order.id, order);
    return {
      status: 201,
      body: {
        id: order.id,
        intent: 'CAPTURE',
        status: 'CREATED',
        purchase_units: [{ reference_id: order.referenceId ?? 'default', amount: order.amount, description: order.description }],
        create_time: new Date().toISOString(),
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
    order.status = 'COMPLETED';
    const capture: Capture = { id: paypalId(), orderId, amount: order.amount, refunded: false };
    captures.set(capture.id, capture);
    state.ledger.charges.push({ orderId, captureId: capture.id, amount: order.amount.value });
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
            payments: {
              captures: [
                {
                  id: capture.id,
                  status: 'COMPLETED',
                  amount: order.amount,
                  final_capture: true,
                  seller_protection: {
                    status: 'ELIGIBLE',
                    dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'],
                  },
                  create_time: new Date().toISOString(),
                },
              ],
            },
          },
        ],
        payer: { name: { given_name: 'John', surname: 'Doe' }, email_address: 'buyer@example.com', payer_id: 'FAKEBUYER' },
        links: [{ href: `https://api.sandbox.paypal.com/v2/checkout/orders/${orderId}`, rel: 'self', method: 'GET' }],
      },
    };
  }

  function refundCapture(captureId: string, body: Record<string, unknown>): Answer {
    const capture = captures.get(captureId);
    if (!capture) return notFound();
    if (capture.refunded) return unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded');
    const amount = (body.amount as { value?: string } | undefined)?.value ?? capture.amount.value;
    if (Number(amount) > Number(capture.amount.value))
      return unprocessable('REFUND_AMOUNT_EXCEEDED', 'The refund amount must be less than or equal to the capture amount');
    capture.refunded = true;
    const refundId = paypalId();
    state.ledger.refunds.push({ captureId, refundId, amount });
    return {
      status: 201,
      body: {
        id: refundId,
        status: 'COMPLETED',
        links: [{ href: `https://api.sandbox.paypal.com/v2/payments/refunds/${refundId}`, rel: 'self', method: 'GET' }],
      },
    };
  }

  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const path = (req.url ?? '').split('?')[0];
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

    const key = requestId ? `${call}:${requestId}` : undefined;
    let answer = key ? idempotent.get(key) : undefined;
    if (!answer) {
      const id = decodeURIComponent(path.split('/')[4] ?? '');
      answer = call === 'create' ? createOrder(body) : call === 'capture' ? captureOrder(id, mode) : refundCapture(id, body);
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
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type FakePaypal = Awaited<ReturnType<typeof startFakePaypal>>;
