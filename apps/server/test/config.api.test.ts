import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { ConfigError, loadConfig } from '../src/config';
import { buildTestApp, createAccount, type TestApp } from './helper';

const tempDir = () => mkdtempSync(join(tmpdir(), 'cfg-'));
const SECRET = 's'.repeat(40);

/** The problems loadConfig lists for `env`, or [] when it accepts it. */
function problems(env: Record<string, string>): string[] {
  try {
    loadConfig({ DATA_DIR: tempDir(), ...env });
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('the token secret', () => {
  it('refuses a JWT_SECRET shorter than 32 bytes, without printing it', () => {
    const short = 'x'.repeat(31);
    const listed = problems({ JWT_SECRET: short });
    expect(listed.join('\n')).toMatch(/JWT_SECRET: must be at least 32 bytes/);
    expect(listed.join('\n')).not.toContain(short);
    expect(problems({ JWT_SECRET: 'x'.repeat(32) })).toEqual([]);
  });

  it('refuses a jwt-secret file shorter than 32 bytes instead of signing with it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'jwt-secret'), 'tooshort\n');
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/jwt-secret: the secret is shorter than 32 bytes/);
    writeFileSync(join(dir, 'jwt-secret'), 'k'.repeat(32));
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe('k'.repeat(32));
  });
});

describe('session tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('refuses a correctly signed token that has no expiry', async () => {
    const u = await createAccount(t, 'user');
    const claims = JSON.parse(Buffer.from(u.token.split('.')[1], 'base64url').toString());
    expect((await t.app.inject({ url: '/api/userData', headers: { authorization: u.token } })).statusCode).toBe(200);
    const { exp: _exp, ...forever } = claims;
    const noExpiry = await new SignJWT(forever)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const res = await t.app.inject({ url: '/api/userData', headers: { authorization: noExpiry } });
    expect(res.statusCode).toBe(401);
  });
});

describe('TRUST_PROXY', () => {
  it('takes addresses, CIDR ranges and named ranges; trusts nobody by default, in production too', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), NODE_ENV: 'production', JWT_SECRET: SECRET }).trustProxy).toEqual([]);
    expect(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8,::1,loopback' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'loopback',
    ]);
    expect(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: 'none' }).trustProxy).toEqual([]);
  });

  it('refuses values that would trust every client or are not addresses', () => {
    for (const bad of ['true', '*', '1', '10.0.0.0/33', 'proxy.example']) {
      expect(problems({ TRUST_PROXY: bad }).join('\n'), bad).toMatch(/^TRUST_PROXY=/);
    }
  });
});

describe('production defaults: no API docs, no Server-Timing unless asked for', () => {
  const apps: TestApp[] = [];
  afterAll(() => Promise.all(apps.map((a) => a.close())));
  const build = async (env: Record<string, string>) => {
    const a = await buildTestApp({ NODE_ENV: 'production', JWT_SECRET: SECRET, ...env });
    apps.push(a);
    return a;
  };

  it('hides /api/docs and Server-Timing in production', async () => {
    const t = await build({});
    expect((await t.app.inject('/api/docs')).statusCode).toBe(404);
    expect((await t.app.inject('/api/docs/json')).statusCode).toBe(404);
    const res = await t.app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.headers['server-timing']).toBeUndefined();
  });

  it('serves them with API_DOCS=true and SERVER_TIMING=true', async () => {
    const t = await build({ API_DOCS: 'true', SERVER_TIMING: 'true' });
    expect((await t.app.inject('/api/docs/json')).json().openapi).toMatch(/^3\./);
    expect((await t.app.inject('/api/health')).headers['server-timing']).toMatch(/^app;dur=/);
  });

  it('lists a value that is not true or false', () => {
    expect(problems({ API_DOCS: 'maybe', SERVER_TIMING: 'sometimes' }).join('\n')).toMatch(/API_DOCS=.*\n.*SERVER_TIMING=/);
  });
});
