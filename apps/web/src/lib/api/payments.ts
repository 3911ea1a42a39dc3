import { useQuery } from '@tanstack/react-query';
import type { TCaptureResponse, TOrderResponse, TPaymentErrorResponse, TPaymentsResponse } from '@spotter/shared';
import { ApiError, apiRequest, errorCodeOf, NETWORK_ERROR_MESSAGE } from '../api-client';
import { storage } from '../storage';

/**
 * Payments (docs/product.md#booking-and-payment): which provider takes them, the order and capture of a held booking,
 * and the caller's payments (a user's) or earnings (a trainer's).
 */
export const paymentKeys = {
  all: ['payments'] as const,
  config: () => [...paymentKeys.all, 'config'] as const,
  /** The token is part of the key, so an account switch never shows another's payments. */
  list: (viewer: string | null) => [...paymentKeys.all, 'list', viewer] as const,
};

type PaymentsConfig = { provider: 'paypal' | 'demo'; clientId?: string; currency: string; label?: string };

/** GET /api/payments/config: PayPal (with its public client id) or the demo provider. */
const getPaymentsConfig = (signal?: AbortSignal) => apiRequest<PaymentsConfig>('/payments/config', { signal });

export function usePaymentsConfig() {
  return useQuery({ queryKey: paymentKeys.config(), queryFn: ({ signal }) => getPaymentsConfig(signal), staleTime: Infinity });
}

/** GET /api/payments: a user's payments or a trainer's earnings, with totals and the upcoming sessions. */
const getPayments = (signal?: AbortSignal) => apiRequest<TPaymentsResponse>('/payments', { signal });

export function usePayments(viewer: string | null) {
  return useQuery({ queryKey: paymentKeys.list(viewer), queryFn: ({ signal }) => getPayments(signal) });
}

/**
 * A refused payment call with the provider's answer kept (docs/product.md#data: `details[0].issue`,
 * `description`, `debug_id`), so INSTRUMENT_DECLINED can restart the checkout.
 */
export class PaymentError extends ApiError {
  readonly issue?: string;
  readonly description?: string;
  readonly debugId?: string;

  constructor(status: number, body: Partial<TPaymentErrorResponse> | null) {
    const message = body?.message || `Something went wrong (${status}). Please try again.`;
    super(status, message, undefined, errorCodeOf(body));
    this.name = 'PaymentError';
    this.issue = body?.details?.[0]?.issue;
    this.description = body?.details?.[0]?.description;
    this.debugId = body?.debug_id;
  }

  /** The card was declined: the spec restarts the flow rather than showing an error. */
  get isDeclined() {
    return this.issue === 'INSTRUMENT_DECLINED';
  }

  /** "ISSUE description (debug_id)" as PayPal's own sample shows it; the message when there are no details. */
  get detail() {
    if (!this.issue) return this.message;
    return [`${this.issue}${this.description ? ` ${this.description}` : ''}`, this.debugId && `(${this.debugId})`]
      .filter(Boolean)
      .join(' ');
  }
}

/**
 * POSTs to a payment endpoint. Not apiRequest: its ApiError keeps only `message` and `errors`,
 * and a provider's refusal must keep `details` and `debug_id`.
 */
async function postPayment<T>(path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = storage.getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method: 'POST',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new PaymentError(response.status, data as Partial<TPaymentErrorResponse> | null);
  return data as T;
}

/**
 * What an order pays for: a held booking, the held weeks of a weekly series
 * (docs/product.md#standing-weekly-sessions), or a package to buy (docs/product.md#packages).
 */
export type OrderFor = { bookingId: string } | { seriesId: string } | { packageId: string };

/** POST /api/orders: the payment order of a held booking or a package; the amount is set by the server. */
export const createOrder = (input: OrderFor) => postPayment<TOrderResponse>('/orders', input);

/** POST /api/orders/:orderID/capture: takes the money and confirms the booking (or adds the package's balance). */
export const captureOrder = (orderId: string) => postPayment<TCaptureResponse>(`/orders/${encodeURIComponent(orderId)}/capture`);
