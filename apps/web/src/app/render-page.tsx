import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { dehydrate, type FetchQueryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { setApiFetch } from '@/lib/api-client';
import { ratingDistributionQueryOptions } from '@/lib/api/reviews';
import { trainerQueryOptions, trainersQueryOptions } from '@/lib/api/trainers';
import { createQueryClient } from '@/lib/query-client';
import { RequestCookies } from '@/lib/request-cookies';
import { parseTrainerSearch, toTrainersQuery } from '@/features/trainers/utils/trainer-search';
import { AppProvider } from './provider';
import { routes } from './router';
import { screenAt, SERVER_DATA_ID, type Screen } from './screens';

type Fetch = Parameters<typeof setApiFetch>[0];

/** What the server hands the renderer: the address asked for, and the API answering in-process. */
type PageRequest = { url: string; cookies?: string };

export type RenderedPage = {
  /** For `<head>`: the page's `<title>` and the preloads React asks for (the first pictures). */
  head: string;
  /** The markup inside `<div id="root">`. */
  root: string;
  /** For the end of `<body>`: the answers the page was rendered from, which the browser's query cache starts with. */
  data: string;
};

/** What React puts before the markup for the document's head: `<title>`, `<meta>` and `<link>` elements. */
const HEAD_ELEMENTS = /^(?:<(?:link|meta)\b[^>]*>|<title>[^<]*<\/title>)*/;

const handler = createStaticHandler(routes);

/**
 * Fetches into the cache without retrying: the page is waiting, and a screen whose answer failed
 * renders its loading state, which the browser's own fetch then completes (or shows the error of).
 */
const prefetch = <T, K extends QueryKey>(queryClient: QueryClient, options: FetchQueryOptions<T, Error, T, K>) =>
  queryClient.prefetchQuery({ ...options, retry: false });

/** Visitors' pages: what needs no login. Account pages stay client-rendered (their data is a person's). */
type FirstData = (queryClient: QueryClient, params: string[], url: URL) => Array<Promise<unknown>> | null;
const rendered: Partial<Record<Screen, FirstData>> = {
  home: () => [],
  trainerList: (queryClient, _params, url) => {
    const search = parseTrainerSearch(url.searchParams);
    // favourites live in the browser: the list of them is the browser's to render
    if (search.favoritesOnly) return null;
    return [prefetch(queryClient, trainersQueryOptions(toTrainersQuery(search, [])))];
  },
  trainerProfile: (queryClient, [id]) => {
    let trainerId: string;
    try {
      trainerId = decodeURIComponent(id);
    } catch {
      return [];
    }
    return [
      prefetch(queryClient, trainerQueryOptions(trainerId)),
      prefetch(queryClient, ratingDistributionQueryOptions(trainerId)),
    ];
  },
  signUp: () => [],
  login: () => [],
  bmi: () => [],
  team: () => [],
  pricing: () => [],
  blog: () => [],
  blogPost: () => [],
  verificationSuccess: () => [],
  verificationFailed: () => [],
  forgotPassword: () => [],
  resetPassword: () => [],
};

let isConfigured = false;

/** Once, at the server's start: how the renderer's API calls are answered. */
export function configureRenderer({ fetchApi }: { fetchApi: Fetch }) {
  setApiFetch(fetchApi);
  isConfigured = true;
}

/**
 * The page at `url` rendered for a visitor (nobody logged in), with the answers it was rendered
 * from; null for the pages the browser renders itself (a person's own pages, unknown addresses).
 */
export async function renderPage({ url, cookies = '' }: PageRequest): Promise<RenderedPage | null> {
  if (!isConfigured) throw new Error('renderPage: configureRenderer() was not called');
  const address = new URL(url, 'http://spotter.invalid');
  const hit = screenAt(address.pathname);
  const firstData = hit && rendered[hit.screen];
  if (!hit || !firstData) return null;
  const queryClient = createQueryClient();
  const loads = firstData(queryClient, hit.params, address);
  if (!loads) return null;
  const [context] = await Promise.all([handler.query(new Request(address)), ...loads]);
  if (context instanceof Response) return null;
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <StrictMode>
      <RequestCookies value={cookies}>
        <AppProvider queryClient={queryClient}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </AppProvider>
      </RequestCookies>
    </StrictMode>,
  );
  const json = JSON.stringify(dehydrate(queryClient)).replace(/</g, '\\u003c');
  queryClient.clear();
  const head = HEAD_ELEMENTS.exec(html)?.[0] ?? '';
  return {
    head,
    root: html.slice(head.length),
    data: `<script type="application/json" id="${SERVER_DATA_ID}">${json}</script>`,
  };
}
