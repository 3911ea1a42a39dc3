import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';

const READS = new Set(['GET', 'HEAD']);

/**
 * An answer built for one signed-in account (its profile, payments, weights, favourites, bookings,
 * conversations, or a public read that marks the caller's own rows), or for an operator, is `Cache-Control: private,
 * no-store`: no shared cache keeps it, and no browser writes it to disk where the next person at a
 * shared computer could read it (docs/decisions/034-socket-and-sign-in-limits.md). So is every answer
 * to a write (a login's token among them). A visitor's read keeps its own caching. The personal read
 * cache still answers `If-None-Match` with 304 for clients that send one.
 */
async function noStore(req: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (req.caller || req.operator || !READS.has(req.method)) reply.header('Cache-Control', 'private, no-store');
  return payload;
}

/**
 * Added to every API route as its last `onSend` hook, after a route's own (the read caches set their
 * `Cache-Control` there); register before the routes.
 */
export function registerPersonalNoStore(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const own = route.onSend ? [route.onSend].flat() : [];
    route.onSend = [...own, noStore as onSendHookHandler];
  });
}
