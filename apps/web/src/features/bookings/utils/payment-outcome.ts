import type { TCaptureResponse } from '@spotter/shared';
import { ApiError, errorMessage } from '@/lib/api-client';
import { createOrder, PaymentError, type OrderFor } from '@/lib/api/payments';

/** docs/product.md#messages-and-errors's words for a failed order and a failed capture. */
export const CHECKOUT_MSG = {
  orderFailed: 'Could not initiate PayPal Checkout...',
  captureFailed: 'Sorry, your transaction could not be processed...',
  declined: 'Your card was declined. Try again, or use another card.',
  pending:
    'PayPal is still processing your payment. We will e-mail you as soon as it completes, and the session is held for you meanwhile; paying again never charges twice.',
} as const;

export type CheckoutFailure = { title: string; detail: string };

/** What the error of a payment call says, with the provider's issue and debug id when it sent them. */
export const failureDetail = (error: unknown) => (error instanceof PaymentError ? error.detail : errorMessage(error));

/**
 * A payment call whose answer ends the checkout, so the dialog shows the server's message and no
 * way to pay again as if nothing happened (docs/decisions/042-money-ledger.md):
 * - `unknown`: the capture's provider did not answer in time or failed (PROVIDER_TIMEOUT,
 *   PROVIDER_UNAVAILABLE), or answered PENDING; the payment may have gone through, the server is
 *   finding out and will e-mail, and the hold is kept meanwhile;
 * - `mismatch`: the provider charged another amount or currency (PAYMENT_MISMATCH); it was refunded and
 *   the session is not booked, so the next try starts from a fresh hold.
 */
export type CheckoutStop = { kind: 'unknown' | 'mismatch'; message: string };

export function stopOf(error: unknown, stage: 'order' | 'capture'): CheckoutStop | null {
  if (!(error instanceof ApiError)) return null;
  // an order that failed charged nothing: the person may simply try again
  if (stage === 'order') return null;
  // a capture answered by a timeout or a server error may have moved money: the server checks
  if (error.code === 'PROVIDER_TIMEOUT' || error.code === 'PROVIDER_UNAVAILABLE')
    return { kind: 'unknown', message: error.message };
  if (error.code === 'PAYMENT_MISMATCH') return { kind: 'mismatch', message: error.message };
  return null;
}

/**
 * Reads a capture answer the way the spec does (purchase_units[0].payments.captures[0]): the
 * capture when it COMPLETED (the booking flow then says so in plain words), otherwise a failure to show.
 */
export function readCapture(
  answer: TCaptureResponse,
): { captureId: string } | { failure: CheckoutFailure } | { stop: CheckoutStop } {
  const transaction = answer.purchase_units?.[0]?.payments?.captures?.[0];
  if (transaction?.status === 'COMPLETED') {
    return { captureId: transaction.id };
  }
  // PayPal is still clearing it (an eCheck, a review): the server asks again until it knows
  if (transaction?.status === 'PENDING' || answer.status === 'PENDING')
    return { stop: { kind: 'unknown', message: CHECKOUT_MSG.pending } };
  const detail = transaction ? `Transaction ${transaction.status}: ${transaction.id}` : `Order ${answer.status}: ${answer.id}`;
  return { failure: { title: CHECKOUT_MSG.captureFailed, detail } };
}

/** 'Paid $150 to Nadia Samir for Mon 30 Nov, 07:00': a payment as a person says it, not the provider's status. */
export const paidText = ({ price, trainerName, when }: { price: string; trainerName: string; when: string }) =>
  `Paid ${price} to ${trainerName} for ${when}`;

/**
 * What a checkout pays for: a held booking, a package, or the held weeks of a weekly series paid by card
 * (docs/product.md#standing-weekly-sessions), all through the same POST /api/orders.
 */
export type PayFor = OrderFor;

/** POST /api/orders for what is paid for; the body is sent as it is, the amount is set by the server. */
export const createOrderFor = (order: PayFor) => createOrder(order);
