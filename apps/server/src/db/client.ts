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
  close(): Promise<void>;
}

export type DatabaseOptions = { url?: string; dataDir?: string; inMemory?: boolean };

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) return openPostgres(opts.url);
  return openPglite(opts.inMemory ? undefined : join(opts.dataDir ?? './data', 'db'));
}

async function openPglite(dir?: string): Promise<Database> {
  if (dir) mkdirSync(dir, { recursive: true });
  // extensions must be named on every open; CREATE EXTENSION lives in a migration
  const client = new PGlite({ dataDir: dir, extensions: { pg_trgm } });
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
    async close() {
      await client.close();
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  pool.on('error', () => {
    // an idle client lost its connection; the pool replaces it on next use
  });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    async withLock(key, fn) {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [key]);
        try {
          return await fn((sql) => client.query(sql));
        } finally {
          await client.query('select pg_advisory_unlock($1)', [key]);
        }
      } finally {
        client.release();
      }
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      await pool.end();
    },
  };
}
