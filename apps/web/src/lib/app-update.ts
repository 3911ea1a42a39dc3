import { useSyncExternalStore } from 'react';

/**
 * A new version of the app that is installed and waiting (docs/product.md#installable-and-offline):
 * the service worker registration offers it here, and the layout's prompt shows it until the
 * person chooses 'Update'. It is never applied by itself, so a half-filled form is never reloaded
 * away.
 */
export type UpdateOffer = { apply: () => void };

let offer: UpdateOffer | null = null;
const listeners = new Set<() => void>();

export const appUpdate = {
  offer(next: UpdateOffer | null) {
    offer = next;
    for (const listener of listeners) listener();
  },
  current: () => offer,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};

export const useAppUpdate = () => useSyncExternalStore(appUpdate.subscribe, appUpdate.current, () => null);
