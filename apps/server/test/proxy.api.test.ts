import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openTestDatabase } from './helper';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

/** An app with `env`, plus a test-only route that answers the address the server believes. */
async function appWith(env: Record<string, string>): Promise<FastifyInstance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'spotter-proxy-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '10000', ...env });
  const database = await openTestDatabase();
  const app = await buildApp({ config, database, logger: false });
  app.get('/api/test-only/ip', async (req) => ({ ip: req.ip }));
  await app.ready();
  cleanups.push(async () => {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return app;
}

const ipSeen = async (app: FastifyInstance, remoteAddress: string, forwardedFor?: string) => {
  const res = await app.inject({
    url: '/api/test-only/ip',
    remoteAddress,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
  return res.json().ip as string;
};

describe('the client address behind a proxy', () => {
  it('ignores X-Forwarded-For by default, in production too, even from loopback', async () => {
    const app = await appWith({ NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40) });
    expect(await ipSeen(app, '127.0.0.1', '203.0.113.9')).toBe('127.0.0.1');
    expect(await ipSeen(app, '198.51.100.7', '203.0.113.9')).toBe('198.51.100.7');
  });

  it('with TRUST_PROXY=127.0.0.1 believes the header from the proxy only', async () => {
    const app = await appWith({ TRUST_PROXY: '127.0.0.1' });
    expect(await ipSeen(app, '127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
    // a client that reaches the server directly cannot choose its address
    expect(await ipSeen(app, '198.51.100.7', '203.0.113.9')).toBe('198.51.100.7');
    // nor slip one in front of what the proxy appends: the right-most untrusted hop counts
    expect(await ipSeen(app, '127.0.0.1', '10.9.9.9, 203.0.113.9')).toBe('203.0.113.9');
  });

  it('takes CIDR ranges and named ranges', async () => {
    const app = await appWith({ TRUST_PROXY: '10.0.0.0/8, loopback' });
    expect(await ipSeen(app, '10.1.2.3', '203.0.113.9')).toBe('203.0.113.9');
    expect(await ipSeen(app, '::1', '203.0.113.9')).toBe('203.0.113.9');
    expect(await ipSeen(app, '192.168.1.1', '203.0.113.9')).toBe('192.168.1.1');
  });

  it('a client cannot escape the per-IP rate limit by inventing X-Forwarded-For', async () => {
    const app = await appWith({ NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40), RATE_LIMIT_MAX: '2' });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/newsletter',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
        payload: { email: `proxy.${Date.now()}.${i}@example.com` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});
