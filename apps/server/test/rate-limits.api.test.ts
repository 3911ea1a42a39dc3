import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@spotter/shared';
import { buildApp } from '../src/app';
import { ConfigError, loadConfig } from '../src/config';
import { rateLimits, WRITE_LIMITS } from '../src/platform/rate-limits';
import { errorHandling } from '../src/plugins/errors';
import { createAccount, uniqueEmail, useTestApp } from './helper';

/**
 * Rate limits through @fastify/rate-limit (docs/decisions/003-rate-limits.md): per IP, e-mail and
 * account; shared by every process through Redis when REDIS_URL is set, per process when Redis is
 * away. The Redis tests need a Redis (TEST_REDIS_URL, else 127.0.0.1:6379) and skip without one;
 * they never stop it: outages are a proxy in front of it that the test cuts.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisTarget = { host: new URL(REDIS_URL).hostname, port: Number(new URL(REDIS_URL).port || 6379) };
const redisUp = await new Promise<boolean>((resolve) => {
  const s = connect(redisTarget.port, redisTarget.host);
  s.setTimeout(2_000, () => (s.destroy(), resolve(false)));
  s.once('connect', () => (s.destroy(), resolve(true)));
  s.once('error', () => resolve(false));
});

// accounts are made on the usual (high-limit) app; the apps under test share its database and secret
const t = await useTestApp();
const opened: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of opened) await app.close();
});

let prefixes = 0;
/** A key prefix no other test app (in this file or another running at once) uses. */
const uniquePrefix = () => `spotter-test:${process.pid}:${Date.now().toString(36)}:${++prefixes}:`;

/** Another server process on the same database, with RATE_LIMIT_MAX 10 and `env`. */
async function appWith(env: Record<string, string> = {}) {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: t.config.dataDir,
    JWT_SECRET: t.config.jwtSecret,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    RATE_LIMIT_MAX: '10',
    ...env,
  });
  const app = await buildApp({ config, database: t.database, logger: false });
  opened.push(app);
  await app.ready();
  return app;
}

const subscribe = (app: FastifyInstance) =>
  app.inject({ method: 'POST', url: '/api/newsletter', payload: { email: uniqueEmail('news') } });

/** Sends `n` newsletter sign-ups one after another; answers their status codes. */
async function subscribeTimes(app: FastifyInstance, n: number) {
  const codes: number[] = [];
  for (let i = 0; i < n; i++) codes.push((await subscribe(app)).statusCode);
  return codes;
}
const times = (code: number, n: number) => Array<number>(n).fill(code);

function expectLimited(res: Awaited<ReturnType<FastifyInstance['inject']>>, message = SERVER_MSG.tooMany) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ message, statusCode: 429, code: 'RATE_LIMITED' });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

/** Every route of `method` with the names of its preHandlers, from Fastify's route tree. */
function preHandlersOf(app: FastifyInstance, method: string) {
  const routes = new Map<string, string[]>();
  const path: string[] = [];
  let last = '';
  for (const line of app.printRoutes({ method, includeHooks: true, commonPrefix: false }).split('\n')) {
    const node = /^([│ ]*)[├└]── (.*?) \((.+)\)$/.exec(line);
    if (node) {
      const depth = node[1].length / 4;
      path.length = depth;
      path[depth] = node[2];
      last = path.join('');
      if (node[3] !== '-') routes.set(last, []);
      continue;
    }
    const hooks = /• \(preHandler\) (\[.*\])$/.exec(line);
    if (hooks)
      routes.set(
        last,
        (JSON.parse(hooks[1]) as string[]).map((h) => h.replace(/\(\)$/, '')),
      );
  }
  return routes;
}

describe('coverage', () => {
  it('every write route is under a rate limit', () => {
    const unlimited: string[] = [];
    let writes = 0;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const [url, hooks] of preHandlersOf(t.app, method)) {
        writes++;
        if (!hooks.some((h) => h.startsWith('rateLimit:'))) unlimited.push(`${method} ${url}`);
      }
    }
    expect(writes).toBeGreaterThan(25);
    expect(unlimited).toEqual([]);
  });
});

describe('without Redis (each process counts on its own)', () => {
  it('limits a route per IP: RATE_LIMIT_MAX a minute, then 429 in the one error shape with Retry-After', async () => {
    const app = await appWith();
    expect(await subscribeTimes(app, 10)).toEqual(times(200, 10));
    expectLimited(await subscribe(app));
  });

  it('counts an IPv6 client as its /64, and an IPv4 client (also written IPv4-mapped) as its own address', async () => {
    const app = await appWith();
    const from = (remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/api/newsletter', payload: { email: uniqueEmail('news') }, remoteAddress });
    // ten addresses of one /64 share its ten a minute; the eleventh address is refused
    for (let i = 1; i <= 10; i++) expect((await from(`2001:db8:28:64::${i.toString(16)}`)).statusCode).toBe(200);
    expectLimited(await from('2001:db8:28:64:ffff:ffff:ffff:fffe'));
    // the next /64 is another client
    expect((await from('2001:db8:28:65::1')).statusCode).toBe(200);

    // IPv4: one address is one client, whether written plainly or IPv4-mapped, and its neighbour is another
    for (let i = 0; i < 5; i++) expect((await from('198.51.100.28')).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await from('::ffff:198.51.100.28')).statusCode).toBe(200);
    expectLimited(await from('198.51.100.28'));
    expectLimited(await from('::ffff:c633:641c')); // 198.51.100.28 in hex
    expect((await from('::ffff:198.51.100.29')).statusCode).toBe(200);
    expect((await from('198.51.100.30')).statusCode).toBe(200);
  });

  it(`limits other writes per account: ${WRITE_LIMITS.perAccount} a minute per route, and another account is not held back`, async () => {
    const app = await appWith();
    const [u, other] = [await createAccount(t, 'user'), await createAccount(t, 'user')];
    const favourite = (token: string) =>
      app.inject({ method: 'PUT', url: `/api/favorites/${randomUUID()}`, headers: { authorization: token } });
    for (let i = 0; i < WRITE_LIMITS.perAccount; i++) expect((await favourite(u.token)).statusCode).not.toBe(429);
    expectLimited(await favourite(u.token));
    // what the limit keeps out never reached the service: the other account's write answers as usual
    expect((await favourite(other.token)).statusCode).toBe(404);
  });
});

/**
 * A TCP proxy in front of Redis that the test cuts: `hang()` stops passing bytes on open
 * connections (a dead network), `refuse()` drops them all and refuses new ones (Redis stopped).
 */
async function redisProxy() {
  const sockets = new Set<Socket>();
  let mode: 'open' | 'hang' | 'refused' = 'open';
  const server: Server = createServer((client) => {
    const upstream = connect(redisTarget.port, redisTarget.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('data', (d) => mode === 'open' && upstream.write(d));
    upstream.on('data', (d) => mode === 'open' && client.write(d));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `redis://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    hang() {
      mode = 'hang';
    },
    async refuse() {
      mode = 'refused';
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

describe.skipIf(!redisUp)('with REDIS_URL', () => {
  it('two processes share one limit: half of it used on each, both refuse the next request', async () => {
    const env = { REDIS_URL, REDIS_PREFIX: uniquePrefix() };
    const [a, b] = [await appWith(env), await appWith(env)];
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await subscribe(a)).statusCode, (await subscribe(b)).statusCode);
    expect(codes).toEqual(times(200, 10));
    expectLimited(await subscribe(a));
    expectLimited(await subscribe(b));
  });

  it('when Redis hangs or goes away mid-way, requests still answer (never 5xx) and are limited per process', async () => {
    const proxy = await redisProxy();
    const env = { REDIS_URL: proxy.url, REDIS_PREFIX: uniquePrefix() };
    const [a, b] = [await appWith(env), await appWith(env)];
    // shared while Redis answers: 4 + 4 of the 10
    expect([...(await subscribeTimes(a, 4)), ...(await subscribeTimes(b, 4))]).toEqual(times(200, 8));
    expect(await subscribeTimes(a, 2)).toEqual(times(200, 2));
    expectLimited(await subscribe(b));

    // a network that swallows everything: the first request waits out the command timeout, the
    // rest count in this process at once; `a` has used none of its own budget yet
    proxy.hang();
    expect(await subscribeTimes(a, 12)).toEqual([...times(200, 10), 429, 429]);

    // Redis gone: connections dropped and refused; `b` counts on its own too
    await proxy.refuse();
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await subscribe(b));
    expect(answers.map((r) => r.statusCode)).toEqual([...times(200, 10), 429, 429]);
    expectLimited(answers[11]);
  });

  it('starts and limits per process when REDIS_URL is unreachable from the start', async () => {
    // a port nothing listens on: taken, then freed
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const app = await appWith({ REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PREFIX: uniquePrefix() });
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(await subscribeTimes(app, 12)).toEqual([...times(200, 10), 429, 429]);
  });
});

describe('configuration', () => {
  it('takes redis:// and rediss:// URLs and refuses others without echoing them (they may hold a password)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    expect(loadConfig({ DATA_DIR: dir, REDIS_URL: 'rediss://:pw@cache:6380/0' }).redis).toEqual({
      url: 'rediss://:pw@cache:6380/0',
      prefix: 'spotter:',
    });
    expect(loadConfig({ DATA_DIR: dir }).redis).toEqual({ url: undefined, prefix: 'spotter:' });
    try {
      loadConfig({ DATA_DIR: dir, REDIS_URL: 'http://:secret@cache' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems).toEqual(['REDIS_URL: must start with redis:// or rediss://']);
    }
  });

  it('the rate limits refuse to start without the errors plugin that answers their 429s, and start after it', async () => {
    const bare = Fastify({ logger: false });
    await expect(bare.register(rateLimits, { max: 10, redisPrefix: uniquePrefix() })).rejects.toThrow(/spotter-errors/);
    await bare.close();

    const ordered = Fastify({ logger: false });
    await ordered.register(errorHandling);
    await ordered.register(rateLimits, { max: 1, redisPrefix: uniquePrefix() });
    ordered.post('/limited', { preHandler: ordered.rateLimits.perIp }, async () => ({ ok: true }));
    expect((await ordered.inject({ method: 'POST', url: '/limited' })).statusCode).toBe(200);
    expectLimited(await ordered.inject({ method: 'POST', url: '/limited' }));
    await ordered.close();
  });
});
