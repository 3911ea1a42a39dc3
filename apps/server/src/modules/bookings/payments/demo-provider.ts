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
  };
}
