import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { dehydrate, type FetchQueryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError, setApiFetch } from '@/lib/api-client';
import { ratingDistributionQueryOptions } from '@/lib/api/reviews';
import { trainerQueryOptions, trainersQueryOptions } from '@/lib/api/trainers';
import { createQueryClient } from '@/lib/query-client';
import { RequestCookies } from '@/lib/request-cookies';
import { parseTrainerSearch, toTrainersQuery } from '@/features/trainers/utils/trainer-search';
import { AppProvider } from './provider';
import { routes } from './router';
import { screenAt, SERVER_DATA_ID, type Screen } from './screens';

type Fetch = Parameters<typeof setApiFetch>[0];

/**
 * What the server hands the renderer: the address asked for and the request's cookies the page
 * depends on (the cookie notice's: the server gives no other, and keeps rendered pages by it).
 */
type PageRequest = { url: string; cookies?: string };

export type RenderedPage = {
  /** 404 for a page about something that does not exist (a trainer), else 200. */
  status: 200 | 404;
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

/**
 * What a screen needs before it renders: the reads to make and, for a page about one thing (a
 * trainer), the read whose 404 makes the page a 404. Null: the browser renders this one itself.
 */
type FirstData = { loads: Array<Promise<unknown>>; subject?: QueryKey } | null;
const none = (): FirstData => ({ loads: [] });

/** Visitors' pages: what needs no login. Account pages stay client-rendered (their data is a person's). */
const rendered: Partial<Record<Screen, (queryClient: QueryClient, params: string[], url: URL) => FirstData>> = {
  home: none,
  trainerList: (queryClient, _params, url) => {
    const search = parseTrainerSearch(url.searchParams);
    // favourites live in the browser: the list of them is the browser's to render
    if (search.favoritesOnly) return null;
    return { loads: [prefetch(queryClient, trainersQueryOptions(toTrainersQuery(search, [])))] };
  },
  trainerProfile: (queryClient, [id]) => {
    let trainerId: string;
    try {
      trainerId = decodeURIComponent(id);
    } catch {
      return { loads: [] };
    }
    const profile = trainerQueryOptions(trainerId);
    return {
      loads: [prefetch(queryClient, profile), prefetch(queryClient, ratingDistributionQueryOptions(trainerId))],
      subject: profile.queryKey,
    };
  },
  signUp: none,
  login: none,
  bmi: none,
  team: none,
  pricing: none,
  blog: none,
  blogPost: none,
  verificationSuccess: none,
  verificationFailed: none,
  forgotPassword: none,
  resetPassword: none,
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
  // a path of this site only: `//host/x` would read as another host's address
  if (!url.startsWith('/') || url.startsWith('//')) return null;
  const address = new URL(`http://spotter.invalid${url}`);
  const hit = screenAt(address.pathname);
  const firstData = hit && rendered[hit.screen];
  if (!hit || !firstData) return null;
  const queryClient = createQueryClient();
  try {
    const needs = firstData(queryClient, hit.params, address);
    if (!needs) return null;
    const [context] = await Promise.all([handler.query(new Request(address)), ...needs.loads]);
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
    const missing = needs.subject && queryClient.getQueryState(needs.subject)?.error;
    const head = HEAD_ELEMENTS.exec(html)?.[0] ?? '';
    return {
      // the browser shows the not-found screen once its own read fails too; crawlers learn it now
      status: missing instanceof ApiError && missing.status === 404 ? 404 : 200,
      head,
      root: html.slice(head.length),
      data: `<script type="application/json" id="${SERVER_DATA_ID}">${json}</script>`,
    };
  } finally {
    // no query's garbage-collection timer keeps this render's answers alive
    queryClient.clear();
  }
}
