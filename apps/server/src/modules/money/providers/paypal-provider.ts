import type { FastifyBaseLogger } from 'fastify';
import { decimalStringToCents, providerAmountValue } from '../../../lib/money';
import {
  PaymentRejectedError,
  ProviderUnavailableError,
  type PaymentProvider,
  type ProviderCapture,
  type ProviderOrderState,
  type ProviderPayoutBatch,
} from './payment-provider';

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
type PaypalAmount = { currency_code: string; value: string };
type PaypalCaptureAnswer = {
  id: string;
  status: string;
  purchase_units?: Array<{
    amount?: PaypalAmount;
    payments?: {
      captures?: Array<{ id: string; status: string; amount?: PaypalAmount }>;
      refunds?: Array<{ id: string; status: string; amount?: PaypalAmount }>;
    };
  }>;
};
type PaypalPayoutBatchAnswer = {
  batch_header: { payout_batch_id: string; batch_status: string };
  items?: Array<{ payout_item_id?: string; transaction_status?: string; payout_item?: { sender_item_id?: string } }>;
  links?: PaypalLink[];
};
type PaypalLink = { href: string; rel: string; method?: string };

/** Refunds that are not FAILED or CANCELLED: money PayPal has returned or is returning to the payer. */
const COUNTED_REFUND = (status: string) => status !== 'FAILED' && status !== 'CANCELLED';
/** Pages of a payout batch followed at most (1000 items a page is more than a batch of Spotter's holds). */
const MAX_PAYOUT_PAGES = 20;
/** The webhook headers verify-webhook-signature needs, by its field names. */
const WEBHOOK_HEADERS = {
  auth_algo: 'paypal-auth-algo',
  cert_url: 'paypal-cert-url',
  transmission_id: 'paypal-transmission-id',
  transmission_sig: 'paypal-transmission-sig',
  transmission_time: 'paypal-transmission-time',
} as const;

/**
 * The batch PayPal names when it refuses a sender_batch_id used in the last 30 days: a 400
 * USER_BUSINESS_ERROR whose detail (field SENDER_BATCH_ID) links to the original payout. `null`
 * when it is that refusal without a link; undefined when it is another error.
 */
function earlierBatchId(err: unknown): string | null | undefined {
  if (!(err instanceof PaymentRejectedError) || err.statusCode !== 400) return undefined;
  const detail = (err.details as Array<{ field?: string; issue?: string; link?: PaypalLink[] }> | undefined)?.find(
    (d) => d.field === 'SENDER_BATCH_ID' || /sender_batch_id already exists/i.test(d.issue ?? ''),
  );
  if (!detail) return undefined;
  const href = detail.link?.find((l) => /\/v1\/payments\/payouts\/[^/?]+/.test(l.href))?.href;
  const m = href && /\/v1\/payments\/payouts\/([^/?]+)/.exec(href);
  return m ? decodeURIComponent(m[1]) : null;
}

function toPayoutBatch(answer: PaypalPayoutBatchAnswer, raw: unknown = answer): ProviderPayoutBatch {
  return {
    batchId: answer.batch_header.payout_batch_id,
    status: answer.batch_header.batch_status,
    items: (answer.items ?? []).map((i) => ({
      senderItemId: i.payout_item?.sender_item_id ?? '',
      itemId: i.payout_item_id,
      status: i.transaction_status ?? 'PENDING',
    })),
    raw,
  };
}

/** Tokens are renewed this long before PayPal says they expire. */
const TOKEN_MARGIN_MS = 60_000;

/**
 * PayPal's REST APIs (Orders v2, Payments v2 refunds, Payouts v1, verify-webhook-signature) over
 * global fetch: OAuth client credentials (token cached until shortly before it expires), a
 * PayPal-Request-Id on every write, a timeout on every call, and errors mapped: 4xx answers are
 * passed through, 5xx, network errors and timeouts become ProviderUnavailableError.
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

  /** A payout batch and all its items (following the pages PayPal links). */
  async function getPayoutBatch({ batchId }: { batchId: string }): Promise<ProviderPayoutBatch> {
    const base = `/v1/payments/payouts/${encodeURIComponent(batchId)}`;
    let path: string | undefined = `${base}?page=1&page_size=1000`;
    const pages: PaypalPayoutBatchAnswer[] = [];
    while (path && pages.length < MAX_PAYOUT_PAGES) {
      const page: PaypalPayoutBatchAnswer = await call<PaypalPayoutBatchAnswer>('GET', path);
      pages.push(page);
      const next = page.links?.find((l) => l.rel === 'next')?.href;
      // the next page of this batch only (the link is absolute, on PayPal's host)
      const query = next?.split('?')[1];
      path = next && (page.items?.length ?? 0) > 0 ? `${base}?${query ?? ''}` : undefined;
    }
    const all = { ...pages[0], items: pages.flatMap((p) => p.items ?? []) };
    return toPayoutBatch(all, pages.length === 1 ? pages[0] : all);
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
              amount: { currency_code: currency, value: providerAmountValue(amountCents, currency) },
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
          body: { amount: { currency_code: currency, value: providerAmountValue(amountCents, currency) } },
        },
      );
      return { id: raw.id, status: raw.status, raw };
    },

    // the order as PayPal has it now; amounts are passed as PayPal states them, compared by the caller
    async getOrder({ orderId }): Promise<ProviderOrderState> {
      const raw = await call<PaypalCaptureAnswer>('GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`);
      const units = raw.purchase_units ?? [];
      const amount = units[0]?.amount;
      const capture = units.flatMap((u) => u.payments?.captures ?? [])[0];
      const refunds = units
        .flatMap((u) => u.payments?.refunds ?? [])
        .filter((r) => r.amount && COUNTED_REFUND(r.status))
        .map((r) => ({ id: r.id, amountCents: decimalStringToCents(r.amount!.value), currency: r.amount!.currency_code }));
      const refundedCents = refunds.reduce((sum, r) => sum + r.amountCents, 0);
      return {
        id: raw.id,
        status: raw.status,
        amountCents: amount ? decimalStringToCents(amount.value) : undefined,
        currency: amount?.currency_code,
        capture: capture && {
          id: capture.id,
          status: capture.status,
          amountCents: capture.amount ? decimalStringToCents(capture.amount.value) : undefined,
          currency: capture.amount?.currency_code,
        },
        refundedCents,
        refunds,
        raw,
      };
    },

    /**
     * Pays a batch once. The sender_batch_id and the PayPal-Request-Id are both `senderBatchId`: a
     * retry PayPal still knows by its request id answers the first answer; otherwise PayPal refuses
     * the repeated sender_batch_id (400 USER_BUSINESS_ERROR, linking the first batch) and that batch
     * is read and answered. Payouts v1 has no look-up by sender_batch_id, so a refusal without the
     * link leaves the outcome unknown (ProviderUnavailableError), never a refusal that would make
     * the money payable again. The create answer names the batch only (PENDING, no items yet).
     */
    async createPayoutBatch({ senderBatchId, items }) {
      try {
        const raw = await call<PaypalPayoutBatchAnswer>('POST', '/v1/payments/payouts', {
          requestId: senderBatchId,
          body: {
            sender_batch_header: {
              sender_batch_id: senderBatchId,
              recipient_type: 'EMAIL',
              email_subject: 'A payout from Spotter',
            },
            items: items.map((i) => ({
              recipient_type: 'EMAIL',
              receiver: i.email,
              amount: { value: providerAmountValue(i.amountCents, i.currency), currency: i.currency },
              note: i.note.slice(0, 1000),
              sender_item_id: i.senderItemId,
            })),
          },
        });
        return toPayoutBatch(raw);
      } catch (err) {
        const earlier = earlierBatchId(err);
        if (earlier === undefined) throw err;
        if (earlier === null) {
          opts.log?.error({ senderBatchId }, 'PayPal says this payout batch was sent before but does not name it');
          throw new ProviderUnavailableError('down', `PayPal has a batch ${senderBatchId} already and did not name it`);
        }
        opts.log?.info({ senderBatchId, batchId: earlier }, 'PayPal had this payout batch already: answering the first one');
        return getPayoutBatch({ batchId: earlier });
      }
    },

    getPayoutBatch,

    async cancelPayoutItem({ itemId }) {
      const raw = await call<{ payout_item_id?: string; transaction_status?: string }>(
        'POST',
        `/v1/payments/payouts-item/${encodeURIComponent(itemId)}/cancel`,
        { requestId: `spotter-cancel-${itemId}` },
      );
      return { itemId: raw.payout_item_id ?? itemId, status: raw.transaction_status ?? 'UNKNOWN' };
    },

    /**
     * Asks PayPal whether it sent this delivery (verify-webhook-signature): true only for
     * SUCCESS. A delivery without PayPal's headers, or a 4xx, is false; 5xx, network errors and
     * timeouts throw ProviderUnavailableError (the route answers 503 and PayPal delivers again).
     */
    async verifyWebhook({ headers, event, webhookId }) {
      const fields: Record<string, string> = {};
      for (const [field, header] of Object.entries(WEBHOOK_HEADERS)) {
        const value = headers[header];
        if (!value) return false;
        fields[field] = value;
      }
      let webhookEvent = event;
      if (typeof event === 'string') {
        try {
          webhookEvent = JSON.parse(event);
        } catch {
          return false;
        }
      }
      if (!webhookEvent || typeof webhookEvent !== 'object' || !webhookId) return false;
      try {
        const answer = await call<{ verification_status?: string }>('POST', '/v1/notifications/verify-webhook-signature', {
          body: { ...fields, webhook_id: webhookId, webhook_event: webhookEvent },
        });
        return answer.verification_status === 'SUCCESS';
      } catch (err) {
        if (err instanceof PaymentRejectedError) return false;
        throw err;
      }
    },
  };
}
