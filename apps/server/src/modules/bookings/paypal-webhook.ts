import { PAYMENT_MSG, type TPaypalWebhookEvent } from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import { decimalStringToCents } from '../../lib/money';
import * as bookingsRepo from './bookings.repo';
import type { BookingsContext } from './context';
import * as packagesRepo from './packages.repo';
import * as paymentsRepo from './payments.repo';
import { PAYMENT_JOBS } from './payment-jobs';
import { bookOutsideRefund, recordDispute } from './outside-refund';
import { settleCapture } from './settle-order';

/** The headers PayPal signs a delivery with. */
const SIGNATURE_HEADERS = [
  'paypal-transmission-id',
  'paypal-transmission-time',
  'paypal-transmission-sig',
  'paypal-cert-url',
  'paypal-auth-algo',
] as const;

/** The capture a refund (or a reversal) event is about: its `up` link, as PayPal gives it. */
function captureOf(resource: NonNullable<TPaypalWebhookEvent['resource']>): string | undefined {
  for (const link of resource.links ?? []) {
    if (link.rel !== 'up') continue;
    const m = /\/v2\/payments\/captures\/([A-Za-z0-9_-]{1,100})(?:[/?]|$)/.exec(link.href);
    if (m) return m[1];
  }
  return undefined;
}

/**
 * A PayPal webhook delivery (docs/decisions/042-money-ledger.md#webhooks): verified by PayPal's
 * verify-webhook-signature call before anything changes, applied, then recorded by its event id (a
 * replay changes nothing). A completed capture is settled as the capture call would (its amount and
 * currency checked; without an amount, PayPal's order is asked); a denied one ends an unknown
 * outcome; a refund made outside Spotter, or a reversal, is booked on the ledger (outside-refund.ts).
 */
export async function receivePaypalWebhook(
  ctx: BookingsContext,
  { headers, event, raw }: { headers: Record<string, string | string[] | undefined>; event: TPaypalWebhookEvent; raw?: string },
): Promise<{ received: true; duplicate: boolean }> {
  const paypal = ctx.providers.paypal;
  if (!paypal || !ctx.paypalWebhookId) throw new AppError('NOT_CONFIGURED', PAYMENT_MSG.webhooksOff);
  const signed: Record<string, string> = {};
  for (const name of SIGNATURE_HEADERS) {
    const value = headers[name];
    if (typeof value !== 'string' || !value || value.length > 2048)
      throw new AppError('BAD_REQUEST', PAYMENT_MSG.webhookUnsigned);
    signed[name] = value;
  }
  // a provider that does not answer: 503 from the route's error mapping, and PayPal delivers it again
  // the event as it came: PayPal's signature covers its text, which the schema's parse reorders
  if (!(await paypal.verifyWebhook({ headers: signed, event: raw ?? event, webhookId: ctx.paypalWebhookId }))) {
    ctx.log.warn({ eventId: event.id, type: event.event_type }, 'a PayPal webhook failed its signature check');
    throw new AppError('BAD_REQUEST', PAYMENT_MSG.webhookUnsigned);
  }

  const resource = event.resource ?? {};
  const orderId = resource.supplementary_data?.related_ids?.order_id ?? null;
  // applied first, then recorded: a delivery whose applying failed is applied again when PayPal
  // delivers it again (applying is idempotent: a capture is settled once, by its key)
  if (await paymentsRepo.webhookSeen(ctx.db, 'paypal', event.id)) return { received: true, duplicate: true };

  if (event.event_type === 'PAYMENT.CAPTURE.COMPLETED' && orderId && resource.id) {
    const row = await bookingsRepo.findBookingByOrder(ctx.db, orderId);
    const purchase = row ? undefined : await packagesRepo.findBalanceByOrder(ctx.db, orderId);
    if (purchase?.provider === 'paypal' && purchase.status === 'pending') {
      // a package's order (docs/product.md#packages): settled from PayPal's own order by the check
      await ctx.jobs.enqueue(ctx.db, {
        kind: PAYMENT_JOBS.checkOrder,
        runAt: ctx.now(),
        payload: { provider: 'paypal', orderId },
      });
    } else if (row && row.provider === 'paypal' && !(await paymentsRepo.findPaymentByOrder(ctx.db, 'paypal', orderId))) {
      const amount = resource.amount;
      if (!amount) {
        // nothing to check the amount against: PayPal's order says (the reconciliation job)
        await ctx.jobs.enqueue(ctx.db, {
          kind: PAYMENT_JOBS.checkOrder,
          runAt: ctx.now(),
          payload: { provider: 'paypal', orderId },
        });
      } else {
        await settleCapture(ctx, row, {
          orderId,
          via: 'webhook',
          result: {
            orderId,
            status: 'COMPLETED',
            capture: {
              id: resource.id,
              status: 'COMPLETED',
              amountCents: decimalStringToCents(amount.value),
              currency: amount.currency_code,
            },
            raw: event,
          },
        });
      }
    }
  } else if (
    (event.event_type === 'PAYMENT.CAPTURE.REFUNDED' || event.event_type === 'PAYMENT.CAPTURE.REVERSED') &&
    resource.id &&
    resource.amount
  ) {
    // a refund resource names its capture by its `up` link; a reversal may come as the capture itself
    // (its amount the whole capture's, so only a REVERSED one: a REFUNDED capture may be refunded in part)
    const reversed = event.event_type === 'PAYMENT.CAPTURE.REVERSED';
    const captureId = captureOf(resource) ?? (reversed && resource.supplementary_data ? resource.id : undefined);
    const outcome = await bookOutsideRefund(ctx, {
      kind: reversed ? 'reversal' : 'refund',
      provider: 'paypal',
      providerRefundId: captureId === resource.id ? `${resource.id}:reversed` : resource.id,
      captureId,
      orderId: orderId ?? undefined,
      amountCents: decimalStringToCents(resource.amount.value),
      currency: resource.amount.currency_code,
    });
    ctx.log.warn({ eventId: event.id, type: event.event_type, orderId, captureId, outcome }, 'PayPal gave money back');
  } else if (
    (event.event_type === 'CUSTOMER.DISPUTE.CREATED' || event.event_type === 'CUSTOMER.DISPUTE.RESOLVED') &&
    resource.dispute_id
  ) {
    // a share waits while its payer disputes it; what the payer wins back comes as PAYMENT.CAPTURE.REVERSED
    const captureIds = (resource.disputed_transactions ?? []).flatMap((d) => d.seller_transaction_id ?? []);
    const payments = await recordDispute(ctx, {
      state: event.event_type === 'CUSTOMER.DISPUTE.CREATED' ? 'opened' : 'resolved',
      provider: 'paypal',
      disputeId: resource.dispute_id,
      captureIds,
      outcome: resource.dispute_outcome?.outcome_code,
    });
    ctx.log.warn({ eventId: event.id, type: event.event_type, disputeId: resource.dispute_id, payments }, 'a PayPal dispute');
  } else if (event.event_type !== 'PAYMENT.CAPTURE.COMPLETED') {
    // DENIED ends an unknown outcome with nothing paid (the check-order job settles it)
    ctx.log.warn({ eventId: event.id, type: event.event_type, orderId }, 'PayPal webhook recorded');
  }
  const first = await paymentsRepo.recordWebhook(ctx.db, {
    eventId: event.id,
    provider: 'paypal',
    providerOrderId: orderId,
    details: { type: event.event_type, resourceId: resource.id ?? null, status: resource.status ?? null },
    at: ctx.now(),
  });
  return { received: true, duplicate: !first };
}
