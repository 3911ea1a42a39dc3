import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase, type Database } from '../../src/db/client';
import { defaultMigrationsDir, migrate } from '../../src/db/migrate';

/**
 * Migrates once per run, so that each test file starts from a copy (docs/testing.md#template-databases):
 * - PGlite: a migrated data directory, dumped to a tarball that each file loads (`loadDataDir`,
 *   about 0.6 s instead of 3.9 s to open and migrate). The tarball is kept between runs under
 *   node_modules/.cache, named by the hash of the migrations and of PGlite's version.
 * - PostgreSQL (TEST_DATABASE_URL): a template database, migrated here; every test file gets a
 *   database of its own made from it (support/setup.ts), and this drops them all at the end.
 */
export default async function setup(project: TestProject) {
  const pglite = await pgliteTemplates();
  project.provide('pgliteTemplate', pglite.template);
  project.provide('pgliteCluster', pglite.cluster);
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return;
  // in every database name of this run, so that .ci/run can drop what a crashed run left
  const run = process.env.TEST_RUN_ID || `${Date.now().toString(36)}${process.pid.toString(36)}`;
  if (!/^[a-z0-9]{1,24}$/.test(run)) throw new Error(`TEST_RUN_ID must be 1 to 24 lowercase letters and digits: ${run}`);
  const template = `spotter_tpl_${run}`;
  await admin(base, `create database ${template}`);
  const database = await openDatabase({ url: withDatabase(base, template) });
  try {
    await migrate(database);
  } finally {
    await database.close();
  }
  project.provide('pgBase', base);
  project.provide('pgTemplate', template);
  project.provide('pgRun', run);
  return async () => {
    // the template and every file's database of this run (a file drops its own; this catches a crashed one)
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      const { rows } = await c.query<{ datname: string }>(
        `select datname from pg_database where datname like 'spotter\\_%' and position($1 in datname) > 0`,
        [run],
      );
      for (const { datname } of rows) await c.query(`drop database if exists ${datname} with (force)`);
    } finally {
      await c.end();
    }
  };
}

/**
 * The migrated template, and beside it the same PGlite data directory as initdb left it (no table of
 * Spotter's): the server processes of the slow tests start on a copy of that instead of running
 * initdb themselves, about 10 s of CPU each (faults/server-process.ts).
 */
async function pgliteTemplates(): Promise<{ template: string; cluster: string }> {
  const migrations = defaultMigrationsDir();
  const hash = createHash('sha256');
  const pglite = ['../../node_modules', '../../../../node_modules']
    .map((d) => fileURLToPath(new URL(`${d}/@electric-sql/pglite/package.json`, import.meta.url)))
    .find((f) => existsSync(f));
  hash.update(pglite ? readFileSync(pglite) : 'unknown');
  for (const f of readdirSync(migrations)
    .filter((n) => n.endsWith('.sql'))
    .sort())
    hash.update(f).update(readFileSync(join(migrations, f)));
  const dir = fileURLToPath(new URL('../../../../node_modules/.cache/spotter-test', import.meta.url));
  const name = `pglite-${hash.digest('hex').slice(0, 16)}`;
  const file = join(dir, `${name}.tar`);
  const cluster = join(dir, `${name}-initdb.tar`);
  if (existsSync(file) && existsSync(cluster)) return { template: file, cluster };
  mkdirSync(dir, { recursive: true });
  const save = async (to: string, dump: Blob) => {
    const partial = `${to}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, to);
  };
  const client = new PGlite({ extensions: { pg_trgm } });
  try {
    await client.waitReady;
    await save(cluster, await client.dumpDataDir('none'));
    // migrate() needs only the lock; PGlite has one connection, which runs the migrations
    const shim = { withLock: (_key, fn) => fn((sql) => client.exec(sql)) } satisfies Pick<Database, 'withLock'>;
    await migrate(shim as Database);
    await save(file, await client.dumpDataDir('none'));
  } finally {
    await client.close();
  }
  return { template: file, cluster };
}

/** Runs one statement on `base`'s server through a connection of its own (CREATE and DROP DATABASE). */
export async function admin(base: string, sql: string) {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export function withDatabase(base: string, name: string) {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite data directory, a tarball. */
    pgliteTemplate: string;
    /** A PGlite data directory as initdb leaves it, a tarball (faults/server-process.ts). */
    pgliteCluster: string;
    /** With PostgreSQL: the server's URL as given, the template database, the run's id in every name. */
    pgBase?: string;
    pgTemplate?: string;
    pgRun?: string;
  }
}
