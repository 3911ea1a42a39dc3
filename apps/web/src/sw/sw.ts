/// <reference lib="webworker" />
// first, before zod loads (see the module)
import '../lib/zod-jitless';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim, type WorkboxPlugin } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { PERSONAL_CACHE, PUBLIC_CACHE } from '../lib/cache-names';
import { kindOf, notificationTarget, parsePush, personalCacheKey, type RequestKind } from '../lib/sw-routes';

/**
 * Spotter's service worker (docs/decisions/048-service-worker.md, docs/product.md#installable-and-offline):
 * the build's files precached, pages from the network with the precached shell offline, public reads
 * kept for everyone, a signed-in person's reads kept under their token's hash until logout, and
 * Web Push notifications.
 */
declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<string | { url: string; revision: string | null }> };

const DAY_SECONDS = 24 * 60 * 60;
const ICON = '/pwa-192x192.png';
const BADGE = '/pwa-64x64.png';

// The build's hashed files and index.html, all of one build: the shell offline never lacks its scripts.
// Only their own addresses: '/' is not answered with the precached index.html (pages come from the network, below).
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: '', cleanURLs: false });
cleanupOutdatedCaches();
// The first install controls the open page at once; a later version waits for 'Update' (SKIP_WAITING below).
clientsClaim();

self.addEventListener('activate', (event) => {
  // the page's request starts while the worker wakes up
  event.waitUntil(self.registration.navigationPreload?.enable() ?? Promise.resolve());
});

/**
 * Pages: the network first, since the server renders a visitor's first page fresh and a new build
 * must never be served an old shell; offline, the precached shell of this worker's own build, and
 * the app renders from what the caches hold. Every navigation is answered here, with the request
 * navigation preload already made: one left to the browser would be requested twice (a verification
 * link under /api/ would be used up by the first).
 */
registerRoute(
  new NavigationRoute(async ({ request, url, event }) => {
    try {
      const preloaded = (await (event as FetchEvent).preloadResponse) as Response | undefined;
      return preloaded ?? (await fetch(request));
    } catch {
      if (url.pathname.startsWith('/api/')) return Response.error();
      return (await matchPrecache('/index.html')) ?? Response.error();
    }
  }),
);

const onlyOk = new CacheableResponsePlugin({ statuses: [200] });
// one expiration for the one public cache, whichever strategy writes to it
const publicExpiration = new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 7 * DAY_SECONDS, purgeOnQuotaError: true });

/**
 * Bumped at logout: an answer whose request started before it is not written to the personal cache
 * (the request was still on its way when the cache was deleted).
 */
let generation = 0;
const notAfterLogout: WorkboxPlugin = {
  handlerWillStart: async ({ state }) => {
    if (state) state.generation = generation;
  },
  cacheWillUpdate: async ({ response, state }) => (state?.generation === generation ? response : null),
};
/** A personal answer is stored and looked up under its address plus the SHA-256 of the token it was asked with. */
const keyedByToken: WorkboxPlugin = {
  cacheKeyWillBeUsed: async ({ request }) => personalCacheKey(request.url, request.headers.get('Authorization') ?? ''),
};

/**
 * A picture never shown online is not on the device: offline, a plain placeholder (the line colour,
 * index.css `--color-line`) takes its place instead of a broken image.
 */
const PLACEHOLDER_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1" fill="#d6dce7"/></svg>';
const placeholderOffline: WorkboxPlugin = {
  handlerDidError: async () =>
    new Response(PLACEHOLDER_SVG, { headers: { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'no-store' } }),
};

const strategies: Record<Exclude<RequestKind, 'network'>, NetworkFirst | StaleWhileRevalidate | CacheFirst> = {
  public: new StaleWhileRevalidate({ cacheName: PUBLIC_CACHE, plugins: [onlyOk, publicExpiration] }),
  picture: new CacheFirst({ cacheName: PUBLIC_CACHE, plugins: [onlyOk, publicExpiration, placeholderOffline] }),
  personal: new NetworkFirst({
    cacheName: PERSONAL_CACHE,
    plugins: [
      onlyOk,
      notAfterLogout,
      keyedByToken,
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 14 * DAY_SECONDS, purgeOnQuotaError: true }),
    ],
  }),
};

const kindOfRequest = (request: Request, url: URL) =>
  url.origin === self.location.origin ? kindOf(url.pathname, request.headers.has('Authorization')) : 'network';

for (const kind of ['public', 'picture', 'personal'] as const) {
  registerRoute(({ request, url }) => kindOfRequest(request, url) === kind, strategies[kind], 'GET');
}

self.addEventListener('message', (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === 'SKIP_WAITING') event.waitUntil(self.skipWaiting());
  if (type === 'logout') {
    generation += 1;
    event.waitUntil(caches.delete(PERSONAL_CACHE));
  }
});

/** A push (docs/product.md#installable-and-offline): the notification, and the app icon's count when given. */
self.addEventListener('push', (event) => {
  const payload = parsePush(() => event.data?.json());
  if (!payload) return;
  const { title, body, tag, url, badge } = payload;
  const shown = self.registration.showNotification(title, { body, tag, icon: ICON, badge: BADGE, data: { url } });
  const badged =
    badge !== undefined && 'setAppBadge' in self.navigator
      ? (self.navigator as WorkerNavigator & { setAppBadge(count?: number): Promise<void> })
          .setAppBadge(badge)
          .catch(() => undefined)
      : undefined;
  event.waitUntil(Promise.all([shown, badged]));
});

/** A notification's click: the open window already on its page, or a new one. */
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = notificationTarget((event.notification.data as { url?: unknown } | null)?.url, self.location.origin);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => client.url === target);
      if (open) return open.focus();
      return self.clients.openWindow(target);
    })(),
  );
});
