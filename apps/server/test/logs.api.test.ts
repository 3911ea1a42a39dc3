import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { Database } from '../src/db/client';
import { accounts } from '../src/db/schema';
import { redactUrl, serializeError } from '../src/platform/logging';
import { openTestDatabase, validSignUp } from './helper';

type LogEntry = { level: number; reqId?: string; err?: { code?: string }; req?: { url?: string } };

/** A secret that a failing query carries as a parameter; it must not reach the log. */
const QUERY_SECRET = 'query-param-secret-7f3a';

let app: FastifyInstance;
let database: Database;
let dataDir: string;
const lines: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'spotter-logs-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'trace',
    RATE_LIMIT_MAX: '10000',
    PUBLIC_URL: 'http://localhost:3000',
  });
  database = await openTestDatabase();
  app = await buildApp({ config, database, logStream: { write: (line) => void lines.push(line) } });
  // test-only: a query that fails on its parameter, as a bad value reaching the database would
  app.get('/api/test-only/failing-query', async () => {
    await database.db.execute(sql`select ${QUERY_SECRET}::int as n`);
    return { ok: true };
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const outbox = () =>
  readdirSync(join(dataDir, 'outbox'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dataDir, 'outbox', f), 'utf8')) as { to: string; links: string[] });
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('the log', () => {
  it('never carries a password, its hash, a session token, a link token or a query parameter', async () => {
    const body = validSignUp();
    expect((await app.inject({ method: 'POST', url: '/api/users/register', payload: body })).statusCode).toBe(201);
    const verifyLink = outbox().find((m) => m.to === body.email)!.links[0];
    const verify = new URL(verifyLink);
    expect((await app.inject({ url: verify.pathname + verify.search })).statusCode).toBe(302);

    const login = await app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: body.email, password: body.password },
    });
    const session = login.json().token as string;
    expect((await app.inject({ url: '/api/userData', headers: { authorization: `Bearer ${session}` } })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/userData', headers: { authorization: session } })).statusCode).toBe(200);

    await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email: body.email, role: 'user' } });
    const resetLink = outbox()
      .filter((m) => m.to === body.email)
      .at(-1)!.links[0];
    const reset = new URL(resetLink);
    await app.inject({ url: reset.pathname + reset.search }); // the page the mail opens
    const newPassword = 'Newpass12';
    const done = await app.inject({
      method: 'POST',
      url: '/api/password/reset',
      payload: { token: tokenOf(resetLink), password: newPassword, confirmPassword: newPassword },
    });
    expect(done.statusCode).toBe(200);

    const failed = await app.inject({ url: '/api/test-only/failing-query' });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ message: 'Something went wrong on our side', statusCode: 500, code: 'INTERNAL' });

    const [row] = await database.db
      .select({ passwordHash: accounts.passwordHash })
      .from(accounts)
      .where(eq(accounts.email, body.email));
    const log = lines.join('');
    expect(log).toContain('/api/verify?token=[redacted]'); // the request is logged, its secret is not
    for (const secret of [
      tokenOf(verifyLink),
      tokenOf(resetLink),
      session,
      session.split('.')[2],
      row.passwordHash,
      body.password,
      newPassword,
      QUERY_SECRET,
    ]) {
      expect(log, secret).not.toContain(secret);
    }

    // the failed query is logged with its SQLSTATE and the request it belongs to
    const entries = lines.map((l) => JSON.parse(l) as LogEntry);
    const error = entries.find((e) => e.level >= 50 && e.err);
    expect(error?.err?.code).toBe('22P02');
    expect(error?.reqId).toBeTruthy();
    expect(entries.some((e) => e.reqId === error?.reqId && e.req?.url === '/api/test-only/failing-query')).toBe(true);
  });

  it('redacts secret-looking query parameters, however they are spelled', () => {
    expect(redactUrl('/api/verify?token=abc')).toBe('/api/verify?token=[redacted]');
    expect(redactUrl('/reset-password?role=user&%74oken=abc')).toBe('/reset-password?role=user&%74oken=[redacted]');
    expect(redactUrl('/api/trainers?city=Cairo&sort=price')).toBe('/api/trainers?city=Cairo&sort=price');
    expect(redactUrl('/x?%E0%A4%A=abc')).toBe('/x?%E0%A4%A=[redacted]');
  });

  it('keeps a failed query out of an error that wraps it, message and stack alike', () => {
    const driver = Object.assign(new Error(`invalid input syntax for type integer: "${QUERY_SECRET}"`), {
      code: '22P02',
      severity: 'ERROR',
    });
    const query = Object.assign(new Error(`Failed query: select $1::int\nparams: ${QUERY_SECRET}`, { cause: driver }), {
      query: 'select $1::int',
      params: [QUERY_SECRET],
    });
    const wrapper = new Error(`job failed: ${query.message}`, { cause: query });
    const logged = JSON.stringify(serializeError(wrapper));
    expect(logged).not.toContain(QUERY_SECRET);
    expect(logged).toContain('"code":"22P02"');
  });
});
