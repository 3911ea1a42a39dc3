import { Workbox } from 'workbox-window';
import { appUpdate, type UpdateOffer } from './app-update';

/** What the registration uses of workbox-window's Workbox (tests pass their own). */
export type WorkboxLike = Pick<Workbox, 'addEventListener' | 'register' | 'messageSkipWaiting'>;

type Options = {
  workbox?: WorkboxLike;
  /** Loads the page again under the new service worker. */
  reload?: () => void;
  offerUpdate?: (offer: UpdateOffer) => void;
};

/**
 * Registers the service worker (apps/web/src/sw.ts, served as /sw.js at the root scope;
 * docs/decisions/048-service-worker.md). This module and workbox-window load lazily after the first
 * paint, so the landing page's bundle does not grow. When a new version is installed and waiting,
 * it is offered to the layout's prompt; choosing 'Update' tells the waiting worker to take over and
 * reloads this tab once it controls the page. Other tabs are never reloaded by it.
 */
export async function registerServiceWorker({
  workbox = new Workbox('/sw.js', { scope: '/' }),
  reload = () => window.location.reload(),
  offerUpdate = appUpdate.offer,
}: Options = {}) {
  workbox.addEventListener('waiting', () => {
    offerUpdate({
      apply: () => {
        workbox.addEventListener('controlling', () => reload());
        workbox.messageSkipWaiting();
      },
    });
  });
  return workbox.register();
}
