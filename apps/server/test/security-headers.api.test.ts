import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, createAccount, useTestApp, type TestApp } from './helper';

/**
 * The security headers of app.ts (helmet, CORS) on every kind of answer, not only on API JSON
 * (platform.api.test.ts checks those on /api/health): errors, the web app's page and assets, a
 * stored photo. A route that sets its own header, or a handler outside the plugin's reach (the
 * not-found page, errors before routing), must not lose them.
 */

/** A built web app in miniature: the page, a hashed asset, a root file. */
function fakeWebDist() {
  const dir = mkdtempSync(join(tmpdir(), 'spotter-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dir, 'assets', 'app-abc123.js'), 'console.log("app");');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function tinyPng() {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: { r: Math.floor(Math.random() * 256), g: 1, b: 2 } } })
    .png()
    .toBuffer();
}

async function uploadPhoto(t: TestApp, token: string): Promise<string> {
  const boundary = '----headers';
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/images',
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      await tinyPng(),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { authorization: token, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().url;
}

type Probe = { name: string; request: () => Promise<LightMyRequestResponse>; status: number; type: RegExp };

/** One answer of each kind the server gives, with the status and type that show it is that kind. */
async function probes(t: TestApp, origin?: string): Promise<Probe[]> {
  const account = await createAccount(t, 'user');
  const photo = await uploadPhoto(t, account.token);
  const headers = origin ? { origin } : {};
  const get =
    (url: string, extra: Record<string, string> = {}) =>
    () =>
      t.app.inject({ method: 'GET', url, headers: { ...headers, ...extra } });
  return [
    { name: 'API JSON', request: get('/api/trainers'), status: 200, type: /application\/json/ },
    {
      name: 'authenticated API JSON',
      request: get('/api/userData', { authorization: account.token }),
      status: 200,
      type: /json/,
    },
    { name: '401 error', request: get('/api/userData'), status: 401, type: /json/ },
    { name: '404 error of the API', request: get('/api/no-such-route'), status: 404, type: /json/ },
    {
      name: '400 validation error',
      request: () => t.app.inject({ method: 'POST', url: '/api/users/login', payload: { email: 'x' }, headers: { ...headers } }),
      status: 400,
      type: /json/,
    },
    {
      name: '400 of a body that is not JSON (before the route runs)',
      request: () =>
        t.app.inject({
          method: 'POST',
          url: '/api/users/login',
          payload: '{"email":',
          headers: { ...headers, 'content-type': 'application/json' },
        }),
      status: 400,
      type: /json/,
    },
    { name: 'index.html at /', request: get('/'), status: 200, type: /text\/html/ },
    { name: 'index.html for a client route', request: get('/trainers'), status: 200, type: /text\/html/ },
    { name: 'a hashed asset', request: get('/assets/app-abc123.js'), status: 200, type: /javascript/ },
    { name: 'a root file (favicon.svg)', request: get('/favicon.svg'), status: 200, type: /image\/svg\+xml/ },
    { name: 'a stored photo', request: get(photo), status: 200, type: /^image\/webp/ },
    { name: 'a missing photo', request: get(`/api/images/${'0'.repeat(64)}.webp`), status: 404, type: /json/ },
  ];
}

const scriptSrc = (csp: string) => /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1];

function expectSecurityHeaders(res: LightMyRequestResponse, name: string) {
  const csp = String(res.headers['content-security-policy'] ?? '');
  expect(csp, `${name}: CSP`).not.toBe('');
  expect(scriptSrc(csp), `${name}: script-src`).toBeDefined();
  expect(scriptSrc(csp), `${name}: script-src`).not.toMatch(/unsafe-inline|unsafe-eval|\*|data:|blob:/);
  expect(csp, `${name}: CSP`).toMatch(/(?:^|;)\s*frame-ancestors 'none'/);
  expect(csp, `${name}: CSP`).toMatch(/(?:^|;)\s*object-src 'none'/);
  expect(res.headers['x-content-type-options'], `${name}: nosniff`).toBe('nosniff');
  expect(res.headers['referrer-policy'], `${name}: referrer policy`).toBe('strict-origin-when-cross-origin');
}

describe('outside production, without CORS_ORIGINS', async () => {
  const t = await useTestApp({ WEB_DIST: fakeWebDist() });
  const all = await probes(t, 'https://evil.example');

  it.each(all.map((p) => [p.name, p] as const))(
    '%s carries the CSP, nosniff and the referrer policy, no HSTS and no CORS',
    async (name, probe) => {
      const res = await probe.request();
      expect(res.statusCode, `${name}: ${res.body.slice(0, 200)}`).toBe(probe.status);
      expect(String(res.headers['content-type']), name).toMatch(probe.type);
      expectSecurityHeaders(res, name);
      expect(res.headers['strict-transport-security'], name).toBeUndefined();
      expect(res.headers['access-control-allow-origin'], name).toBeUndefined();
      expect(res.headers['access-control-allow-credentials'], name).toBeUndefined();
    },
  );

  it('a generated portrait (SVG) is served with a CSP that runs no script at all and is never framed, and nosniff', async () => {
    const res = await t.app.inject('/api/avatars/someone.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/image\/svg\+xml/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(scriptSrc(csp)).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('a preflight from an unlisted origin gets no CORS headers', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/images',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
  });
});

describe('with CORS_ORIGINS', async () => {
  const listed = 'https://app.example';
  const t = await useTestApp({ WEB_DIST: fakeWebDist(), CORS_ORIGINS: listed });
  const fromListed = await probes(t, listed);
  const fromOther = await probes(t, 'https://evil.example');

  it.each(
    fromListed
      .filter((p) => p.name.includes('API') || p.name.includes('error') || p.name.includes('photo'))
      .map((p) => [p.name, p] as const),
  )('%s allows the listed origin, without credentials, and keeps the security headers', async (name, probe) => {
    const res = await probe.request();
    expect(res.statusCode, name).toBe(probe.status);
    expect(res.headers['access-control-allow-origin'], name).toBe(listed);
    expect(res.headers['access-control-allow-credentials'], name).toBeUndefined();
    expectSecurityHeaders(res, name);
  });

  it('an unlisted origin gets no CORS headers on any answer', async () => {
    for (const probe of fromOther) {
      const res = await probe.request();
      expect(res.statusCode, probe.name).toBe(probe.status);
      expect(res.headers['access-control-allow-origin'], probe.name).toBeUndefined();
    }
  });
});

describe('a 429 of the rate limits', async () => {
  const t = await useTestApp({ RATE_LIMIT_MAX: '5' });
  it('carries the CSP, nosniff and the referrer policy too', async () => {
    let res: LightMyRequestResponse | undefined;
    for (let i = 0; i < 40 && res?.statusCode !== 429; i++) {
      res = await t.app.inject({
        method: 'POST',
        url: '/api/users/login',
        payload: { email: `nobody${i}@example.com`, password: 'Wrong1' },
      });
    }
    expect(res?.statusCode).toBe(429);
    expect(res!.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expectSecurityHeaders(res!, '429');
  });
});

describe('in production', () => {
  const webDist = fakeWebDist();
  it('adds HSTS to every answer, and keeps the rest', async () => {
    const t = await buildTestApp({
      NODE_ENV: 'production',
      JWT_SECRET: 'a-production-secret-of-at-least-32-bytes!',
      WEB_DIST: webDist,
      PUBLIC_URL: 'https://spotter.example',
    });
    try {
      for (const probe of await probes(t)) {
        const res = await probe.request();
        expect(res.statusCode, probe.name).toBe(probe.status);
        expect(res.headers['strict-transport-security'], probe.name).toMatch(/max-age=\d{7,}/);
        expect(res.headers['strict-transport-security'], probe.name).toMatch(/includeSubDomains/);
        expectSecurityHeaders(res, probe.name);
      }
    } finally {
      await t.close();
    }
  });
});
