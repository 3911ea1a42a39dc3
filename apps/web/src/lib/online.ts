import { useSyncExternalStore } from 'react';

/**
 * Whether the browser says it has a network (docs/product.md#installable-and-offline). Offline,
 * the service worker answers reads from what this device saved; a write (booking, review, message)
 * needs the network, so its button is disabled while this is false. `navigator.onLine` false is
 * reliable (no network at all); true only means some network, so a failed request still shows its
 * error.
 */
const subscribe = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};

const isOnline = () => navigator.onLine;
/** The server renders every page as online: a page that hydrates offline changes after hydration. */
const onServer = () => true;

export const useOnline = () => useSyncExternalStore(subscribe, isOnline, onServer);

/** What a button needing the network says while offline (its title and described-by text). */
export const NEEDS_CONNECTION = 'You need a connection for this.';
