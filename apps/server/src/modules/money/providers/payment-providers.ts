import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../config';
import { createDemoProvider } from './demo-provider';
import type { PaymentProvider, ProviderName } from './payment-provider';
import { createPaypalProvider } from './paypal-provider';

/**
 * PayPal when PAYPAL_CLIENT_ID is set (and then its secret must be too), the demo provider
 * otherwise. The demo provider stays available for refunds of demo payments made before.
 */
export function createPaymentProviders(
  paypal: Config['paypal'],
  log: FastifyBaseLogger,
): { provider: PaymentProvider; providers: Partial<Record<ProviderName, PaymentProvider>> } {
  const demo = createDemoProvider();
  if (!paypal.clientId) return { provider: demo, providers: { demo } };
  if (!paypal.clientSecret) throw new Error('PAYPAL_CLIENT_SECRET is required when PAYPAL_CLIENT_ID is set');
  const provider = createPaypalProvider({
    clientId: paypal.clientId,
    clientSecret: paypal.clientSecret,
    apiBase: paypal.apiBase,
    timeoutMs: paypal.timeoutMs,
    log,
  });
  return { provider, providers: { paypal: provider, demo } };
}
