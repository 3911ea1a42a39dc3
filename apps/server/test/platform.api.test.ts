import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@spotter/shared';
import { ConfigError, loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { lockDataDir } from '../src/lib/data-dir-lock';
import { findNul } from '../src/plugins/nul-guard';
import { withAbsolutePictures } from '../src/plugins/absolute-urls';
import {
  buildTestApp,
  createAccount,
  insertTrainer,
  uniqueEmail,
  unpackEmptyPgliteCluster,
  useTestApp,
  validSignUp,
  validTrainerSignUp,
} from './helper';

describe('health, docs, headers', async () => {
  const t = await useTestApp();

  it('answers liveness and readiness', async () => {
    expect((await t.app.inject('/api/health')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject('/api/health/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('ready');
  });

  it('publishes the OpenAPI document generated from the schemas', async () => {
    const res = await t.app.inject('/api/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/users/register',
      '/api/trainers/login',
      '/api/userData',
      '/api/trainerData/{id}',
      '/api/password/reset',
    ]) {
      expect(doc.paths).toHaveProperty([path]);
    }
    expect((await t.app.inject('/api/docs')).statusCode).toBeLessThan(400);
  });

  it('documents every path of the operator console’s API with its success status and a response schema', async () => {
    const doc = (await t.app.inject('/api/docs/json')).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: object }> }> }>>;
    };
    // [method, path, success status], as the route files register them (modules/console/console.routes.ts,
    // console/overview.routes.ts, moderation/*.routes.ts, certificates/*.routes.ts, bookings/bookings.routes.ts)
    const CONSOLE_API: Array<[string, string, number]> = [
      ['post', '/api/console/welcome', 200],
      ['post', '/api/console/login', 200],
      ['get', '/api/console/me', 200],
      ['post', '/api/console/logout', 204],
      ['get', '/api/console/people', 200],
      ['get', '/api/console/people/{id}', 200],
      ['post', '/api/console/people/{id}/suspend', 200],
      ['post', '/api/console/people/{id}/restore', 200],
      ['post', '/api/console/people/{id}/delete', 200],
      ['get', '/api/console/certificates', 200],
      ['get', '/api/console/certificates/{id}/file', 200],
      ['post', '/api/console/certificates/{id}/approve', 200],
      ['post', '/api/console/certificates/{id}/reject', 200],
      ['get', '/api/console/reports', 200],
      ['post', '/api/console/reports/{id}/hide', 200],
      ['post', '/api/console/reports/{id}/restore', 200],
      ['post', '/api/console/reports/{id}/dismiss', 200],
      ['get', '/api/console/bookings', 200],
      ['post', '/api/console/bookings/{id}/refund', 200],
      ['get', '/api/console/disputes', 200],
      ['post', '/api/console/disputes/{id}/decide', 200],
      ['get', '/api/console/audit', 200],
      ['get', '/api/console/audit.csv', 200],
      ['get', '/api/console/overview', 200],
      ['get', '/api/console/ledger', 200],
      ['post', '/api/reports', 201],
      ['post', '/api/trainer/certificates', 201],
      ['get', '/api/trainer/certificates', 200],
      ['get', '/api/trainer/certificates/{id}/file', 200],
      ['post', '/api/bookings/{id}/dispute', 201],
    ];
    // the list is the routes registered: none left out of it, none that does not exist
    const registered = registeredRoutes(t.app.printRoutes({ commonPrefix: false })).filter(([, path]) =>
      /^\/api\/(console\/|reports$|trainer\/certificates|bookings\/\{id\}\/dispute$)/.test(path),
    );
    expect(registered.map((r) => r.join(' ')).sort()).toEqual(CONSOLE_API.map(([m, p]) => `${m} ${p}`).sort());
    for (const [method, path, status] of CONSOLE_API) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path} in the document`).toBeDefined();
      const success = Object.keys(operation.responses).filter((code) => code.startsWith('2'));
      expect(success, `${method} ${path}`).toEqual([String(status)]);
      const content = Object.values(operation.responses[String(status)].content ?? {});
      expect(content.length, `${method} ${path}: a response schema`).toBeGreaterThan(0);
      // a file's bytes are any; every other answer is described
      if (!path.endsWith('/file')) expect(Object.keys(content[0].schema ?? {}), `${method} ${path}`).toContain('type');
    }
  });

  it('sends security headers: CSP without inline script or third-party hosts, no framing, nosniff', async () => {
    const res = await t.app.inject('/api/health');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    // the one host named is PUBLIC_URL's, for pictures (absolute URLs on it)
    expect(csp.match(/https?:\/\/[^\s;]+/g)).toEqual([t.config.publicUrl]);
    expect(csp).toMatch(new RegExp(`img-src [^;]*${t.config.publicUrl}`));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it("allows PayPal's hosts for its checkout buttons only when PayPal is configured", async () => {
    expect(String((await t.app.inject('/api/health')).headers['content-security-policy'])).not.toContain('paypal');
    const withPaypal = await buildTestApp({ PAYPAL_CLIENT_ID: 'client-id', PAYPAL_CLIENT_SECRET: 'client-secret' });
    try {
      const csp = String((await withPaypal.app.inject('/api/health')).headers['content-security-policy']);
      for (const directive of ['script-src', 'connect-src', 'frame-src']) {
        expect(csp).toMatch(new RegExp(`${directive} [^;]*https://www\\.paypal\\.com`));
      }
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    } finally {
      await withPaypal.close();
    }
  });

  it('keeps CORS closed by default', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/users/login',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const patch = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/user/edit',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(patch.headers['access-control-allow-origin']).toBeUndefined();
    expect(patch.headers['access-control-allow-methods']).toBeUndefined();
  });
});

describe('CORS_ORIGINS opens CORS to the listed origins only', async () => {
  const t = await useTestApp({ CORS_ORIGINS: 'https://app.example' });
  it('allows the listed origin and no other', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://app.example' } });
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example');
    const other = await t.app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it.each(['PUT', 'PATCH', 'DELETE'])(
    'lets the listed origin preflight %s with Authorization and Content-Type',
    async (method) => {
      const preflight = (origin: string) =>
        t.app.inject({
          method: 'OPTIONS',
          url: '/api/user/edit',
          headers: {
            origin,
            'access-control-request-method': method,
            'access-control-request-headers': 'authorization,content-type',
          },
        });
      const ok = await preflight('https://app.example');
      expect(ok.statusCode).toBe(204);
      expect(ok.headers['access-control-allow-origin']).toBe('https://app.example');
      expect(String(ok.headers['access-control-allow-methods']).split(/,\s*/)).toContain(method);
      expect(String(ok.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/)).toEqual(
        expect.arrayContaining(['authorization', 'content-type']),
      );
      expect((await preflight('https://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
    },
  );
});

describe('rate limits', async () => {
  const t = await useTestApp({ RATE_LIMIT_MAX: '4' });
  const login = (email: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/users/login', payload: { email, password: 'Strong12' }, remoteAddress: ip });

  it('limits login per IP with a 429 and a message', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await login(uniqueEmail(), '10.0.0.1')).statusCode);
    expect(codes.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(codes[5]).toBe(429);
    const res = await login(uniqueEmail(), '10.0.0.1');
    expect(res.json()).toEqual({ message: SERVER_MSG.tooMany, statusCode: 429, code: 'RATE_LIMITED' });
    expect((await login(uniqueEmail(), '10.0.0.2')).statusCode).toBe(401);
  });

  // per e-mail, failures are limited per IP, and loosely across IPs: test/lockout.api.test.ts
  it('does not lock an e-mail for a few failures spread over IPs (docs/decisions/009-login-lockout.md)', async () => {
    const email = uniqueEmail('target');
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await login(email, `10.1.0.${i + 1}`)).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401, 401, 401]);
  });

  it('limits registration and password reset requests too', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      codes.push(
        (await t.app.inject({ method: 'POST', url: '/api/users/register', payload: validSignUp(), remoteAddress: '10.2.0.1' }))
          .statusCode,
      );
    }
    expect(codes.at(-1)).toBe(429);
    const resets: number[] = [];
    for (let i = 0; i < 6; i++) {
      resets.push(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/password/forgot',
            payload: { email: uniqueEmail(), role: 'user' },
            remoteAddress: '10.3.0.1',
          })
        ).statusCode,
      );
    }
    expect(resets.at(-1)).toBe(429);
  });
});

describe('serving the web app', async () => {
  const web = mkdtempSync(join(tmpdir(), 'spotter-web-'));
  mkdirSync(join(web, 'assets'));
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>Spotter</title><div id="root"></div>');
  writeFileSync(join(web, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(4000))})`);
  const t = await useTestApp({ WEB_DIST: web });

  it('answers index.html for app routes, uncached', async () => {
    for (const url of ['/', '/trainers', '/trainer/profile/123', '/users/login?next=1']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('serves hashed assets immutable and compressed', async () => {
    const res = await t.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('keeps API and missing files as JSON 404s', async () => {
    expect((await t.app.inject('/api/unknown')).json().statusCode).toBe(404);
    expect((await t.app.inject('/assets/missing.js')).statusCode).toBe(404);
  });
});

describe('configuration', () => {
  it('lists every bad value at once', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        PUBLIC_URL: 'nope',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'cfg-')),
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const text = (err as ConfigError).problems.join('\n');
      for (const key of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'PUBLIC_URL']) expect(text).toContain(key);
    }
  });

  it('requires JWT_SECRET in production and generates a kept one in development', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: mkdtempSync(join(tmpdir(), 'cfg-')) })).toThrow(/JWT_SECRET/);
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const a = loadConfig({ DATA_DIR: dir }).jwtSecret;
    expect(a.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(a);
  });
});

describe('data directory lock', () => {
  it('refuses a second holder and takes over a lock left by a dead process', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-'));
    writeFileSync(join(dir, 'server.pid'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(/Another Spotter process/);
    writeFileSync(join(dir, 'server.pid'), '999999');
    const unlock = lockDataDir(dir);
    unlock();
  });
});

describe('migrations', () => {
  it('two processes migrating at once apply each migration exactly once', async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) {
      // PGlite in one directory is single-process by design; check a rerun is a no-op instead.
      const t = await buildTestApp();
      expect(await migrate(t.database)).toEqual([]);
      await t.close();
      return;
    }
    const [a, b] = await Promise.all([openDatabase({ url }), openDatabase({ url })]);
    const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
    expect([...ra, ...rb]).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });

  it('a second start keeps what the first stored', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'restart-'));
    unpackEmptyPgliteCluster(dataDir);
    const first = await openDatabase({ dataDir });
    await migrate(first);
    await first.db.execute(`insert into newsletter_probe values (1)`).catch(() => undefined);
    const { accounts } = await import('../src/db/schema');
    await first.db.insert(accounts).values({
      role: 'user',
      email: uniqueEmail(),
      passwordHash: 'x',
      firstName: 'Ab',
      lastName: 'Cd',
      gender: 'male',
      age: 20,
      height: 170,
      weight: 70,
    });
    await first.close();
    const second = await openDatabase({ dataDir });
    expect(await migrate(second)).toEqual([]);
    const rows = await second.db.select().from(accounts);
    expect(rows).toHaveLength(1);
    await second.close();
  });
});

// 404 for unknown API paths, 413 and malformed JSON had the shape already (platform, accounts tests)
describe('every error answer has the one shape, also before a route runs', async () => {
  const t = await useTestApp();
  const FASTIFY_DEFAULTS = /Unsupported Media Type|is not a valid url component|Client Error|expected object, received string/;

  it.each([
    ['a method the path does not take', { method: 'DELETE' as const, url: '/api/trainers' }, 405, 'METHOD_NOT_ALLOWED'],
    [
      'a text/plain body',
      {
        method: 'POST' as const,
        url: '/api/newsletter',
        headers: { 'content-type': 'text/plain' },
        payload: '{"email":"a@b.co"}',
      },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'an unknown content type',
      { method: 'POST' as const, url: '/api/newsletter', headers: { 'content-type': 'application/xml' }, payload: '<email/>' },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['a path that does not percent-decode', { url: '/api/trainerData/%E0%A4%A' }, 400, 'BAD_REQUEST'],
  ])('%s', async (_what, request, status, code) => {
    const res = await t.app.inject(request);
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toContain('application/json');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'message', 'statusCode']);
    expect(body.statusCode).toBe(status);
    expect(body.code).toBe(code);
    expect(body.message.length).toBeGreaterThan(5);
    expect(body.message).not.toMatch(FASTIFY_DEFAULTS);
  });

  it('names the allowed methods of a known path', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/trainers/' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it("sends a broken address of the web app to its not-found screen, and keeps JSON for the API's", async () => {
    const page = await t.app.inject({ url: '/trainer/profile/%E0%A4%A' });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('/not-found');
    expect((await t.app.inject({ url: '/api/trainerData/%E0%A4%A' })).statusCode).toBe(400);
  });

  it('answers the clear messages', async () => {
    expect((await t.app.inject({ url: '/api/trainerData/%E0%A4%A' })).json().message).toBe(SERVER_MSG.badUrl);
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(plain.json().message).toBe(SERVER_MSG.unsupportedMediaType);
  });
});

describe('a NUL character anywhere in a request is a 400, never a 500', async () => {
  const t = await useTestApp();
  const user = await createAccount(t, 'user');
  const trainer = await createAccount(t, 'trainer');
  const listed = await insertTrainer(t);
  const nul = 'A\u0000b';

  // the six that answered 500 (PostgreSQL cannot store U+0000), and other places a NUL can ride in
  it.each([
    ['the public trainer search', { url: '/api/trainers?q=%00' }, 'q'],
    ['a trainer list filter', { url: '/api/trainers?city=Cai%00ro' }, 'city'],
    [
      'user sign-up names',
      { method: 'POST' as const, url: '/api/users/register', payload: validSignUp({ firstName: `Na${nul}dia` }) },
      'firstName',
    ],
    [
      'trainer sign-up names',
      { method: 'POST' as const, url: '/api/trainers/register', payload: validTrainerSignUp({ lastName: `Sa${nul}mir` }) },
      'lastName',
    ],
    [
      'a review comment',
      {
        method: 'POST' as const,
        url: '/api/reviews/new',
        headers: { authorization: user.token },
        payload: { trainerId: listed.id, rating: 5, comment: `Great${nul}` },
      },
      'comment',
    ],
    [
      'user settings',
      {
        method: 'PATCH' as const,
        url: '/api/user/edit',
        headers: { authorization: user.token },
        payload: { firstName: 'Laila', lastName: 'Samir', email: user.email, title: nul, description: '' },
      },
      'title',
    ],
    [
      'trainer settings',
      {
        method: 'PATCH' as const,
        url: '/api/trainer/edit',
        headers: { authorization: trainer.token },
        payload: { firstName: 'Omar', lastName: 'Zaki', email: trainer.email, title: '', description: nul },
      },
      'description',
    ],
    ['a path parameter', { url: '/api/trainerData/%00' }, 'id'],
    [
      'a nested array item',
      {
        method: 'POST' as const,
        url: '/api/favorites/merge',
        headers: { authorization: user.token },
        payload: { favorites: [listed.id, nul] },
      },
      'favorites.1',
    ],
    ['a key of the body', { method: 'POST' as const, url: '/api/newsletter', payload: { email: 'a@b.co', [nul]: 1 } }, nul],
  ])('%s', async (_where, request, field) => {
    const res = await t.app.inject(request);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: SERVER_MSG.nulCharacter,
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      errors: { [field]: SERVER_MSG.nulCharacter },
    });
  });

  it('finds NUL deep in a body without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findNul(deep)).toMatch(/^(0\.){99999}0$/);
    expect(findNul({ a: [{ b: 'fine' }], c: 'fine' })).toBeUndefined();
  });
});

describe('pictures are absolute URLs on PUBLIC_URL in every answer', () => {
  const base = 'https://spotter.example';

  it('rewrites every picture field at any depth, and nothing else', () => {
    const answer = {
      viewAllTrainers: [{ picture: '/api/avatars/a.svg?g=f', description: '/not/a/picture' }],
      review: { reviewerProfilePhoto: '/api/images/abc.webp' },
      allMessages: [{ senderPicture: '/api/images/def.webp', message: '/hello' }],
    };
    expect(withAbsolutePictures(answer, base)).toEqual({
      viewAllTrainers: [{ picture: `${base}/api/avatars/a.svg?g=f`, description: '/not/a/picture' }],
      review: { reviewerProfilePhoto: `${base}/api/images/abc.webp` },
      allMessages: [{ senderPicture: `${base}/api/images/def.webp`, message: '/hello' }],
    });
    // stored values are never changed in place
    expect(answer.viewAllTrainers[0].picture).toBe('/api/avatars/a.svg?g=f');
  });

  it('leaves empty, absolute and protocol-relative pictures as they are', () => {
    const answer = { a: { picture: '' }, b: { picture: 'https://cdn.example/x.png' }, c: { picture: '//cdn.example/x.png' } };
    expect(withAbsolutePictures(answer, base)).toBe(answer);
  });
});

/**
 * The routes an app registered, as [method, OpenAPI path], from Fastify's route tree
 * (`printRoutes({ commonPrefix: false })`: one node a line, indented four characters a level, its
 * methods in brackets); HEAD and OPTIONS, which Fastify adds, and wildcards left out.
 */
function registeredRoutes(tree: string): Array<[string, string]> {
  const routes: Array<[string, string]> = [];
  const prefixes: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    const path = (prefixes[depth - 1] ?? '') + m[2];
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    if (!m[3] || path.includes('*')) continue;
    for (const method of m[3].split(', '))
      if (method !== 'HEAD' && method !== 'OPTIONS') routes.push([method.toLowerCase(), path.replace(/:(\w+)/g, '{$1}')]);
  }
  return routes;
}
