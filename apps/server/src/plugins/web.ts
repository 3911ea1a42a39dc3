import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * Serves the built web app: hashed assets cached for a year, HTML never cached, and
 * index.html for every other path that is not the API (history fallback).
 */
export async function registerWeb(app: FastifyInstance, webDist: string | undefined) {
  const index = webDist ? join(webDist, 'index.html') : undefined;
  const hasWeb = !!index && existsSync(index);
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

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const wantsPage = (req.method === 'GET' || req.method === 'HEAD') && !path.startsWith('/api/') && path !== '/api';
    if (hasWeb && wantsPage && !/\.[a-z0-9]{1,5}$/i.test(path)) {
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
    }
    return reply.status(404).send({ message: `Not found: ${req.method} ${path}`, statusCode: 404 });
  });
}
