import { describe, expect, it } from 'vitest';
import { forgetPushDevice } from './forget-push-device';

function fakes(endpoint: string | null) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  let unsubscribed = false;
  const subscription = endpoint
    ? {
        endpoint,
        unsubscribe: async () => {
          unsubscribed = true;
          return true;
        },
      }
    : null;
  const container = {
    getRegistration: async () =>
      ({ pushManager: { getSubscription: async () => subscription } }) as unknown as ServiceWorkerRegistration,
  };
  const fetchApi = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(null, { status: 204 });
  }) as unknown as typeof fetch;
  return { calls, container, fetchApi, unsubscribed: () => unsubscribed };
}

describe('forgetPushDevice (logout)', () => {
  it('tells the server to forget this device, with the token given up, and ends the browser’s subscription', async () => {
    const f = fakes('https://fcm.googleapis.com/fcm/send/abc');
    await forgetPushDevice('tok', { fetchApi: f.fetchApi, container: f.container });
    expect(f.calls).toHaveLength(1);
    expect(f.calls[0].url).toBe('/api/push/subscriptions');
    expect(f.calls[0].init).toMatchObject({ method: 'DELETE', headers: { Authorization: 'Bearer tok' } });
    expect(JSON.parse(String(f.calls[0].init.body))).toEqual({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc' });
    expect(f.unsubscribed()).toBe(true);
  });

  it('does nothing for a browser without a subscription, or without a token', async () => {
    const none = fakes(null);
    await forgetPushDevice('tok', { fetchApi: none.fetchApi, container: none.container });
    expect(none.calls).toEqual([]);
    const some = fakes('https://fcm.googleapis.com/fcm/send/abc');
    await forgetPushDevice(null, { fetchApi: some.fetchApi, container: some.container });
    expect(some.calls).toEqual([]);
    expect(some.unsubscribed()).toBe(false);
  });

  it('still ends the subscription when the server cannot be reached', async () => {
    const f = fakes('https://fcm.googleapis.com/fcm/send/abc');
    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    await forgetPushDevice('tok', { fetchApi: offline, container: f.container });
    expect(f.unsubscribed()).toBe(true);
  });
});
