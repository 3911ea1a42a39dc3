import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db, Tx } from '../db/client';

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; stay clearly below. */
const NOTIFY_PAYLOAD_MAX_BYTES = 7900;

/**
 * Announces `payload` on `channel` through `q`. Called with the transaction of the write it
 * announces, it is delivered to every listening process after that write commits, and never
 * when it rolls back.
 */
export async function notify(q: Db | Tx, channel: string, payload: string): Promise<void> {
  if (Buffer.byteLength(payload) > NOTIFY_PAYLOAD_MAX_BYTES) throw new Error(`notify payload on ${channel} is too large`);
  await q.execute(sql`select pg_notify(${channel}, ${payload})`);
}

type NotifyHandler = (payload: string) => void | Promise<void>;

/**
 * Listens on database channels for this process. A channel's payloads are handled one after the
 * other, in commit order, so an async handler (one that reads the database) cannot reorder them;
 * a failing handler is logged and the next payload still runs.
 */
export function createNotifyBus(database: Database, log: FastifyBaseLogger) {
  const stops: Array<() => Promise<void>> = [];
  return {
    async subscribe(channel: string, handler: NotifyHandler, onReconnect?: () => void): Promise<void> {
      let queue = Promise.resolve();
      const run = (payload: string) => {
        queue = queue.then(() => handler(payload)).catch((err) => log.error({ err, channel }, 'notification handler failed'));
      };
      stops.push(
        await database.listen(channel, run, () => {
          log.warn({ channel }, 'database listener reconnected; notifications sent meanwhile were missed');
          onReconnect?.();
        }),
      );
    },
    async close(): Promise<void> {
      await Promise.all(stops.splice(0).map((stop) => stop().catch(() => undefined)));
    },
  };
}
