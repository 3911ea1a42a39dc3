import { hydrate, type DehydratedState } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { matchRoutes, RouterProvider } from 'react-router';
import { startServiceWorker } from '@/lib/start-service-worker';
import { createQueryClient } from '@/lib/query-client';
import { storage } from '@/lib/storage';
import { AppProvider } from './provider';
import { createRouter, routes } from './router';
import { SERVER_DATA_ID } from './screens';

/**
 * Loads the code of the routes the address matches into the route table, so the router starts
 * with the screen the server rendered instead of its loading state (React Router's way to hydrate
 * lazy routes).
 */
async function loadMatchedRoutes() {
  const lazyMatches = matchRoutes(routes, window.location)?.filter((match) => match.route.lazy) ?? [];
  await Promise.all(
    lazyMatches.map(async ({ route }) => {
      const lazy = route.lazy as () => Promise<object>;
      Object.assign(route, { ...(await lazy()), lazy: undefined });
    }),
  );
}

/** The answers the server rendered the page from, or undefined (none, or a block cut short: then the app renders anew). */
function serverAnswers(): DehydratedState | undefined {
  const block = document.getElementById(SERVER_DATA_ID);
  if (!block) return undefined;
  try {
    return JSON.parse(block.textContent ?? '') as DehydratedState;
  } catch {
    return undefined;
  }
}

/**
 * A query the server's render answered is not asked again when its screen mounts within this
 * long of hydration: the page was made from it a moment ago. Later mounts refetch as usual.
 */
const SERVER_ANSWER_FRESH_MS = 30_000;

/**
 * Starts the app in the page (main.tsx loads this after starting the first screen's chunk). A page
 * the server rendered (docs/decisions/031-server-rendered-first-page.md) is hydrated, with the answers it was rendered from in
 * the query cache; any other is rendered here. Either way the first render is a transition, so React works in
 * slices of a few milliseconds and the phone can answer a tap in between (docs/decisions/030-first-render-in-slices.md).
 */
export async function start(root: HTMLElement) {
  storage.syncSignedInCookie();
  const queryClient = createQueryClient();
  const answers = serverAnswers();
  if (answers) {
    hydrate(queryClient, answers);
    const fromServer = new Set(answers.queries.map((query) => query.queryHash));
    const hydratedAt = Date.now();
    const defaults = queryClient.getDefaultOptions();
    queryClient.setDefaultOptions({
      ...defaults,
      queries: {
        ...defaults.queries,
        refetchOnMount: (query) => !(fromServer.has(query.queryHash) && Date.now() - hydratedAt < SERVER_ANSWER_FRESH_MS),
      },
    });
    // should a chunk fail to load, the router loads it again and shows its error screen if need be
    await loadMatchedRoutes().catch(() => undefined);
  }
  const app = (
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        {/* what react-router/dom's RouterProvider adds, from the one react-router import the tests also load */}
        <RouterProvider
          router={createRouter()}
          flushSync={(update) => {
            flushSync(update);
          }}
        />
      </AppProvider>
    </StrictMode>
  );
  let reactRoot: Root | undefined;
  startTransition(() => {
    if (answers) reactRoot = hydrateRoot(root, app);
    else (reactRoot = createRoot(root)).render(app);
  });
  // installable and offline (docs/decisions/048-service-worker.md); after the first paint, lazily
  startServiceWorker();
  return reactRoot!;
}
