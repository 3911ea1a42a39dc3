import type { FastifyBaseLogger } from 'fastify';
import { centsToDecimalString, decimalStringToCents } from '../../../lib/money';
import { PaymentRejectedError, ProviderUnavailableError, type PaymentProvider, type ProviderCapture } from './payment-provider';

type PaypalOptions = {
  clientId: string;
  clientSecret: string;
  /** https://api-m.sandbox.paypal.com or https://api-m.paypal.com */
  apiBase: string;
  /** Every call gives up after this long. */
  timeoutMs: number;
  log?: FastifyBaseLogger;
  now?: () => number;
};

type PaypalError = {
  name?: string;
  message?: string;
  details?: Array<{ issue: string; description?: string; field?: string }>;
  debug_id?: string;
};
type PaypalCaptureAnswer = {
  id: string;
  status: string;
  purchase_units?: Array<{
    payments?: { captures?: Array<{ id: string; status: string; amount?: { currency_code: string; value: string } }> };
  }>;
};

/** Tokens are renewed this long before PayPal says they expire. */
const TOKEN_MARGIN_MS = 60_000;

/**
 * PayPal's Orders v2 REST API over global fetch: OAuth client credentials (token cached until
 * shortly before it expires), a PayPal-Request-Id on every write, a timeout on every call, and
 * errors mapped: 4xx answers are passed through, 5xx, network errors and timeouts become
 * ProviderUnavailableError.
 */
export function createPaypalProvider(opts: PaypalOptions): PaymentProvider {
  const now = opts.now ?? Date.now;
  let token: { value: string; expiresAt: number } | undefined;
  let pendingToken: Promise<string> | undefined;

  async function send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${opts.apiBase}${path}`, { ...init, signal: AbortSignal.timeout(opts.timeoutMs) });
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        opts.log?.warn({ path }, 'PayPal did not answer in time');
        throw new ProviderUnavailableError('timeout', `PayPal did not answer within ${opts.timeoutMs} ms`);
      }
      opts.log?.warn({ err, path }, 'PayPal could not be reached');
      throw new ProviderUnavailableError('down', 'PayPal could not be reached');
    }
  }

  /** The body as JSON; reading it is covered by the same timeout as the call. */
  async function readJson<T>(res: Response): Promise<T> {
    try {
      return (await res.json()) as T;
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new ProviderUnavailableError('timeout', 'PayPal did not finish its answer in time');
      throw new ProviderUnavailableError('down', `PayPal answered ${res.status} with a body that is not JSON`);
    }
  }

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64');
    const res = await send('/v1/oauth2/token', {
      method: 'POST',
      headers: {
        Authorization: `Basic ${basic}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    if (!res.ok) {
      // wrong credentials are our configuration's fault, not the customer's: never a 4xx to them
      opts.log?.error({ status: res.status }, 'PayPal refused the client credentials (PAYPAL_CLIENT_ID / PAYPAL_CLIENT_SECRET)');
      throw new ProviderUnavailableError('down', `PayPal refused the access token request (${res.status})`);
    }
    const body = await readJson<{ access_token: string; expires_in: number }>(res);
    token = { value: body.access_token, expiresAt: now() + body.expires_in * 1000 - TOKEN_MARGIN_MS };
    return token.value;
  }

  /** One token request at a time; callers waiting for a token share it. */
  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > now()) return token.value;
    pendingToken ??= fetchToken().finally(() => {
      pendingToken = undefined;
    });
    return pendingToken;
  }

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    { body, requestId }: { body?: unknown; requestId?: string } = {},
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const bearer = await accessToken();
      const res = await send(path, {
        method,
        headers: {
          Authorization: `Bearer ${bearer}`,
          'Content-Type': 'application/json',
          Accept: 'application/json',
          Prefer: 'return=representation',
          ...(requestId ? { 'PayPal-Request-Id': requestId } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      // a token revoked before its time: fetch a new one once (the request id keeps the retry safe)
      if (res.status === 401 && attempt === 0) {
        token = undefined;
        continue;
      }
      if (res.status >= 500) {
        opts.log?.warn({ status: res.status, path }, 'PayPal answered with a server error');
        throw new ProviderUnavailableError('down', `PayPal answered ${res.status}`);
      }
      if (!res.ok) {
        const err = await readJson<PaypalError>(res).catch((): PaypalError => ({}));
        if (res.status === 401 || res.status === 403) {
          opts.log?.error({ status: res.status, path, debugId: err.debug_id }, 'PayPal refused our credentials');
          throw new ProviderUnavailableError('down', `PayPal answered ${res.status}`);
        }
        opts.log?.info(
          { status: res.status, path, name: err.name, issue: err.details?.[0]?.issue, debugId: err.debug_id },
          'PayPal refused the request',
        );
        throw new PaymentRejectedError(
          res.status,
          err.message ?? err.details?.[0]?.description ?? 'PayPal refused the request',
          err.name,
          err.details,
          err.debug_id,
        );
      }
      return readJson<T>(res);
    }
  }

  return {
    name: 'paypal',
    clientId: opts.clientId,

    async createOrder({ requestId, amountCents, currency, description, referenceId }) {
      const order = await call<{ id: string; status: string }>('POST', '/v2/checkout/orders', {
        requestId,
        body: {
          intent: 'CAPTURE',
          purchase_units: [
            {
              ...(referenceId ? { reference_id: referenceId } : {}),
              description: description.slice(0, 127),
              amount: { currency_code: currency, value: centsToDecimalString(amountCents) },
            },
          ],
        },
      });
      return { id: order.id, status: order.status };
    },

    async captureOrder({ orderId, requestId }): Promise<ProviderCapture> {
      const raw = await call<PaypalCaptureAnswer>('POST', `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`, {
        requestId,
        body: {},
      });
      const capture = raw.purchase_units?.[0]?.payments?.captures?.[0];
      return {
        orderId: raw.id,
        status: raw.status,
        capture: capture && {
          id: capture.id,
          status: capture.status,
          amountCents: capture.amount ? decimalStringToCents(capture.amount.value) : undefined,
          currency: capture.amount?.currency_code,
        },
        raw,
      };
    },

    async refundCapture({ captureId, amountCents, currency = 'USD', requestId }) {
      const raw = await call<{ id: string; status: string }>(
        'POST',
        `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`,
        {
          requestId,
          body: { amount: { currency_code: currency, value: centsToDecimalString(amountCents) } },
        },
      );
      return { id: raw.id, status: raw.status, raw };
    },

    // issue 30, in progress: GET order, Payouts and webhook verification
    async getOrder() {
      throw new ProviderUnavailableError('down', 'not implemented yet');
    },
    async createPayoutBatch() {
      throw new ProviderUnavailableError('down', 'not implemented yet');
    },
    async getPayoutBatch() {
      throw new ProviderUnavailableError('down', 'not implemented yet');
    },
    async verifyWebhook() {
      return false;
    },
  };
}
