import { afterAll } from 'vitest';
import { useTestApp } from '../helper';
import { startFakePaypal } from './fake-paypal';

/**
 * What the app answers when PayPal failed (a 5xx: 502), or, on a loaded machine, answered that failure
 * after the app's timeout (504): an unknown outcome either way, recorded and checked by a job. For
 * tests of what is recorded; the tests of the answer itself (paypal.api.test.ts) use a longer timeout.
 */
export const PROVIDER_DOWN = [502, 504];

/**
 * The file's app wired to the local fake of PayPal's REST API (support/fake-paypal.ts), both closed
 * after the file. `timeoutMs` is the app's PayPal timeout (long enough that a loaded 2-core machine
 * still gets the fake's prompt answers in time); a 'slow' answer comes after `slowMs`, well past it.
 */
export async function usePaypalApp({
  timeoutMs = 2_000,
  slowMs,
  env = {},
}: { timeoutMs?: number; slowMs?: number; env?: Record<string, string> } = {}) {
  const paypal = await startFakePaypal({ slowMs: slowMs ?? timeoutMs * 3 });
  afterAll(() => paypal.close());
  const t = await useTestApp({
    PAYPAL_CLIENT_ID: paypal.clientId,
    PAYPAL_CLIENT_SECRET: paypal.clientSecret,
    PAYPAL_API_BASE: paypal.url,
    PAYPAL_TIMEOUT_MS: String(timeoutMs),
    ...env,
  });
  return { t, paypal };
}
