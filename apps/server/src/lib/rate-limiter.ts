import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { SERVER_MSG } from '@spotter/shared';
import { AppError } from './app-error';

/**
 * A fixed-window counter in memory, as a preHandler, so several limits (per IP, per e-mail) can
 * apply to one route. Each process counts on its own; see docs/decisions/004-rate-limits.md.
 */
export function createRateLimiter(opts: { max: number; windowMs: number; key: (req: FastifyRequest) => string | undefined }) {
  const hits = new Map<string, { count: number; resetAt: number }>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [k, v] of hits) if (v.resetAt <= now) hits.delete(k);
  }, opts.windowMs);
  sweep.unref();

  const handler: preHandlerAsyncHookHandler = async (req, reply) => {
    const id = opts.key(req);
    if (id === undefined) return;
    const key = `${req.routeOptions.url}|${id}`;
    const now = Date.now();
    let entry = hits.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + opts.windowMs };
      hits.set(key, entry);
    }
    entry.count++;
    if (entry.count > opts.max) {
      reply.header('Retry-After', Math.ceil((entry.resetAt - now) / 1000));
      throw new AppError(429, SERVER_MSG.tooMany);
    }
  };
  return handler;
}
