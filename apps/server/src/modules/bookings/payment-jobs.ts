import { z } from 'zod';
import { defineJob } from '../../platform/jobs';

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
