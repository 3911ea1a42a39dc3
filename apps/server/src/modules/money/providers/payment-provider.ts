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

/** An order as the provider sees it now (GET /v2/checkout/orders/{id}): what reconciliation asks. */
export type ProviderOrderState = {
  id: string;
  /** CREATED, APPROVED, COMPLETED, VOIDED, PAYER_ACTION_REQUIRED… */
  status: string;
  /** What the order asks for. */
  amountCents?: number;
  currency?: string;
  /** Its capture, once there is one (status COMPLETED, PENDING, DECLINED, REFUNDED, PARTIALLY_REFUNDED…). */
  capture?: { id: string; status: string; amountCents?: number; currency?: string };
  /** What was refunded of it so far, in the capture's currency. */
  refundedCents: number;
  /** Those refunds, each by the provider's id (where the provider lists them). */
  refunds?: Array<{ id: string; amountCents: number; currency: string }>;
  raw: unknown;
};

/** One payout of a batch, as sent. `senderItemId` is ours (the payout's id). */
export type PayoutItemRequest = { senderItemId: string; email: string; amountCents: number; currency: string; note: string };

/** A batch of payouts as the provider sees it (GET /v1/payments/payouts/{payout_batch_id}). */
export type ProviderPayoutBatch = {
  batchId: string;
  /** PENDING, PROCESSING, SUCCESS, DENIED, CANCELED */
  status: string;
  /** Each item: SUCCESS, FAILED, PENDING, UNCLAIMED, RETURNED, ONHOLD, BLOCKED, REFUNDED, REVERSED. */
  items: Array<{ senderItemId: string; itemId?: string; status: string }>;
  raw: unknown;
};

/** The headers PayPal signs a webhook with (lower-case names), and the event as it came. */
export type WebhookDelivery = { headers: Record<string, string | undefined>; event: unknown };

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
  /** The order now: asked when a capture's outcome is not known (a timeout, a 5xx, PENDING). */
  getOrder(input: { orderId: string }): Promise<ProviderOrderState>;
  /**
   * Sends a batch of payouts once: the same `senderBatchId` again answers the first batch (PayPal
   * refuses a repeated sender_batch_id; the adapter then finds that batch) and pays nothing twice.
   */
  createPayoutBatch(input: { senderBatchId: string; items: PayoutItemRequest[] }): Promise<ProviderPayoutBatch>;
  getPayoutBatch(input: { batchId: string }): Promise<ProviderPayoutBatch>;
  /**
   * Takes back an UNCLAIMED payout item (POST /v1/payments/payouts-item/{id}/cancel): answered
   * RETURNED, its money is back with Spotter and can be paid again without paying twice. Refused
   * (PaymentRejectedError) when the item is no longer unclaimed (claimed meanwhile).
   */
  cancelPayoutItem(input: { itemId: string }): Promise<{ itemId: string; status: string }>;
  /**
   * Whether PayPal sent this webhook (POST /v1/notifications/verify-webhook-signature with
   * `webhookId`): false for a forged or altered one. The demo provider takes no webhooks (false).
   */
  verifyWebhook(input: WebhookDelivery & { webhookId: string }): Promise<boolean>;
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
