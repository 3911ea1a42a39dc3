import { useSyncExternalStore } from 'react';

/**
 * Toasts without putting sonner in the landing page's JavaScript: the library loads on the first
 * toast, and the <Toaster> (components/ui/toaster.tsx) mounts then; sonner replays toasts created before
 * its Toaster subscribed.
 */
let sonner: Promise<typeof import('sonner')> | null = null;
export const loadSonner = () => (sonner ??= import('sonner'));

let isRequested = false;
const listeners = new Set<() => void>();

function show(kind: 'success' | 'error' | 'message', message: string) {
  if (!isRequested) {
    isRequested = true;
    listeners.forEach((listener) => listener());
  }
  void loadSonner().then(({ toast }) => (kind === 'message' ? toast(message) : toast[kind](message)));
}

export const notify = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  message: (message: string) => show('message', message),
};

/** True once anything asked for a toast. */
export function useIsToasterNeeded() {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => isRequested,
    () => false,
  );
}
