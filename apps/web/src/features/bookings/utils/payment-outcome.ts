import type { TCaptureResponse } from '@spotter/shared';
import { errorMessage } from '@/lib/api-client';
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
