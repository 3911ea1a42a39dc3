import type { TCaptureResponse } from '@spotter/shared';
import { ApiError, errorMessage } from '@/lib/api-client';
import { PaymentError } from '@/lib/api/payments';

/** docs/product.md#messages-and-errors's words for a failed order and a failed capture. */
export const CHECKOUT_MSG = {
  orderFailed: 'Could not initiate PayPal Checkout...',
  captureFailed: 'Sorry, your transaction could not be processed...',
  declined: 'Your card was declined. Try again, or use another card.',
} as const;

export type CheckoutFailure = { title: string; detail: string };

/** What the error of a payment call says, with the provider's issue and debug id when it sent them. */
export const failureDetail = (error: unknown) => (error instanceof PaymentError ? error.detail : errorMessage(error));

/**
 * A payment call whose answer ends the checkout, so the dialog shows the server's message and no
 * way to pay again as if nothing happened (docs/decisions/042-money-ledger.md):
 * - `unknown`: the provider did not answer in time (PROVIDER_TIMEOUT); the payment may have gone
 *   through, the server is finding out and will e-mail, and the hold is kept meanwhile;
 * - `mismatch`: the provider charged another amount or currency (PAYMENT_MISMATCH); it was refunded and
 *   the session is not booked, so the next try starts from a fresh hold.
 */
export type CheckoutStop = { kind: 'unknown' | 'mismatch'; message: string };

export function stopOf(error: unknown): CheckoutStop | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'PROVIDER_TIMEOUT') return { kind: 'unknown', message: error.message };
  if (error.code === 'PAYMENT_MISMATCH') return { kind: 'mismatch', message: error.message };
  return null;
}

/**
 * Reads a capture answer the way the spec does (purchase_units[0].payments.captures[0]): the
 * capture when it COMPLETED (the booking flow then says so in plain words), otherwise a failure to show.
 */
export function readCapture(answer: TCaptureResponse): { captureId: string } | { failure: CheckoutFailure } {
  const transaction = answer.purchase_units?.[0]?.payments?.captures?.[0];
  if (transaction?.status === 'COMPLETED') {
    return { captureId: transaction.id };
  }
  const detail = transaction ? `Transaction ${transaction.status}: ${transaction.id}` : `Order ${answer.status}: ${answer.id}`;
  return { failure: { title: CHECKOUT_MSG.captureFailed, detail } };
}

/** 'Paid $150 to Nadia Samir for Mon 30 Nov, 07:00': a payment as a person says it, not the provider's status. */
export const paidText = ({ price, trainerName, when }: { price: string; trainerName: string; when: string }) =>
  `Paid ${price} to ${trainerName} for ${when}`;
