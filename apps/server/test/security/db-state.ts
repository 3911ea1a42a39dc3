import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client';
import { buildTestApp, createFreshPgDatabase, type TestApp } from '../helper';

/**
 * A test app on a database of its own: in-memory PGlite, or a fresh PostgreSQL database when
 * TEST_DATABASE_URL is set, since the shared one changes under other test files running at once
 * and these tests compare the whole database before and after a call.
 */
export async function buildIsolatedApp(env: Record<string, string> = {}): Promise<TestApp> {
  const fresh = await createFreshPgDatabase();
  const t = await buildTestApp(env, fresh ? { databaseUrl: fresh.url } : {});
  if (!fresh) return t;
  return {
    ...t,
    async close() {
      await t.close();
      await fresh.drop();
    },
  };
}

type TableState = { rows: number; hash: string };
export type DbState = Record<string, TableState>;

const DERIVED = new Set(['trainer_free_slots', 'trainer_slot_refreshes']);
const tableNames = new WeakMap<Database, string[]>();
async function tablesOf(database: Database): Promise<string[]> {
  let names = tableNames.get(database);
  if (!names) {
    const result = await database.db.execute(
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    );
    // derived tables the server keeps up to date on its own (the trainer list's free-slot index,
    // docs/decisions/040-finding-free-trainers.md) are not data a request stores
    names = (result as { rows: Array<{ name: string }> }).rows.map((r) => r.name).filter((name) => !DERIVED.has(name));
    tableNames.set(database, names);
  }
  return names;
}

/**
 * Every table's row count and a hash of all its rows, in one statement (in the order a scan reads
 * them, which only a write changes: sorting them cost four times as much). With `mentioning`, only
 * the rows whose text holds one of those strings (an account's id: its own row, its messages,
 * bookings, reviews…), to show that one account's data did not change while another's may.
 */
export async function dbState(database: Database, mentioning: string[] = []): Promise<DbState> {
  const tables = await tablesOf(database);
  const filter = mentioning.length
    ? sql.raw(` where ${mentioning.map((m) => `t::text like '%${m.replace(/[^\w@.-]/g, '')}%'`).join(' or ')}`)
    : sql.raw('');
  const parts = tables.map(
    (name) =>
      sql`select ${name} as name, count(*)::int as rows, md5(coalesce(string_agg(t::text, '|'), '')) as hash from ${sql.identifier(name)} t${filter}`,
  );
  const result = await database.db.execute(sql.join(parts, sql` union all `));
  return Object.fromEntries(
    (result as { rows: Array<{ name: string; rows: number; hash: string }> }).rows.map((r) => [
      r.name,
      { rows: Number(r.rows), hash: r.hash },
    ]),
  );
}

/** `GET /api/x` style keys of every route the app registered (HEAD twins of GETs left out). */
export function registeredRoutes(app: FastifyInstance): string[] {
  const tree = app.printRoutes({ commonPrefix: true });
  const prefixes: string[] = [];
  const routes = new Set<string>();
  for (const line of tree.split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = (at - 1) / 4;
    const m = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(at + 3).replace('(empty root node)', ''))!;
    const path = (depth > 0 ? prefixes[depth - 1] : '') + m[1];
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    for (const method of m[2]?.split(', ') ?? []) if (method !== 'HEAD') routes.add(`${method} ${path}`);
  }
  return [...routes].sort();
}
