import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { createPageRenderer, pageOf, type Page } from './page-renderer';
import { acceptedCoding, compressBody, compressorsAt, etagMatches } from '../platform/compression';

/**
 * Set by the app while a token is stored (apps/web/src/lib/storage.ts): that person's pages show
 * their own header, which the server cannot render (the token lives in the browser), so they get
 * the shell.
 */
const SIGNED_IN_COOKIE = 'signed-in=1';

/**
 * The service worker and the web app manifest, always asked again (docs/decisions/048-service-worker.md):
 * a browser that kept an old sw.js for an hour would keep the old app that long.
 */
const APP_FILES = /[\\/](sw\.js|workbox-[\w-]+\.js|manifest\.webmanifest)$/;

/** A page rendered per request is compressed once, quickly: brotli's quality 9 takes ~10 ms on a 100 KB page, 4 about 1 ms. */
const compressPage = compressorsAt(4, 6);

type Template = { mtimeMs: number; size: number; html: string; shell: Page };

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
 * Sends an HTML page with a strong ETag (304 when the browser has it), never cached without
 * revalidation, in the best coding the browser takes.
 */
async function sendPage(req: FastifyRequest, reply: FastifyReply, page: Page, compress: typeof compressBody) {
  const coding = page.body.length >= 1024 ? acceptedCoding(req) : undefined;
  reply
    .code(page.status)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-cache')
    .header('Vary', 'Accept-Encoding, Cookie')
    .header('ETag', `"${page.hash}${coding ? `-${coding}` : ''}"`);
  if (etagMatches(req.headers['if-none-match'], page.hash)) return reply.code(304).send();
  if (!coding) return reply.send(page.body);
  return reply.header('Content-Encoding', coding).send(await (page.coded[coding] ??= compress[coding](page.body)));
}

/**
 * Serves the built web app: hashed assets cached for a year, HTML never cached, and for every
 * other path that is not the API the app's page (history fallback). A visitor's first request for
 * a public page gets it rendered on the server (docs/decisions/031-server-rendered-first-page.md);
 * other pages, and everyone logged in, get index.html's shell and the browser renders the page.
 */
export async function registerWeb(
  app: FastifyInstance,
  webDist: string | undefined,
  { catalogueGeneration = (): number => 0 }: { catalogueGeneration?: () => number } = {},
) {
  const index = webDist ? join(webDist, 'index.html') : undefined;
  const hasWeb = !!index && existsSync(index);
  const template = hasWeb ? templateReader(index) : undefined;
  const rendererFile = webDist ? join(webDist, '..', 'dist-ssr', 'render-page.js') : undefined;
  const pages =
    template && rendererFile && existsSync(rendererFile)
      ? createPageRenderer({ app, file: rendererFile, generation: catalogueGeneration, template: () => template().html })
      : undefined;
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist!,
      wildcard: false,
      index: false,
      cacheControl: false,
      // @fastify/static 10 passes the reply here
      setHeaders(reply: { header(name: string, value: string): unknown }, path: string) {
        if (/[\\/]assets[\\/]/.test(path)) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        else if (path.endsWith('.html') || APP_FILES.test(path)) reply.header('Cache-Control', 'no-cache');
        else reply.header('Cache-Control', 'public, max-age=3600');
        if (path.endsWith('.webmanifest')) reply.header('Content-Type', 'application/manifest+json; charset=utf-8');
      },
    });
  }

  /** The page rendered for a visitor's GET; undefined for HEAD, someone logged in, or what the renderer leaves to the browser. */
  async function rendered(req: FastifyRequest): Promise<Page | undefined> {
    if (!pages || req.method !== 'GET') return undefined;
    if ((req.headers.cookie ?? '').split(';').some((c) => c.trim() === SIGNED_IN_COOKIE)) return undefined;
    return pages.pageFor(req);
  }

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0];
    const wantsPage = (req.method === 'GET' || req.method === 'HEAD') && !path.startsWith('/api/') && path !== '/api';
    if (template && wantsPage && !/\.[a-z0-9]{1,5}$/i.test(path)) {
      const page = await rendered(req);
      return page ? sendPage(req, reply, page, compressPage) : sendPage(req, reply, template().shell, compressBody);
    }
    return reply.status(404).send({ message: `Not found: ${req.method} ${path}`, statusCode: 404 });
  });
}
