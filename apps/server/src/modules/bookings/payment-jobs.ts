import { z } from 'zod';
import { defineJob } from '../../platform/jobs';
import type { TCaptureResponse } from '@spotter/shared';
import { ProviderUnavailableError, type ProviderCapture } from '../money';
import { providerOf, type BookingsContext } from './context';
import * as paymentsRepo from './payments.repo';

/** The first look at an order whose capture's outcome is not known. */
const CHECK_AFTER_MS = 60_000;

/**
 * The bookings module's money jobs (docs/decisions/042-money-ledger.md#unknown-outcomes): each is
 * enqueued in the transaction that records why, so a crash after it still finishes the work.
 */
export const PAYMENT_JOBS = {
  /** A capture whose outcome is not known (a timeout, a 5xx, PENDING): ask the provider until it is settled. */
  checkOrder: defineJob(
    'payment.check-order',
    z.object({ provider: z.enum(['paypal', 'demo']), orderId: z.string().min(1) }),
    // an eCheck can stay PENDING for days, and PayPal can be down for longer than five tries
    { retries: 'until-done' },
  ),
  /** A refund written but not known to be done: ask the provider again, with the same request id. */
  finishRefund: defineJob(
    'payment.finish-refund',
    z.object({
      refundId: z.string().min(1),
      cancelledBy: z.enum(['user', 'trainer']).optional(),
      cancelReason: z.string().nullable().optional(),
    }),
    { retries: 'until-done' },
  ),
};

type UnknownCapture = {
  provider: 'paypal' | 'demo';
  orderId: string;
  /** The booking the order pays for; null for a package's order (then `details` names the balance). */
  bookingId: string | null;
  details?: Record<string, unknown>;
};

/**
 * Records that a capture's outcome is not known (a timeout, a 5xx, PENDING) and queues the check of
 * its order, in one transaction (docs/decisions/042-money-ledger.md#unknown-outcomes): for a
 * session's order (capture-order.ts) and a package's (packages.ts) alike.
 */
export async function recordUnknownCapture(ctx: BookingsContext, c: UnknownCapture & { why: string }) {
  await ctx.db.transaction(async (tx) => {
    await paymentsRepo.recordPaymentEvent(tx, {
      kind: 'capture-unknown',
      bookingId: c.bookingId,
      provider: c.provider,
      providerOrderId: c.orderId,
      details: { why: c.why, ...c.details },
      at: ctx.now(),
    });
    await ctx.jobs.enqueue(tx, {
      kind: PAYMENT_JOBS.checkOrder,
      runAt: new Date(ctx.now().getTime() + CHECK_AFTER_MS),
      payload: { provider: c.provider, orderId: c.orderId },
    });
  });
}

/**
 * The check job's reading of an order: the provider's order is asked for; a completed capture goes
 * to `settle`; one still PENDING throws, so the job asks again later; anything else (still
 * APPROVED, VOIDED, declined) is recorded as not captured, nothing to place.
 */
export async function checkProviderOrder(
  ctx: BookingsContext,
  c: UnknownCapture,
  settle: (result: ProviderCapture) => Promise<unknown>,
) {
  const state = await providerOf(ctx, c.provider).getOrder({ orderId: c.orderId });
  const capture = state.capture;
  if (capture?.status === 'PENDING') throw new Error(`the capture of order ${c.orderId} is still PENDING`);
  // a capture refunded at PayPal meanwhile is not money to book on: recorded below for the ledger check
  if (state.status === 'COMPLETED' && capture?.status === 'COMPLETED') {
    await settle({ orderId: c.orderId, status: 'COMPLETED', capture: { ...capture, status: 'COMPLETED' }, raw: state.raw });
    return;
  }
  await paymentsRepo.recordPaymentEvent(ctx.db, {
    kind: 'capture-settled',
    bookingId: c.bookingId,
    provider: c.provider,
    providerOrderId: c.orderId,
    details: {
      via: 'check',
      outcome: 'not-captured',
      status: state.status,
      captureStatus: capture?.status ?? null,
      ...c.details,
    },
    at: ctx.now(),
  });
}

/**
 * Asks the provider to capture a purchase's order (a package's, packages.ts; a weekly series',
 * weekly-series.ts), which no booking has: the completed capture to settle, or the answer to give
 * when it did not complete. An outcome not known (a timeout, a 5xx, PENDING) is recorded for the
 * check job first (docs/decisions/042-money-ledger.md#unknown-outcomes).
 */
export async function capturePurchase(
  ctx: BookingsContext,
  purchase: { id: string; provider: 'paypal' | 'demo' | null; details: Record<string, unknown> },
  orderId: string,
): Promise<{ completed: ProviderCapture } | { answer: TCaptureResponse }> {
  const p = providerOf(ctx, purchase.provider);
  const unknown = (why: string) =>
    recordUnknownCapture(ctx, { provider: p.name, orderId, bookingId: null, why, details: purchase.details });
  let result;
  try {
    result = await p.captureOrder({ orderId, requestId: `spotter-capture-${orderId}` });
  } catch (err) {
    if (err instanceof ProviderUnavailableError) await unknown(err.reason);
    throw err;
  }
  const capture = result.capture;
  if (result.status === 'COMPLETED' && capture?.status === 'COMPLETED') return { completed: result };
  if (capture?.status === 'PENDING' || result.status === 'PENDING') await unknown('PENDING');
  return {
    answer: {
      id: result.orderId,
      status: result.status,
      purchase_units: [
        { reference_id: purchase.id, payments: { captures: capture ? [{ id: capture.id, status: capture.status }] : [] } },
      ],
    },
  };
}
