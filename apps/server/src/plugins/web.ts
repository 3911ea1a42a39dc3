import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { acceptedCoding, compressBody, etagMatches, type Coding } from '../lib/read-cache';

type Page = { mtimeMs: number; size: number; body: Buffer; hash: string; coded: Partial<Record<Coding, Promise<Buffer>>> };

/**
 * index.html for the history fallback. The not-found handler is no route, so @fastify/compress
 * never sees it: the page is compressed here, once per build (read again when the file changes),
 * with a strong ETag for the browser's revalidation.
 */
function pageServer(file: string) {
  let page: Page | undefined;
  const current = (): Page => {
    const { mtimeMs, size } = statSync(file);
    if (!page || page.mtimeMs !== mtimeMs || page.size !== size) {
      const body = readFileSync(file);
      page = { mtimeMs, size, body, hash: createHash('sha256').update(body).digest('hex').slice(0, 32), coded: {} };
    }
    return page;
  };
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const p = current();
    const coding = p.body.length >= 1024 ? acceptedCoding(req) : undefined;
    reply
      .code(200)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Vary', 'Accept-Encoding')
      .header('ETag', `"${p.hash}${coding ? `-${coding}` : ''}"`);
    if (etagMatches(req.headers['if-none-match'], p.hash)) return reply.code(304).send();
    if (!coding) return reply.send(p.body);
    return reply.header('Content-Encoding', coding).send(await (p.coded[coding] ??= compressBody[coding](p.body)));
  };
}

/**
 * Serves the built web app: hashed assets cached for a year, HTML never cached, and
 * index.html for every other path that is not the API (history fallback).
 */
export async function registerWeb(app: FastifyInstance, webDist: string | undefined) {
  const index = webDist ? join(webDist, 'index.html') : undefined;
  const hasWeb = !!index && existsSync(index);
  const sendPage = hasWeb ? pageServer(index) : undefined;
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

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0];
    const wantsPage = (req.method === 'GET' || req.method === 'HEAD') && !path.startsWith('/api/') && path !== '/api';
    if (sendPage && wantsPage && !/\.[a-z0-9]{1,5}$/i.test(path)) return sendPage(req, reply);
    return reply.status(404).send({ message: `Not found: ${req.method} ${path}`, statusCode: 404 });
  });
}
