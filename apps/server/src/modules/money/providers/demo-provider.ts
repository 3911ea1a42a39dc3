import { createHash } from 'node:crypto';
import type { PaymentProvider } from './payment-provider';

const idFrom = (prefix: string, seed: string) =>
  `${prefix}-${createHash('sha256').update(seed).digest('hex').slice(0, 17).toUpperCase()}`;

/**
 * The default provider when PayPal is not configured: the same flow and answers, no money moves
 * (the browser labels it 'Demo payment: no money moves'). Ids are derived from the request ids, so
 * it is idempotent without keeping state and works the same across processes and restarts.
 */
export function createDemoProvider(): PaymentProvider {
  return {
    name: 'demo',
    async createOrder({ requestId }) {
      return { id: idFrom('DEMO', requestId), status: 'CREATED' };
    },
    async captureOrder({ orderId }) {
      const captureId = idFrom('DEMO-CAPTURE', orderId);
      const raw = {
        id: orderId,
        status: 'COMPLETED',
        purchase_units: [{ payments: { captures: [{ id: captureId, status: 'COMPLETED' }] } }],
        demo: true,
      };
      return { orderId, status: 'COMPLETED', capture: { id: captureId, status: 'COMPLETED' }, raw };
    },
    async refundCapture({ captureId, requestId }) {
      const id = idFrom('DEMO-REFUND', `${captureId}:${requestId}`);
      return { id, status: 'COMPLETED', raw: { id, status: 'COMPLETED', demo: true } };
    },
    // a demo capture always answers at once, so its outcome is never unknown and nothing asks this
    async getOrder({ orderId }) {
      return { id: orderId, status: 'APPROVED', refundedCents: 0, raw: { id: orderId, status: 'APPROVED', demo: true } };
    },
    // a demo payout is paid at once: its items answer SUCCESS in the batch's first answer
    async createPayoutBatch({ senderBatchId, items }) {
      const batchId = idFrom('DEMO-PAYOUT', senderBatchId);
      const answer = {
        batchId,
        status: 'SUCCESS',
        items: items.map((i) => ({
          senderItemId: i.senderItemId,
          itemId: idFrom('DEMO-ITEM', i.senderItemId),
          status: 'SUCCESS',
        })),
      };
      return { ...answer, raw: { ...answer, demo: true } };
    },
    async getPayoutBatch({ batchId }) {
      return { batchId, status: 'SUCCESS', items: [], raw: { batchId, status: 'SUCCESS', demo: true } };
    },
    // a demo payout is never unclaimed; taking one back answers what PayPal answers
    async cancelPayoutItem({ itemId }) {
      return { itemId, status: 'RETURNED' };
    },
    async verifyWebhook() {
      return false;
    },
  };
}
