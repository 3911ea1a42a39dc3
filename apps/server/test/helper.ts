import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, inject } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { openDatabase, type Database } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { installLeakCheck } from './support/leak-check';
import { SIGN_UP } from './support/sign-up';

export type TestApp = {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** Mails written to the outbox so far, oldest first. */
  outbox(): Array<{ to: string; subject: string; text: string; links: string[] }>;
  close(): Promise<void>;
};

/**
 * A fresh app on a fresh database: an in-memory PGlite copied from the run's migrated template by
 * default, or the PostgreSQL of TEST_DATABASE_URL (CI), the file's own copy of the template
 * (support/setup.ts), which the file's apps share; tests use unique e-mails.
 */
/**
 * The push service every test app sends to unless a test names its own (PUSH_ENDPOINT_HOSTS): a
 * closed local port, so no test reaches a real push service (docs/decisions/049-web-push.md).
 */
export const TEST_PUSH_HOST = 'http://127.0.0.1:9';

export async function buildTestApp(
  env: Record<string, string> = {},
  { databaseUrl = process.env.TEST_DATABASE_URL } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'spotter-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '10000',
    PUBLIC_URL: 'http://localhost:3000',
    PUSH_ENDPOINT_HOSTS: TEST_PUSH_HOST,
    ...env,
  });
  const database = await openTestDatabase(databaseUrl);
  const app = await buildApp({ config, database, logger: !!process.env.DBG });
  installLeakCheck(app, database);
  await app.ready();
  const outboxDir = join(dataDir, 'outbox');
  return {
    app,
    database,
    config,
    outbox() {
      let files: string[] = [];
      try {
        files = readdirSync(outboxDir)
          .filter((f) => f.endsWith('.json'))
          .sort();
      } catch {
        return [];
      }
      return files.map((f) => JSON.parse(readFileSync(join(outboxDir, f), 'utf8')));
    },
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A migrated database for a test's own app: the PostgreSQL of TEST_DATABASE_URL (the file's own),
 * or an in-memory PGlite copied from the run's template.
 */
export async function openTestDatabase(databaseUrl = process.env.TEST_DATABASE_URL): Promise<Database> {
  const database = await openDatabase(
    databaseUrl ? { url: databaseUrl } : { inMemory: true, loadDataDir: await pgliteTemplate() },
  );
  await migrate(database); // nothing to do on a template; applies a migration the template lacks
  return database;
}

let template: Promise<Blob | undefined> | undefined;
/** The run's migrated PGlite data directory (support/global-setup.ts), read once per worker. */
function pgliteTemplate() {
  template ??= tarball(inject('pgliteTemplate'));
  return template;
}

let cluster: Promise<Blob | undefined> | undefined;
/**
 * A PGlite data directory as initdb leaves it, without any table (support/global-setup.ts), for
 * `openDatabase({ inMemory: true, loadDataDir })`: the same empty database as `{ inMemory: true }`
 * alone, without running initdb again (several seconds of CPU).
 */
export function emptyPgliteCluster() {
  cluster ??= tarball(inject('pgliteCluster'));
  return cluster;
}

/**
 * Puts the run's initdb output (support/global-setup.ts) into `dataDir`'s empty PGlite folder, so
 * that `openDatabase({ dataDir })` or a server on `dataDir` finds a database without tables and
 * migrates it as on a first start, without PGlite's initdb on disk (about 10 s of CPU).
 */
export function unpackEmptyPgliteCluster(dataDir: string) {
  const db = join(dataDir, 'db');
  mkdirSync(db, { recursive: true, mode: 0o700 });
  execFileSync('tar', ['-xf', inject('pgliteCluster'), '-C', db], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * A tarball for PGlite's `loadDataDir`. PGlite reads it with `arrayBuffer()` alone and copies each
 * file out of it, so every database gets the same bytes: a Blob would copy the 40 MB through a
 * stream for each one (0.4-1 s of CPU per test file).
 */
async function tarball(file: string | undefined): Promise<Blob | undefined> {
  if (!file) return undefined;
  const bytes = await readFile(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return { type: 'application/x-tar', size: buffer.byteLength, arrayBuffer: async () => buffer } as unknown as Blob;
}

/** One test app per file, closed after the file's tests. */
export async function useTestApp(env?: Record<string, string>): Promise<TestApp> {
  const t = await buildTestApp(env);
  afterAll(() => t.close());
  return t;
}

let counter = 0;
export const uniqueEmail = (prefix = 'person') => `${prefix}.${Date.now().toString(36)}.${process.pid}.${++counter}@example.com`;

export const validSignUp = (overrides: Record<string, unknown> = {}) => ({
  ...SIGN_UP,
  email: uniqueEmail(),
  ...overrides,
});

export const validTrainerSignUp = (overrides: Record<string, unknown> = {}) =>
  validSignUp({ price: 200, city: 'Cairo', ...overrides });

export const json = <T = Record<string, unknown>>(res: LightMyRequestResponse) => res.json() as T;

/** Registers, verifies through the mailed link, logs in; answers the account's token and e-mail. */
export async function createAccount(
  t: TestApp,
  role: 'user' | 'trainer',
  overrides: Record<string, unknown> = {},
  { verify = true } = {},
): Promise<{ token: string; email: string; password: string; id: string }> {
  const body = role === 'trainer' ? validTrainerSignUp(overrides) : validSignUp(overrides);
  const plural = role === 'trainer' ? 'trainers' : 'users';
  const reg = await t.app.inject({ method: 'POST', url: `/api/${plural}/register`, payload: body });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.statusCode} ${reg.body}`);
  if (verify) {
    const mail = t
      .outbox()
      .filter((m) => m.to === body.email)
      .at(-1);
    const link = new URL(mail!.links[0]);
    const res = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    if (res.statusCode !== 302) throw new Error(`verify failed: ${res.statusCode}`);
  }
  const login = await t.app.inject({
    method: 'POST',
    url: `/api/${plural}/login`,
    payload: { email: body.email, password: body.password },
  });
  const token = login.json().token as string;
  const me = await t.app.inject({
    method: 'GET',
    url: role === 'trainer' ? '/api/trainerData' : '/api/userData',
    headers: { authorization: token },
  });
  const data = me.json();
  return { token, email: body.email as string, password: body.password as string, id: (data.userData ?? data.trainerData)._id };
}

let trainerCounter = 0;
/** A verified trainer stored directly (no Argon2, no mail), for list and review tests. */
export async function insertTrainer(t: TestApp, values: Partial<typeof import('../src/db/schema').accounts.$inferInsert> = {}) {
  const { accounts } = await import('../src/db/schema');
  const [row] = await t.database.db
    .insert(accounts)
    .values({
      role: 'trainer',
      email: uniqueEmail('trainer'),
      passwordHash: 'not-a-login',
      firstName: 'Coach',
      lastName: `Number${++trainerCounter}`,
      gender: 'male',
      age: 30,
      height: 180,
      weight: 80,
      phone: '01198765432',
      title: 'Strength coach',
      description: 'Barbell basics',
      city: 'Cairo',
      priceCents: 20000,
      emailVerifiedAt: new Date(),
      // a stored average sorts as if it had many reviews, unless the test gives its own score
      ratingScore: values.ratingAvg ?? 0,
      ...values,
    })
    .returning();
  return row;
}

/**
 * A new, empty PostgreSQL database on the server of TEST_DATABASE_URL, for tests that need a
 * database nobody else has migrated or seeded; dropped by `drop()`. Undefined without PostgreSQL.
 */
export async function createFreshPgDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return undefined;
  const { default: pg } = await import('pg');
  const name = `spotter_t_${process.pid}_${Date.now().toString(36)}_${++counter}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
