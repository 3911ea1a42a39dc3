import { afterFirstPaint } from './after-first-paint';

/**
 * Registers the service worker after the first paint, loading the code that does it then
 * (lib/service-worker.ts with workbox-window). Not in development (Vite serves no service worker),
 * tests, or a browser without service workers.
 */
export function startServiceWorker(isProduction = import.meta.env.PROD) {
  if (!isProduction || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  afterFirstPaint(() => {
    // no service worker (a private window may refuse one): the app works as a web page
    import('./service-worker').then(({ registerServiceWorker }) => registerServiceWorker()).catch(() => undefined);
  });
}
