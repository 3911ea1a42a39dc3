import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client';
import { logging, requestIdOptions } from '../src/platform/logging';
import { registerApiNotFound, registerErrorHandling } from '../src/plugins/errors';
import { registerMetrics } from '../src/plugins/metrics';
import { buildTestApp, useTestApp } from './helper';
import { ChatSocket } from './ws-client';
import { until } from './support/until';

type Sample = { name: string; labels: Record<string, string>; value: number };

/**
 * Prometheus' text format (version 0.0.4), strictly: every line is a `# HELP`/`# TYPE` comment or a
 * sample `name{label="value",...} number`; a line that is neither fails the parse. Like Prometheus'
 * own parser (Go's ParseFloat), NaN and Inf are read in any case: prom-client writes `Nan`.
 */
function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  const typed = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (comment) {
      if (comment[1] === 'TYPE') {
        expect(comment[3]).toMatch(/^(counter|gauge|histogram|summary|untyped)$/);
        typed.add(comment[2]);
      }
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/i.exec(line);
    if (!m) throw new Error(`not Prometheus text: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    const body = m[2] ?? '';
    const labelRe = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;
    let consumed = 0;
    for (let l = labelRe.exec(body); l; l = labelRe.exec(body)) {
      labels[l[1]] = l[2];
      consumed = labelRe.lastIndex;
    }
    if (consumed !== body.length) throw new Error(`bad labels: ${JSON.stringify(line)}`);
    const family = m[1].replace(/_(bucket|sum|count|total|created)$/, '');
    if (!typed.has(m[1]) && !typed.has(family)) throw new Error(`sample without # TYPE: ${line}`);
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

describe('GET /api/metrics on the app', () => {
  let app: FastifyInstance;
  let baseUrl: string;
  beforeAll(async () => {
    ({ app } = await useTestApp());
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  const scrape = async () => {
    const res = await app.inject({ method: 'GET', url: '/api/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheus(res.body);
  };

  it('counts requests by method, route pattern and status class, with their durations', async () => {
    const before = await scrape();
    const id = randomUUID();
    for (let i = 0; i < 3; i++) expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/api/trainerData/${id}` })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/no-such-thing/${id}` })).statusCode).toBe(404);
    const after = await scrape();

    const health = { method: 'GET', route: '/api/health', status_class: '2xx' };
    expect(valueOf(after, 'http_requests_total', health) - valueOf(before, 'http_requests_total', health)).toBe(3);
    expect(
      valueOf(after, 'http_request_duration_seconds_count', health) -
        valueOf(before, 'http_request_duration_seconds_count', health),
    ).toBe(3);
    expect(valueOf(after, 'http_requests_total', { route: '/api/trainerData/:id', status_class: '4xx' })).toBe(1);
    expect(valueOf(after, 'http_requests_total', { route: 'unmatched', status_class: '4xx' })).toBe(1);
    // a route label is a pattern, never a URL: the ids asked for appear nowhere
    const routes = new Set(after.filter((s) => s.labels.route).map((s) => s.labels.route));
    for (const route of routes) expect(route).not.toContain(id);
  });

  it('reports open WebSockets and the process (memory, event-loop lag)', async () => {
    const open = async () => valueOf(await scrape(), 'spotter_websockets_open');
    expect(await open()).toBe(0);
    const sockets = [await ChatSocket.open(baseUrl), await ChatSocket.open(baseUrl)];
    expect(await open()).toBe(2);
    for (const s of sockets) s.ws.close();
    await until(async () => (await open()) === 0, 'the sockets to be counted as closed');

    const samples = await scrape();
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
    expect(samples.some((s) => s.name === 'nodejs_heap_size_used_bytes')).toBe(true);
  });
});

/** An app with only what metrics and request ids need, configured as a test asks. */
async function smallApp(options: Parameters<typeof registerMetrics>[1], logLines?: string[]) {
  const app = Fastify({
    ...requestIdOptions(),
    logger: logLines ? { level: 'info', stream: { write: (l: string) => void logLines.push(l) } } : false,
  });
  registerErrorHandling(app);
  await app.register(logging);
  registerMetrics(app, options);
  app.get('/api/echo', async () => ({ ok: true }));
  await registerApiNotFound(app);
  await app.ready();
  return app;
}

describe('GET /api/metrics in production', () => {
  it('does not exist without METRICS_TOKEN', async () => {
    const app = await smallApp({ env: 'production', token: '' });
    const res = await app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: 'Bearer ' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    await app.close();
  });

  it('answers only the bearer of METRICS_TOKEN', async () => {
    const app = await smallApp({ env: 'production', token: 's3cret-scraper-token' });
    for (const authorization of [undefined, 'Bearer wrong', 's3cret-scraper-token', 'Bearer s3cret-scraper-tokenX']) {
      const res = await app.inject({ method: 'GET', url: '/api/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
      expect(res.body).not.toContain('http_requests_total');
    }
    const ok = await app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { authorization: 'Bearer s3cret-scraper-token' },
    });
    expect(ok.statusCode).toBe(200);
    expect(parsePrometheus(ok.body).some((s) => s.name === 'http_requests_total')).toBe(true);
    await app.close();
  });

  it('is configured by METRICS_TOKEN in the whole app, which keeps the request id it is given', async () => {
    const secret = 'metrics-config-secret-0123456789abcdef0123';
    for (const [env, expected] of [
      [{}, 404],
      [{ METRICS_TOKEN: 'app-scraper-token-0123456789' }, 200],
    ] as const) {
      const t = await buildTestApp({ NODE_ENV: 'production', JWT_SECRET: secret, ...env });
      try {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/metrics',
          headers: { authorization: 'Bearer app-scraper-token-0123456789', 'x-request-id': 'lb-1234.abc' },
        });
        expect(res.statusCode).toBe(expected);
        // the load balancer's request id is the app's too
        expect(res.headers['x-request-id']).toBe('lb-1234.abc');
      } finally {
        await t.close();
      }
    }
  });

  it('answers without a token outside production', async () => {
    const app = await smallApp({ env: 'development', token: 'set-but-not-needed' });
    expect((await app.inject({ method: 'GET', url: '/api/metrics' })).statusCode).toBe(200);
    await app.close();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL pool metrics', () => {
  it('reports the pool’s connections', async () => {
    const database = await openDatabase({ url: process.env.TEST_DATABASE_URL });
    const app = await smallApp({ env: 'test', database });
    try {
      await database.ping();
      const samples = parsePrometheus((await app.inject({ method: 'GET', url: '/api/metrics' })).body);
      expect(valueOf(samples, 'spotter_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
      expect(samples.some((s) => s.name === 'spotter_db_pool_waiting')).toBe(true);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('request ids', () => {
  const lines: string[] = [];
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await smallApp({ env: 'test' }, lines);
  });
  afterAll(() => app.close());
  const loggedIds = () =>
    lines.map((l) => JSON.parse(l) as { reqId?: string; msg?: string }).filter((l) => l.msg === 'request completed');

  it('keeps a sane X-Request-Id, echoes it and logs it', async () => {
    const id = 'nginx-7f3a.b_9-01';
    const res = await app.inject({ method: 'GET', url: '/api/echo', headers: { 'x-request-id': id } });
    expect(res.headers['x-request-id']).toBe(id);
    await until(async () => loggedIds().some((l) => l.reqId === id), 'the log line with the id');
  });

  it('replaces one that is too long or carries other characters, and makes one when there is none', async () => {
    const seen = new Set<string>();
    for (const given of ['x'.repeat(65), 'a b', 'id"},{"admin":true', 'ünï', '', undefined]) {
      const res = await app.inject({
        method: 'GET',
        url: '/api/echo',
        headers: given === undefined ? {} : { 'x-request-id': given },
      });
      const id = String(res.headers['x-request-id']);
      expect(id, String(given)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(6);
    // an error answer carries it too
    const missing = await app.inject({ method: 'GET', url: '/api/nothing-here', headers: { 'x-request-id': 'abc' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toBe('abc');
  });
});
