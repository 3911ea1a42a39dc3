import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** One database handle for PGlite and PostgreSQL alike. */
export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Runs SQL on one connection that holds an advisory lock for the duration of `fn`. */
  withLock<T>(key: number, fn: (exec: (sql: string) => Promise<unknown>) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /**
   * LISTENs on a lowercase channel: `onPayload` gets each NOTIFY payload, after its transaction
   * commits. On PostgreSQL this uses one dedicated connection outside the pool that reconnects on
   * its own; `onReconnect` runs after it did, since notifications sent meanwhile are lost.
   * Answers a function that stops this listener.
   */
  listen(channel: string, onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
function checkChannel(channel: string) {
  // PGlite lowercases channel names, and LISTEN takes an identifier, not a parameter
  if (!CHANNEL_NAME.test(channel))
    throw new Error(`invalid channel name ${JSON.stringify(channel)}: use lowercase letters, digits and _`);
}

/**
 * `statementTimeoutMs` (PostgreSQL): the longest a statement of the pool may run, so a request on
 * a database that hangs fails rather than waits; the server sets it, scripts (bulk seeding) do not.
 * Migrations run on a connection of their own without it.
 */
type DatabaseOptions = {
  url?: string;
  dataDir?: string;
  inMemory?: boolean;
  statementTimeoutMs?: number;
  /** PGlite: starts from this dumped data directory (`dumpDataDir`), as the tests' migrated template. */
  loadDataDir?: Blob;
};

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) return openPostgres(opts.url, opts.statementTimeoutMs);
  return openPglite(opts.inMemory ? undefined : join(opts.dataDir ?? './data', 'db'), opts.loadDataDir);
}

const PGLITE_SHARED_BUFFERS = '32MB';

async function openPglite(dir?: string, loadDataDir?: Blob): Promise<Database> {
  if (dir) mkdirSync(dir, { recursive: true });
  // extensions must be named on every open; CREATE EXTENSION lives in a migration
  // PostgreSQL's default 128 MB of shared buffers is most of an idle server's memory here (RSS at
  // open: 343 MiB with it, 245 MiB with 32 MB); the operating system's cache still holds the files.
  const client = new PGlite({
    dataDir: dir,
    loadDataDir,
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    // PGlite has one connection and runs one statement at a time; a lock is still taken so the
    // code path matches PostgreSQL's.
    async withLock(key, fn) {
      await client.query('select pg_advisory_lock($1)', [key]);
      try {
        return await fn((sql) => client.exec(sql));
      } finally {
        await client.query('select pg_advisory_unlock($1)', [key]);
      }
    },
    async ping() {
      await client.query('select 1');
    },
    async listen(channel, onPayload) {
      checkChannel(channel);
      // the one connection is also the listener, so nothing can be missed and nothing reconnects
      const unlisten = await client.listen(channel, onPayload);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    async close() {
      await client.close();
    },
  };
}

/**
 * How long a request waits for a new connection to PostgreSQL. While the database is unreachable
 * requests fail after at most this long (503 DATABASE_UNAVAILABLE) instead of queueing up.
 */
const CONNECT_TIMEOUT_MS = 2000;
/** The client gives up on an answer this long after the server's own statement timeout. */
const QUERY_TIMEOUT_GRACE_MS = 2000;

async function openPostgres(url: string, statementTimeoutMs?: number): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // a connection whose peer vanished without closing it is found out and dropped
    keepAlive: true,
    ...(statementTimeoutMs
      ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + QUERY_TIMEOUT_GRACE_MS }
      : {}),
  });
  pool.on('error', () => {
    // an idle client lost its connection; the pool replaces it on next use
  });
  // A client handed out (a transaction between two statements) that loses its connection emits
  // 'error', and the pool listens only to idle ones: with no listener the process died. Its queries
  // fail on their own, and the pool drops it when it is released (test/faults/pool-drop.slow.test.ts).
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const listener = createPgListener(url);
  return {
    kind: 'postgres',
    db,
    async withLock(key, fn) {
      // a connection of its own, without the pool's timeouts: a migration may take long
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
      client.on('error', () => undefined);
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [key]);
        try {
          return await fn((sql) => client.query(sql));
        } finally {
          await client.query('select pg_advisory_unlock($1)', [key]);
        }
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    async ping() {
      await pool.query('select 1');
    },
    listen: listener.listen,
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}

type Listener = { onPayload: (payload: string) => void; onReconnect?: () => void };

/**
 * LISTEN needs a connection of its own that stays open: a pooled one would be handed to other
 * queries and lose its LISTENs. When it drops, it reconnects with back-off (0.1 s doubling to
 * 5 s), LISTENs again on every channel and tells the listeners, which then resynchronise.
 */
function createPgListener(url: string) {
  const channels = new Map<string, Set<Listener>>();
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let attempt = 0;
  let closed = false;

  async function connect(): Promise<pg.Client> {
    const c = new pg.Client({
      connectionString: url,
      keepAlive: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: 'spotter-listener',
    });
    c.on('notification', (n) => {
      for (const l of channels.get(n.channel) ?? []) l.onPayload(n.payload ?? '');
    });
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    try {
      await c.connect();
      for (const channel of channels.keys()) await c.query(`listen ${channel}`);
    } catch (err) {
      c.removeAllListeners('end');
      c.end().catch(() => undefined);
      throw err;
    }
    client = c;
    attempt = 0;
    return c;
  }

  /** The current connection, opening it when there is none. */
  function ensure(): Promise<pg.Client> {
    if (client) return Promise.resolve(client);
    connecting ??= connect().finally(() => (connecting = undefined));
    return connecting;
  }

  function lost(c: pg.Client) {
    if (client !== c) return;
    client = undefined;
    c.end().catch(() => undefined);
    if (!closed) scheduleReconnect();
  }

  function scheduleReconnect() {
    if (retry || closed) return;
    const delay = Math.min(5000, 100 * 2 ** attempt++);
    retry = setTimeout(() => {
      retry = undefined;
      ensure().then(
        () => {
          for (const set of channels.values()) for (const l of set) l.onReconnect?.();
        },
        () => scheduleReconnect(),
      );
    }, delay);
    retry.unref();
  }

  return {
    async listen(channel: string, onPayload: (payload: string) => void, onReconnect?: () => void) {
      checkChannel(channel);
      if (closed) throw new Error('the database is closed');
      const listener: Listener = { onPayload, onReconnect };
      let set = channels.get(channel);
      const isNew = !set;
      if (!set) channels.set(channel, (set = new Set()));
      set.add(listener);
      try {
        const c = await ensure();
        // a fresh connection LISTENs on every known channel already
        if (isNew && c === client) await c.query(`listen ${channel}`);
      } catch (err) {
        set.delete(listener);
        if (!set.size) channels.delete(channel);
        throw err;
      }
      return async () => {
        set.delete(listener);
        if (set.size || channels.get(channel) !== set) return;
        channels.delete(channel);
        await client?.query(`unlisten ${channel}`).catch(() => undefined);
      };
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      channels.clear();
      const c = client ?? (await connecting?.catch(() => undefined));
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}

/** SQLSTATE classes and codes of a database that is down, starting, overloaded or too slow. */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-3]$|53300$|57014$)/;
/** What node-postgres throws when it has no connection, or lost the one it had. */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Cannot use a pool after calling end)/;
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * True when `err` (or what it wraps: Drizzle wraps the driver's error in `cause`) says the
 * database could not be reached or did not answer in time, rather than that the query was wrong.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_ERRNO.has(code) || (code.length === 5 && UNAVAILABLE_SQLSTATE.test(code))))
      return true;
    if (UNAVAILABLE_MESSAGE.test(e.message)) return true;
    // several addresses tried (localhost as ::1 and 127.0.0.1): one error per address
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}
