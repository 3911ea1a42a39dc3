import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Coding } from '../platform/compression';

/**
 * The web app's page renderer (apps/web/src/app/render-page.tsx, built into apps/web/dist-ssr/ by
 * `vite build --ssr`): what the server relies on. It is loaded from the build at run time, never
 * imported, so the server does not depend on the web app's source. A render depends on the address
 * and on the `cookie-accepted` cookie alone (it is given no other), which is what a kept page is
 * keyed by.
 */
type RenderedPage = { status: number; head: string; root: string; data: string };
type Renderer = {
  configureRenderer(options: { fetchApi: (url: string, init: RequestInit) => Promise<Response> }): void;
  renderPage(request: { url: string; cookies: string }): Promise<RenderedPage | null>;
};

/** An HTML answer: its body, status, strong hash (the ETag) and its compressed forms, made on first request. */
export type Page = { status: number; body: Buffer; hash: string; coded: Partial<Record<Coding, Promise<Buffer>>> };

export const pageOf = (body: Buffer, status = 200): Page => ({
  status,
  body,
  hash: createHash('sha256').update(body).digest('hex').slice(0, 32),
  coded: {},
});

/** index.html's root element holding the pre-JavaScript shell (between its markers) that the rendered page replaces. */
const ROOT = /<div id="root">\s*<!--app-->[\s\S]*?<!--\/app-->\s*<\/div>/;
const TITLE = /<title>[^<]*<\/title>/;
/** The app's modulepreload links (apps/web/vite.config.ts marks them): a rendered page paints before the app loads. */
const APP_PRELOADS = /[ \t]*<link\b[^>]*\bdata-app\b[^>]*>\n?/g;

/**
 * index.html cut where a rendered page goes: around the title, before `</head>`, in place of the
 * root's shell and before `</body>`, without the app's preloads. Cut once per build, so composing a
 * page is one join rather than a pass of each pattern over the whole template.
 */
function templateParts(html: string) {
  const cut = (text: string, at: RegExp | string) => {
    const match = typeof at === 'string' ? { index: text.indexOf(at), 0: at } : at.exec(text);
    if (!match || match.index < 0) throw new Error(`index.html has no ${String(at)}`);
    return [text.slice(0, match.index), text.slice(match.index + match[0].length)];
  };
  const [beforeTitle, afterTitle] = cut(html.replace(APP_PRELOADS, ''), TITLE);
  const [head, afterHead] = cut(afterTitle, '</head>');
  const [body, afterRoot] = cut(afterHead, ROOT);
  const [tail, end] = cut(afterRoot, '</body>');
  return { beforeTitle, title: TITLE.exec(html)?.[0] ?? '', head, body, tail, end };
}

/** The rendered page in index.html: its title, its preloads in the head, its markup in the root, its data before `</body>`. */
function compose(parts: ReturnType<typeof templateParts>, page: RenderedPage): string {
  const title = TITLE.exec(page.head)?.[0] ?? parts.title;
  const links = page.head.replace(TITLE, '');
  // nothing else inside the root, not even white space: React hydrates exactly the markup it made
  return `${parts.beforeTitle}${title}${parts.head}${links}</head>${parts.body}<div id="root">${page.root}</div>${parts.tail}${page.data}</body>${parts.end}`;
}

const LIMITS = {
  /**
   * At most this many pages render at once (each waits for its API reads, then renders in one go);
   * a page asked for beyond them gets the shell, which costs nothing to send.
   */
  rendering: 16,
  /** A render still waiting for its data after this long is left to the browser: the shell goes out. */
  deadlineMs: 2_000,
  /** A longer address is not rendered (a page's links repeat its query string). */
  urlLength: 2_048,
  /** Kept pages: at most this many bytes (bodies and compressed forms) and this long. */
  keptBytes: 8 * 1024 * 1024,
  keptMs: 60_000,
};

type Kept = { page: Page; generation: number; storedAt: number; bytes: number };

type Options = {
  app: FastifyInstance;
  /** apps/web/dist-ssr/render-page.js */
  file: string;
  /** The read cache's generation (platform/read-cache.ts): a write to what pages show changes it. */
  generation: () => number;
  /** The build's index.html, as it is now. */
  template: () => string;
  now?: () => number;
};

/**
 * Pages rendered for visitors (docs/decisions/031-server-rendered-first-page.md). The renderer reads
 * the API in-process (`app.inject`, GET only, without the visitor's credentials, under the page's
 * request id). A rendered page is kept, per address and cookie notice, until the read cache's
 * generation changes (a write to the catalogue) or for a minute; the visitors who ask for one page
 * at the same time share one render. `pageFor` answers undefined when the browser is to render the
 * page itself: the renderer says so (a person's own page), it failed (logged), it did not load or
 * was built again since, the address is too long, 16 renders are under way, or the deadline passed.
 */
export function createPageRenderer({ app, file, generation, template, now = Date.now }: Options) {
  const pageRequests = new AsyncLocalStorage<FastifyRequest>();
  const fetchApi = async (url: string, init: RequestInit): Promise<Response> => {
    if ((init.method ?? 'GET') !== 'GET') throw new Error(`the page renderer may only read (${init.method} ${url})`);
    // the page's request id, so the log lines of the API reads it made share it
    const page = pageRequests.getStore();
    const answer = await app.inject({
      method: 'GET',
      url,
      headers: { accept: 'application/json', ...(page ? { 'x-request-id': page.id } : {}) },
    });
    const noBody = answer.statusCode === 204 || answer.statusCode === 304;
    return new Response(noBody ? null : answer.rawPayload, {
      status: answer.statusCode,
      headers: {
        'content-type': String(answer.headers['content-type'] ?? ''),
        'x-request-id': String(answer.headers['x-request-id'] ?? ''),
      },
    });
  };

  // The renderer is loaded once. Node keeps a module for the life of the process, and a second copy
  // under another address would not share its chunks' React Router: so after a new build replaces
  // the file, or when it failed to load, pages are the shell until the server restarts (logged once).
  let loaded: { mtimeMs: number; renderer: Promise<Renderer | undefined> } | undefined;
  let isStale = false;
  function renderer(): Promise<Renderer | undefined> | undefined {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      mtimeMs = -1;
    }
    if (!loaded) {
      loaded = {
        mtimeMs,
        renderer: import(pathToFileURL(file).href).then(
          (module: Renderer) => {
            module.configureRenderer({ fetchApi });
            return module;
          },
          (err: unknown) => {
            app.log.error({ err }, 'the page renderer did not load: pages are sent as the shell until the server restarts');
            return undefined;
          },
        ),
      };
    } else if (loaded.mtimeMs !== mtimeMs && !isStale) {
      isStale = true;
      app.log.warn('the web app was built again: pages are sent as the shell until the server restarts');
    }
    return isStale ? undefined : loaded.renderer;
  }

  const kept = new Map<string, Kept>();
  let keptBytes = 0;
  const flights = new Map<string, { generation: number; page: Promise<Page | undefined> }>();
  let rendering = 0;

  function drop(key: string) {
    const entry = kept.get(key);
    if (!entry) return;
    kept.delete(key);
    keptBytes -= entry.bytes;
  }
  function keep(key: string, page: Page, at: number) {
    drop(key);
    // the body and, as browsers ask for them, about a fifth of it for each compressed form
    const entry = { page, generation: at, storedAt: now(), bytes: Math.ceil(page.body.length * 1.5) + key.length * 2 };
    if (entry.bytes > LIMITS.keptBytes / 4) return;
    kept.set(key, entry);
    keptBytes += entry.bytes;
    while (keptBytes > LIMITS.keptBytes) drop(kept.keys().next().value!);
  }

  let parts: { html: string; parts: ReturnType<typeof templateParts> } | undefined;
  const partsOf = (html: string) => (parts?.html === html ? parts : (parts = { html, parts: templateParts(html) })).parts;

  /** One render of `url`, as a page to send; undefined when it came to nothing. */
  async function render(req: FastifyRequest, url: string, cookies: string): Promise<Page | undefined> {
    const loading = renderer();
    if (!loading) return undefined;
    rendering++;
    try {
      const loaded = await loading;
      if (!loaded) return undefined;
      const page = await pageRequests.run(req, () => loaded.renderPage({ url, cookies }));
      return page ? pageOf(Buffer.from(compose(partsOf(template()), page)), page.status) : undefined;
    } catch (err) {
      req.log.error({ err }, 'rendering the page failed; sent the shell');
      return undefined;
    } finally {
      rendering--;
    }
  }

  return {
    async pageFor(req: FastifyRequest): Promise<Page | undefined> {
      const url = req.url;
      if (url.length > LIMITS.urlLength) return undefined;
      // no renderer (or one a new build replaced): nor any page it made, whose assets may be gone
      if (!renderer()) return undefined;
      const cookies = (req.headers.cookie ?? '').split(';').map((c) => c.trim());
      const accepted = cookies.includes('cookie-accepted=true');
      const key = `${accepted ? 1 : 0}${url}`;
      const at = generation();
      const hit = kept.get(key);
      if (hit && hit.generation === at && now() - hit.storedAt < LIMITS.keptMs) {
        kept.delete(key);
        kept.set(key, hit);
        return hit.page;
      }
      let flight = flights.get(key);
      if (!flight || flight.generation !== at) {
        if (rendering >= LIMITS.rendering) return undefined;
        const page = render(req, url, accepted ? 'cookie-accepted=true' : '');
        const mine = { generation: at, page };
        flights.set(key, mine);
        void page.then((done) => {
          if (flights.get(key) === mine) flights.delete(key);
          // kept only when no write came between the render's reads and now
          if (done && generation() === at) keep(key, done, at);
        });
        flight = mine;
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<undefined>((resolve) => {
        timer = setTimeout(resolve, LIMITS.deadlineMs, undefined);
      });
      try {
        return await Promise.race([flight.page, late]);
      } finally {
        clearTimeout(timer);
      }
    },

    stats: () => ({ kept: kept.size, keptBytes, rendering }),
  };
}
