import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccount, insertTrainer, useTestApp } from './helper';

/**
 * How the server serves a page the web app's renderer made (plugins/web.ts, docs/decisions/031):
 * composed into index.html, cached only with revalidation, and never made with anyone's rights or
 * for someone logged in. The renderer here is a stand-in with the built one's contract
 * (apps/web/src/app/render-page.tsx), whose own pages apps/web's render-page.test.tsx and the
 * e2e suite check; it reports what the API answered it, so the test sees what a render can reach.
 */
const RENDERER = `
let fetchApi;
export function configureRenderer(options) { fetchApi = options.fetchApi; }
export async function renderPage({ url, cookies }) {
  globalThis.__pageRenders = (globalThis.__pageRenders ?? 0) + 1;
  if (url.startsWith('/boom')) throw new Error('the renderer broke');
  if (url.startsWith('/browser-only')) return null;
  if (url.startsWith('/slow')) await globalThis.__slowGate;
  let write = 'no write tried';
  if (url.startsWith('/write')) write = await fetchApi('/api/favorites/x', { method: 'PUT' }).then(() => 'wrote', (e) => e.message);
  const own = await fetchApi('/api/userData', { method: 'GET' });
  const trainer = new URL(url, 'http://page.invalid').searchParams.get('trainer');
  const profile = await (await fetchApi('/api/trainerData/' + trainer, {})).json();
  return {
    head: '<title>Rendered &amp; ready</title><link rel="preload" as="image" href="/p.svg">',
    root: '<main>own ' + own.status + ', trainer ' + profile.trainerData.firstName + ', cookies [' + cookies + '], ' + write +
      ', read as ' + own.headers.get('x-request-id') +
      '<p>' + 'a page worth compressing '.repeat(60) + '</p></main>',
    data: '<script type="application/json" id="server-data">{"queries":[]}</script>',
  };
}`;

const INDEX = `<!doctype html><html><head><title>Spotter</title>
    <link rel="modulepreload" crossorigin href="/assets/boot-1.js">
    <link rel="modulepreload" crossorigin="" href="/assets/app-1.js" data-app="">
    <link rel="modulepreload" crossorigin="" href="/assets/vendor-1.js" data-app="">
</head><body><div id="root">
      <!--app-->
      <header>the shell</header>
      <!--/app-->
    </div><script type="module" src="/assets/index-1.js"></script></body></html>`;

/** A built web app in miniature: index.html in dist/, and a renderer in dist-ssr/ beside it (or none). */
function webBuild({ renderer }: { renderer: boolean }) {
  const root = mkdtempSync(join(tmpdir(), 'spotter-web-'));
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'dist', 'index.html'), INDEX);
  if (renderer) {
    mkdirSync(join(root, 'dist-ssr'));
    writeFileSync(join(root, 'dist-ssr', 'render-page.js'), RENDERER);
  }
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return join(root, 'dist');
}

const renders = () => (globalThis as { __pageRenders?: number }).__pageRenders ?? 0;

describe('a page the renderer made', async () => {
  const t = await useTestApp({ WEB_DIST: webBuild({ renderer: true }) });
  const trainer = await insertTrainer(t, { firstName: 'Salma' });
  // the stand-in shows the profile of the trainer the address names
  const page = (path: string) => `${path}${path.includes('?') ? '&' : '?'}trainer=${trainer.id}`;

  it('is index.html with its title, preloads, markup and data, and without the app preloads', async () => {
    const res = await t.app.inject({ url: page('/trainers'), headers: { cookie: 'cookie-accepted=true' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(String(res.headers.vary)).toContain('Cookie');
    const html = res.body;
    expect(html).toContain('<title>Rendered &amp; ready</title>');
    expect(html).not.toContain('<title>Spotter</title>');
    expect(html).toMatch(/<link rel="preload" as="image" href="\/p.svg"><\/head>/);
    expect(html).toContain('<div id="root"><main>');
    expect(html).not.toContain('the shell');
    expect(html).not.toContain('<!--app-->');
    expect(html).toMatch(/<script type="application\/json" id="server-data">\{"queries":\[\]\}<\/script><\/body>/);
    expect(html).toContain('/assets/boot-1.js');
    expect(html).not.toContain('data-app');
    expect(html).toContain('cookies [cookie-accepted=true]');
  });

  it('reads the API in-process, as a visitor: the list, never the caller’s own data', async () => {
    const user = await createAccount(t, 'user');
    const res = await t.app.inject({ url: page('/trainers'), headers: { authorization: `Bearer ${user.token}` } });
    expect(res.body).toContain(`trainer ${trainer.firstName}`);
    expect(res.body).toContain('own 401');
  });

  it('cannot write through the API', async () => {
    const res = await t.app.inject(page('/write'));
    expect(res.body).toContain('the page renderer may only read (PUT /api/favorites/x)');
  });

  it('answers a revalidation with 304 while the page is the same, and compresses it', async () => {
    // the stand-in shows the request id it read with: the same id, the same page
    const headers = { 'accept-encoding': 'br', 'x-request-id': 'same-page' };
    const first = await t.app.inject({ url: page('/trainers'), headers });
    expect(first.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(first.rawPayload).toString()).toContain(`trainer ${trainer.firstName}`);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{32}-br"$/);
    const again = await t.app.inject({ url: page('/trainers'), headers: { ...headers, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('is not made for someone logged in (the signed-in cookie), nor where the renderer says so: they get the shell', async () => {
    const before = renders();
    const signedIn = await t.app.inject({ url: page('/trainers'), headers: { cookie: 'cookie-accepted=true; signed-in=1' } });
    expect(signedIn.body).toContain('the shell');
    expect(signedIn.body).toContain('data-app');
    expect(renders()).toBe(before);
    const browserOnly = await t.app.inject('/browser-only');
    expect(browserOnly.statusCode).toBe(200);
    expect(browserOnly.body).toContain('the shell');
  });

  it('reads with the page’s request id, so the log lines of its API reads share it', async () => {
    const res = await t.app.inject({ url: page('/trainers'), headers: { 'x-request-id': 'page-4711' } });
    expect(res.headers['x-request-id']).toBe('page-4711');
    expect(res.body).toContain('read as page-4711');
  });

  it('renders 16 pages at once at most: beyond them, while those wait for their data, the shell goes out', async () => {
    let open!: () => void;
    (globalThis as { __slowGate?: Promise<void> }).__slowGate = new Promise<void>((resolve) => (open = resolve));
    const before = renders();
    const waiting = Array.from({ length: 16 }, (_, i) => t.app.inject(page(`/slow/${i}`)));
    try {
      await expect.poll(() => renders() - before).toBe(16);
      const beyond = await t.app.inject(page('/slow/beyond'));
      expect(beyond.body).toContain('the shell');
    } finally {
      open();
    }
    for (const res of await Promise.all(waiting)) expect(res.body).toContain(`trainer ${trainer.firstName}`);
    expect((await t.app.inject(page('/slow/after'))).body).toContain(`trainer ${trainer.firstName}`);
  });

  it('falls back to the shell when rendering fails', async () => {
    const res = await t.app.inject('/boom');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('the shell');
  });

  it('leaves the API and files alone', async () => {
    expect((await t.app.inject('/api/nothing-here')).statusCode).toBe(404);
    expect((await t.app.inject('/assets/missing.js')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/trainers' })).statusCode).toBe(404);
  });
});

describe('a build without a renderer', async () => {
  const t = await useTestApp({ WEB_DIST: webBuild({ renderer: false }) });

  it('serves the shell everywhere', async () => {
    const res = await t.app.inject('/trainers');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(INDEX);
  });
});
