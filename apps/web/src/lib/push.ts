import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { PushKind, TPushConfig, TPushSubscription, TPushSubscriptionRequest } from '@spotter/shared';
import { deletePushSubscription, getPushConfig, getPushSubscriptions, pushKeys, savePushSubscription } from './api/push';

/**
 * Web Push on this device (docs/product.md#notifications): whether the browser can, the permission,
 * subscribing with the server's key and telling the server which kinds this device wants. Everything
 * the browser and the API give comes through a `PushEnv`, so tests pass fakes (`PushEnvContext`).
 */

type PushSubscriptionLike = {
  readonly endpoint: string;
  toJSON(): PushSubscriptionJSON;
  unsubscribe(): Promise<boolean>;
};
type PushManagerLike = {
  getSubscription(): Promise<PushSubscriptionLike | null>;
  subscribe(options: { userVisibleOnly: boolean; applicationServerKey: Uint8Array<ArrayBuffer> }): Promise<PushSubscriptionLike>;
};
type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

export type PushEnv = {
  /** `PushManager` and a service worker: this browser can get notifications. */
  isSupported: boolean;
  permission: () => NotificationPermission;
  requestPermission: () => Promise<NotificationPermission>;
  /** The service worker's push manager (waits for the worker). */
  pushManager: () => Promise<PushManagerLike>;
  api: {
    getConfig: (signal?: AbortSignal) => Promise<TPushConfig>;
    getSubscriptions: (signal?: AbortSignal) => Promise<TPushSubscription[]>;
    save: (body: TPushSubscriptionRequest) => Promise<TPushSubscription>;
    remove: (endpoint: string) => Promise<void>;
  };
  store: KeyValueStore;
  now: () => number;
};

const browserStore: KeyValueStore = {
  getItem: (key) => {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  setItem: (key, value) => {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // storage disabled: asked again next time
    }
  },
};

const WORKER_WAIT_MS = 10_000;
const NO_WORKER_MESSAGE = 'Spotter is not fully loaded in this browser yet. Reload the page and try again.';

function browserPushEnv(): PushEnv {
  const isSupported =
    typeof window !== 'undefined' && 'PushManager' in window && 'serviceWorker' in navigator && 'Notification' in window;
  return {
    isSupported,
    permission: () => (isSupported ? Notification.permission : 'denied'),
    requestPermission: () => Notification.requestPermission(),
    pushManager: async () => {
      // `ready` never settles where no service worker was registered: say so rather than wait forever
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(NO_WORKER_MESSAGE)), WORKER_WAIT_MS);
      });
      try {
        return (await Promise.race([navigator.serviceWorker.ready, timeout])).pushManager;
      } finally {
        clearTimeout(timer);
      }
    },
    api: {
      getConfig: getPushConfig,
      getSubscriptions: getPushSubscriptions,
      save: savePushSubscription,
      remove: deletePushSubscription,
    },
    store: browserStore,
    now: () => Date.now(),
  };
}

/** The browser's, unless a test provides another. */
export const PushEnvContext = createContext<PushEnv | null>(null);
let browserEnv: PushEnv | null = null;
export function usePushEnv(): PushEnv {
  const provided = useContext(PushEnvContext);
  if (provided) return provided;
  browserEnv ??= browserPushEnv();
  return browserEnv;
}

/** The server's VAPID public key (null: this server sends no notifications). */
export function usePushConfig(env: PushEnv, enabled = true) {
  return useQuery({
    queryKey: pushKeys.config(),
    queryFn: ({ signal }) => env.api.getConfig(signal),
    staleTime: Infinity,
    enabled,
  });
}

/** A base64url key (the VAPID public key) as the bytes `applicationServerKey` takes. */
function base64UrlToBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Subscribes this browser (or reuses its subscription) and stores it on the server with `kinds`
 * (all the role's kinds when absent). Permission must be granted already.
 */
export async function subscribeThisDevice(env: PushEnv, publicKey: string, kinds?: PushKind[]) {
  const manager = await env.pushManager();
  const options = { userVisibleOnly: true, applicationServerKey: base64UrlToBytes(publicKey) };
  let subscription = await manager.getSubscription();
  if (!subscription) {
    try {
      subscription = await manager.subscribe(options);
    } catch (error) {
      // a subscription made with another key (the server's key changed): replace it
      const stale = await manager.getSubscription();
      if (!stale) throw error;
      await stale.unsubscribe();
      subscription = await manager.subscribe(options);
    }
  }
  const { endpoint, expirationTime, keys } = subscription.toJSON();
  return env.api.save({
    endpoint: endpoint ?? subscription.endpoint,
    expirationTime: expirationTime ?? null,
    keys: { p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' },
    kinds,
  });
}

/** This device gets no more notifications: the server forgets it, and so does the browser. */
export async function unsubscribeThisDevice(env: PushEnv) {
  const subscription = await (await env.pushManager()).getSubscription();
  if (!subscription) return;
  await env.api.remove(subscription.endpoint);
  await subscription.unsubscribe();
}

/** The kinds this device gets, or null when it gets none (not subscribed, or the server does not know it). */
export async function deviceKinds(env: PushEnv, signal?: AbortSignal): Promise<PushKind[] | null> {
  const subscription = await (await env.pushManager()).getSubscription();
  if (!subscription) return null;
  const devices = await env.api.getSubscriptions(signal);
  return devices.find((d) => d.endpoint === subscription.endpoint)?.kinds ?? null;
}

/** 'Not now' on the offer to turn notifications on: not offered again for 30 days. */
const SNOOZE_KEY = 'pushPromptSnoozedAt';
const SNOOZE_MS = 30 * 24 * 60 * 60 * 1000;

export const snoozePushPrompt = (env: PushEnv) => env.store.setItem(SNOOZE_KEY, String(env.now()));

export function isPushPromptSnoozed(env: PushEnv) {
  const at = Number(env.store.getItem(SNOOZE_KEY));
  return Number.isFinite(at) && at > 0 && env.now() - at < SNOOZE_MS;
}
