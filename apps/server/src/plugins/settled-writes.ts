import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import { createNotifyBus, notify } from '../lib/notify-bus';

/** The channel on which this process tells itself that it has seen everything committed before. */
const SETTLE_CHANNEL = 'spotter_settle';
/** With the listening connection down, a write's answer waits this long at most. */
const SETTLE_TIMEOUT_MS = 1000;

/**
 * A write's answer leaves only once this process has handled every notification committed before
 * it: its caches have dropped what the write changed and the token check has forgotten a changed
 * account, whichever accounts the write concerned and whoever announced it (a route, a trigger).
 * So the writer's next request, and anything its client does on seeing the answer, reads the write.
 * Notifications reach a listener in commit order: the process NOTIFYs itself once the write has
 * committed and lets the answer go when that arrives (docs/decisions/024-personal-read-cache.md).
 * PGlite hands a transaction's notifications to the listeners before its commit returns: nothing
 * to wait for there.
 */
export async function registerSettledWrites(app: FastifyInstance, database: Database): Promise<void> {
  if (database.kind === 'pglite') return;
  const waiting = new Map<string, () => void>();
  const bus = createNotifyBus(database, app.log);
  // the other channels' handlers for notifications before this one run in microtasks queued before
  // it; the answer goes after them
  await bus.subscribe(SETTLE_CHANNEL, (id) => {
    const done = waiting.get(id);
    if (done) setImmediate(done);
  });
  app.addHook('onClose', () => bus.close());

  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || reply.statusCode >= 400) return payload;
    const id = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const seen = new Promise<void>((resolve) => {
      waiting.set(id, resolve);
      timer = setTimeout(resolve, SETTLE_TIMEOUT_MS);
    });
    try {
      await notify(database.db, SETTLE_CHANNEL, id);
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
}
