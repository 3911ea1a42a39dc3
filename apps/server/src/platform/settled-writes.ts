import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client';
import { CHANNELS, notify } from './events';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A GET that writes (a mailed link): its answer waits as a write's does (platform/settled-writes.ts). */
    writes?: boolean;
  }
}

/** With the listening connection down, a write's answer waits this long at most. */
const SETTLE_TIMEOUT_MS = 1000;

/**
 * A write's answer (any method but GET, HEAD and OPTIONS, or a route with `config: { writes: true }`) leaves only once this process has handled every notification committed before
 * it: its caches have dropped what the write changed and the token check has forgotten a changed
 * account, whichever accounts the write concerned (the database's triggers name them). So the
 * writer's next request, and anything its client does on seeing the answer, reads the write.
 * Notifications reach a listener in commit order: the process NOTIFYs itself once the write has
 * committed and lets the answer go when that arrives (docs/decisions/036-invalidation-by-the-database.md).
 * PGlite hands a transaction's notifications to the listeners before its commit returns: nothing
 * to wait for there.
 */
export const settledWritesPlugin = fp(
  async (app: FastifyInstance, { database }: { database: Database }) => {
    if (database.kind === 'pglite') return;
    const waiting = new Map<string, () => void>();
    // the other channels' handlers for notifications before this one run in microtasks queued before
    // it; the answer goes after them
    await app.events.subscribe(CHANNELS.settle, (id) => {
      const done = waiting.get(id);
      if (done) setImmediate(done);
    });

    app.addHook('onSend', async (req, reply, payload) => {
      const reads = req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS';
      if ((reads && !req.routeOptions.config.writes) || reply.statusCode >= 400) return payload;
      const id = randomUUID();
      let timer: NodeJS.Timeout | undefined;
      const seen = new Promise<void>((resolve) => {
        waiting.set(id, resolve);
        timer = setTimeout(resolve, SETTLE_TIMEOUT_MS);
      });
      try {
        await notify(database.db, CHANNELS.settle, id);
        await seen;
      } catch (err) {
        // the write stands; only the caches may lag (until the notifications arrive, or their age runs out)
        req.log.warn({ err }, 'write not settled');
      } finally {
        clearTimeout(timer);
        waiting.delete(id);
      }
      return payload;
    });
  },
  // after the caches, so their handlers are subscribed first and run first
  { name: 'spotter-settled-writes', fastify: '5.x', dependencies: ['spotter-events', 'spotter-caches'] },
);
