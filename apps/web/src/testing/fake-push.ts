import type { PushKind, TPushSubscription, TPushSubscriptionRequest } from '@spotter/shared';
import type { PushEnv } from '@/lib/push';

/**
 * A browser and a push API for tests of lib/push.ts' users: a PushManager that subscribes at once, a
 * permission the test sets (and `requestPermission` answers), and a server that keeps devices in memory.
 */
export function fakePushEnv({
  isSupported = true,
  permission = 'default' as NotificationPermission,
  answer = 'granted' as NotificationPermission,
  publicKey = 'BPublicKey_-0123456789' as string | null,
  now = Date.UTC(2026, 11, 7),
  failSave = false,
} = {}) {
  const state = {
    permission,
    subscription: null as null | { endpoint: string; kinds?: PushKind[] },
    devices: [] as TPushSubscription[],
    saved: [] as TPushSubscriptionRequest[],
    removed: [] as string[],
    requested: 0,
    subscribeKeys: [] as Uint8Array[],
    now,
    store: new Map<string, string>(),
  };
  const browserSubscription = (endpoint: string) => ({
    endpoint,
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) } }),
    unsubscribe: () => {
      state.subscription = null;
      return Promise.resolve(true);
    },
  });
  const env: PushEnv = {
    isSupported,
    permission: () => state.permission,
    requestPermission: () => {
      state.requested++;
      state.permission = answer;
      return Promise.resolve(answer);
    },
    pushManager: () =>
      Promise.resolve({
        getSubscription: () => Promise.resolve(state.subscription ? browserSubscription(state.subscription.endpoint) : null),
        subscribe: (options) => {
          state.subscribeKeys.push(options.applicationServerKey);
          state.subscription = { endpoint: 'https://push.example/device-1' };
          return Promise.resolve(browserSubscription(state.subscription.endpoint));
        },
      }),
    api: {
      getConfig: () => Promise.resolve({ publicKey }),
      getSubscriptions: () => Promise.resolve(state.devices),
      save: (body) => {
        if (failSave) return Promise.reject(new Error('Could not reach Spotter. Check your connection and try again.'));
        state.saved.push(body);
        const device = {
          endpoint: body.endpoint,
          kinds: body.kinds ?? ['message'],
          createdAt: new Date(state.now).toISOString(),
        };
        state.devices = [device, ...state.devices.filter((d) => d.endpoint !== body.endpoint)];
        return Promise.resolve(device);
      },
      remove: (endpoint) => {
        state.removed.push(endpoint);
        state.devices = state.devices.filter((d) => d.endpoint !== endpoint);
        return Promise.resolve();
      },
    },
    store: { getItem: (k) => state.store.get(k) ?? null, setItem: (k, v) => void state.store.set(k, v) },
    now: () => state.now,
  };
  return { env, state };
}
