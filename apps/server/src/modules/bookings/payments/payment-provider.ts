/**
 * What Spotter needs from a card payment provider (docs/product.md#booking-and-payment). Every write carries a request id
 * derived from the booking, order or payment, so a retried call never charges or refunds twice.
 */
export type ProviderName = 'paypal' | 'demo';

export type ProviderOrder = { id: string; status: string };

export type ProviderCapture = {
  orderId: string;
  /** The order's status, COMPLETED once captured. */
  status: string;
  capture?: { id: string; status: string; amountCents?: number; currency?: string };
  /** The provider's answer as it came, stored with the payment. */
  raw: unknown;
};

export type ProviderRefund = { id: string; status: string; raw: unknown };

export interface PaymentProvider {
  readonly name: ProviderName;
  /** The public client id the browser's checkout needs (PayPal only). */
  readonly clientId?: string;
  createOrder(input: {
    requestId: string;
    amountCents: number;
    currency: string;
    description: string;
    referenceId?: string;
  }): Promise<ProviderOrder>;
  captureOrder(input: { orderId: string; requestId: string }): Promise<ProviderCapture>;
  refundCapture(input: { captureId: string; amountCents: number; currency?: string; requestId: string }): Promise<ProviderRefund>;
}

/**
 * The provider refused the call (a declined card, an order not approved yet…): its answer is passed
 * to the browser as it came, so `details[0].issue` INSTRUMENT_DECLINED can restart the checkout.
 */
export class PaymentRejectedError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly providerName?: string,
    public readonly details?: Array<{ issue: string; description?: string; field?: string }>,
    public readonly debugId?: string,
  ) {
    super(message);
    this.name = 'PaymentRejectedError';
  }
}

/** The provider did not answer usefully (5xx, network error, timeout): nothing is recorded as paid. */
export class ProviderUnavailableError extends Error {
  constructor(
    public readonly reason: 'down' | 'timeout',
    message: string,
  ) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}
