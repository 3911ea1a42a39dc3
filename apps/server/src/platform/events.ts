import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, Db, Tx } from '../db/client';

/**
 * Every database channel the server uses, in one place (lowercase: PGlite lowercases them).
 * - `change`: the database's triggers name what a committed write changed (migration
 *   0012_change_notify.sql; payloads in `parseChange`); the caches drop what was built from it.
 * - `account`: an account whose tokens a committed write ended (role, token version, deletion),
 *   one id per payload, from the same triggers; the token check forgets it, chat sockets close.
 * - `chat`: a new message or read mark, with both accounts (the chats module's push; the personal
 *   cache drops their answers from it too).
 * - `booking`: a booking was confirmed, cancelled, refunded or marked a no-show, with both accounts
 *   (the bookings module's announcement; the socket pushes each side the booking as they see it).
 * - `settle`: a process's note to itself that it has seen everything committed before a write.
 */
export const CHANNELS = {
  change: 'spotter_change',
  account: 'spotter_account',
  chat: 'spotter_chat',
  booking: 'spotter_booking',
  settle: 'spotter_settle',
} as const;

/** What the `change` channel names: a table (or an aspect of one) and the accounts concerned. */
export type ChangeKind = 'accounts' | 'ratings' | 'reviews' | 'bookings' | 'sessions' | 'availability' | 'messages';
const CHANGE_KINDS = new Set<string>(['accounts', 'ratings', 'reviews', 'bookings', 'sessions', 'availability', 'messages']);
/** `ids` undefined: too many to name (a bulk write), everything of that kind changed. */
export type Change = { kind: ChangeKind; ids?: string[] };

const isChangeKind = (kind: string): kind is ChangeKind => CHANGE_KINDS.has(kind);

/** `accounts:<id>,<id>` or `accounts`; undefined for a payload that names no known kind (every cache drops everything). */
export function parseChange(payload: string): Change | undefined {
  const colon = payload.indexOf(':');
  const kind = colon < 0 ? payload : payload.slice(0, colon);
  if (!isChangeKind(kind)) return undefined;
  const ids =
    colon < 0
      ? undefined
      : payload
          .slice(colon + 1)
          .split(',')
          .filter(Boolean);
  return { kind, ids: ids?.length ? ids : undefined };
}

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
    channels: CHANNELS,
    /** `notify` for a module handed `app.events`: announce with the write's transaction. */
    publish: notify,
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
type NotifyBus = ReturnType<typeof createNotifyBus>;

/**
 * `app.events`: this process's subscriptions to the database's channels, closed with the app.
 * Registered before anything that listens (declared as their dependency).
 */
export const eventsPlugin = fp(
  async (app: FastifyInstance, { database }: { database: Database }) => {
    const bus = createNotifyBus(database, app.log);
    app.decorate('events', bus);
    app.addHook('onClose', () => bus.close());
  },
  { name: 'spotter-events', fastify: '5.x' },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The database's channels (platform/events.ts). */
    events: NotifyBus;
  }
}
