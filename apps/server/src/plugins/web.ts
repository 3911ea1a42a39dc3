import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, deflate, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { acceptedCoding, compressBody, etagMatches, type Coding } from '../lib/read-cache';

/**
 * The web app's page renderer (apps/web/src/app/render-page.tsx, built into apps/web/dist-ssr/ by
 * `vite build --ssr`): what the server relies on. It is loaded from the build at run time, never
 * imported, so the server does not depend on the web app's source.
 */
type RenderedPage = { head: string; root: string; data: string };
type PageRenderer = {
  configureRenderer(options: { fetchApi: (url: string, init: RequestInit) => Promise<Response> }): void;
  renderPage(request: { url: string; cookies?: string }): Promise<RenderedPage | null>;
};

/**
 * Set by the app when someone logs in (apps/web/src/lib/storage.ts): their pages show their own
 * header, which the server cannot render (the token lives in the browser), so they get the shell.
 */
const SIGNED_IN_COOKIE = 'signed-in=1';

/** index.html's root element holding the pre-JavaScript shell (between its markers) that the rendered page replaces. */
const ROOT = /<div id="root">\s*<!--app-->[\s\S]*?<!--\/app-->\s*<\/div>/;
const TITLE = /<title>[^<]*<\/title>/;
/** The app's modulepreload links (apps/web/vite.config.ts marks them): a rendered page paints before the app loads. */
const APP_PRELOADS = /[ \t]*<link\b[^>]*\bdata-app\b[^>]*>\n?/g;

/**
 * At most this many pages are rendered at once (each waits for its API reads, then renders in one
 * go); a page asked for beyond them gets the shell, which costs nothing to send.
 */
const MAX_RENDERING = 16;

/** A page rendered per request is compressed once, quickly: brotli's quality 9 takes ~10 ms on a 100 KB page. */
const compressPage: Record<Coding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 4,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => promisify(gzip)(body, { level: 6 }),
  deflate: (body) => promisify(deflate)(body, { level: 6 }),
};

type Page = { body: Buffer; hash: string; coded: Partial<Record<Coding, Promise<Buffer>>> };
type Template = { mtimeMs: number; size: number; html: string; shell: Page };

const pageOf = (body: Buffer): Page => ({ body, hash: createHash('sha256').update(body).digest('hex').slice(0, 32), coded: {} });

/** index.html, read again when the file changes (a new build), its shell compressed once per build. */
function templateReader(file: string) {
  let template: Template | undefined;
  return (): Template => {
    const { mtimeMs, size } = statSync(file);
    if (!template || template.mtimeMs !== mtimeMs || template.size !== size) {
      const body = readFileSync(file);
      template = { mtimeMs, size, html: body.toString('utf8'), shell: pageOf(body) };
    }
    return template;
  };
}

/**
 * index.html with the rendered page in place of the shell, its title and preloads in the head, its
 * data before `</body>`, and without the app's preloads.
 */
function compose(html: string, page: RenderedPage): string {
  const title = TITLE.exec(page.head)?.[0];
  const links = page.head.replace(TITLE, '');
  let out = html.replace(APP_PRELOADS, '');
  if (title) out = out.replace(TITLE, () => title);
  out = out.replace('</head>', () => `${links}</head>`);
  // nothing else inside the root, not even white space: React hydrates exactly the markup it made
  out = out.replace(ROOT, () => `<div id="root">${page.root}</div>`);
  return out.replace('</body>', () => `${page.data}</body>`);
}

/**
 * Sends an HTML page with a strong ETag (304 when the browser has it), never cached without
 * revalidation, in the best coding the browser takes.
 */
async function sendPage(req: FastifyRequest, reply: FastifyReply, page: Page, compress: typeof compressBody) {
  const coding = page.body.length >= 1024 ? acceptedCoding(req) : undefined;
  reply
    .code(200)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-cache')
    .header('Vary', 'Accept-Encoding, Cookie')
    .header('ETag', `"${page.hash}${coding ? `-${coding}` : ''}"`);
  if (etagMatches(req.headers['if-none-match'], page.hash)) return reply.code(304).send();
  if (!coding) return reply.send(page.body);
  return reply.header('Content-Encoding', coding).send(await (page.coded[coding] ??= compress[coding](page.body)));
}

/**
 * The renderer of dist-ssr/, loaded on the first page it renders and told to answer its API calls
 * in-process (no Authorization: a rendered page is a visitor's). Undefined when there is no such
 * build (a server started without `npm run build`): every page is then the shell.
 */
function rendererLoader(app: FastifyInstance, file: string, pageRequests: AsyncLocalStorage<FastifyRequest>) {
  let loading: Promise<PageRenderer> | undefined;
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
  return () =>
    (loading ??= import(pathToFileURL(file).href).then((renderer: PageRenderer) => {
      renderer.configureRenderer({ fetchApi });
      return renderer;
    }));
}

/**
 * Serves the built web app: hashed assets cached for a year, HTML never cached, and for every
 * other path that is not the API the app's page (history fallback). A visitor's first request for
 * a public page gets it rendered on the server (docs/decisions/031-server-rendered-first-page.md);
 * other pages, and everyone logged in, get index.html's shell and the browser renders the page.
 */
export async function registerWeb(app: FastifyInstance, webDist: string | undefined) {
  const index = webDist ? join(webDist, 'index.html') : undefined;
  const hasWeb = !!index && existsSync(index);
  const template = hasWeb ? templateReader(index) : undefined;
  const rendererFile = webDist ? join(webDist, '..', 'dist-ssr', 'render-page.js') : undefined;
  const pageRequests = new AsyncLocalStorage<FastifyRequest>();
  const renderer = rendererFile && existsSync(rendererFile) ? rendererLoader(app, rendererFile, pageRequests) : undefined;
  let rendering = 0;
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist!,
      wildcard: false,
      index: false,
      cacheControl: false,
      // @fastify/static 10 passes the reply here
      setHeaders(reply: { header(name: string, value: string): unknown }, path: string) {
        if (/[\\/]assets[\\/]/.test(path)) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        else if (path.endsWith('.html')) reply.header('Cache-Control', 'no-cache');
        else reply.header('Cache-Control', 'public, max-age=3600');
      },
    });
  }

  /**
   * The rendered page, or undefined when the browser is to render it: a page for someone logged in,
   * one the renderer leaves to the browser, one that failed to render (logged), and any asked for
   * while MAX_RENDERING others wait for their data (a burst, or a slow database: the shell is ready).
   */
  async function rendered(req: FastifyRequest, html: string): Promise<Page | undefined> {
    const cookies = req.headers.cookie ?? '';
    if (!renderer || rendering >= MAX_RENDERING || cookies.split(';').some((c) => c.trim() === SIGNED_IN_COOKIE))
      return undefined;
    rendering++;
    try {
      const { renderPage } = await renderer();
      const page = await pageRequests.run(req, () => renderPage({ url: req.url, cookies }));
      return page ? pageOf(Buffer.from(compose(html, page))) : undefined;
    } catch (err) {
      req.log.error({ err }, 'rendering the page failed; sent the shell');
      return undefined;
    } finally {
      rendering--;
    }
  }

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0];
    const wantsPage = (req.method === 'GET' || req.method === 'HEAD') && !path.startsWith('/api/') && path !== '/api';
    if (template && wantsPage && !/\.[a-z0-9]{1,5}$/i.test(path)) {
      const { html, shell } = template();
      const page = await rendered(req, html);
      return page ? sendPage(req, reply, page, compressPage) : sendPage(req, reply, shell, compressBody);
    }
    return reply.status(404).send({ message: `Not found: ${req.method} ${path}`, statusCode: 404 });
  });
}
