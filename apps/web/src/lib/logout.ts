import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { PERSONAL_CACHE } from './cache-names';
import { clearChatOutbox } from './clear-chat-outbox';
import { forgetPushDevice } from './forget-push-device';
import { paths } from './paths';
import { markLoggedOut } from './session';
import { storage } from './storage';

type Devices = {
  caches?: Pick<CacheStorage, 'delete'>;
  serviceWorker?: { controller: Pick<ServiceWorker, 'postMessage'> | null };
};

/**
 * Forgets what the service worker saved of the signed-in person (docs/product.md#installable-and-offline):
 * deletes its personal cache here, and tells the worker, which deletes it too and drops answers
 * still on their way. Nothing to do in a browser without caches or service worker.
 */
export async function clearPersonalCaches({
  caches = globalThis.caches,
  serviceWorker = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker,
}: Devices = {}) {
  serviceWorker?.controller?.postMessage({ type: 'logout' });
  await caches?.delete(PERSONAL_CACHE).catch(() => false);
}

/**
 * Logout (docs/product.md#states): forget token, user type and profile, drop every cached answer, and go
 * to the site root (or `to`); the service worker's saved personal answers, the messages waiting to be
 * sent and this device's notifications go too. The mark tells a protected page still on screen to go
 * home too, not to its login. Favourites stay in this browser: they belong to the device.
 */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async ({ to = paths.home.getHref() }: { to?: string } = {}) => {
      // this browser gets no more of the person's notifications (told with the token given up)
      void forgetPushDevice(storage.getToken());
      markLoggedOut();
      storage.clearSession();
      // messages written offline and not sent yet are the person's: they go with them
      clearChatOutbox();
      queryClient.clear();
      await clearPersonalCaches();
      await navigate(to);
    },
    [navigate, queryClient],
  );
}
