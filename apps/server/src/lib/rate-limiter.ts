import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { SERVER_MSG } from '@spotter/shared';
import { AppError } from './app-error';

/**
 * A fixed-window counter in memory, as a preHandler, so several limits (per IP, per e-mail) can
 * apply to one route. Each process counts on its own; see docs/decisions/003-rate-limits.md.
 */
export function createRateLimiter(opts: {
  max: number;
  windowMs: number;
  key: (req: FastifyRequest) => string | undefined;
  /** the 429's message, from the seconds until the window ends; by default "wait a minute" */
  message?: (retryAfterSeconds: number) => string;
}) {
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
      const retryAfter = Math.ceil((entry.resetAt - now) / 1000);
      reply.header('Retry-After', retryAfter);
      throw new AppError('RATE_LIMITED', opts.message ? opts.message(retryAfter) : SERVER_MSG.tooMany);
    }
  };
  return handler;
}
