import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccount, insertTrainer, useTestApp } from './helper';

/**
 * How the server serves a page the web app's renderer made (plugins/page-renderer.ts, plugins/web.ts,
 * docs/decisions/031-server-rendered-first-page.md): composed into index.html, kept until a write changes what it shows, cached
 * by browsers only with revalidation, never made with anyone's rights or for someone logged in, and
 * never holding a visitor up for long. The renderer here is a stand-in with the built one's contract
 * (apps/web/src/app/render-page.tsx), whose own pages apps/web's render-page tests and the e2e suite
 * check; it reports what the API answered it, so the test sees what a render can reach.
 */
const renderer = (version: string) => `
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
  const answer = await fetchApi('/api/trainerData/' + trainer, {});
  const profile = answer.ok ? (await answer.json()).trainerData : { firstName: 'nobody' };
  return {
    status: answer.ok ? 200 : 404,
    head: '<title>Rendered &amp; ready</title><link rel="preload" as="image" href="/p.svg">',
    root: '<main>${version}: own ' + own.status + ', trainer ' + profile.firstName + ', cookies [' + cookies + '], ' + write +
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
function webBuild({ withRenderer }: { withRenderer: boolean }) {
  const root = mkdtempSync(join(tmpdir(), 'spotter-web-'));
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'dist', 'index.html'), INDEX);
  const rendererFile = join(root, 'dist-ssr', 'render-page.js');
  if (withRenderer) {
    mkdirSync(join(root, 'dist-ssr'));
    writeFileSync(rendererFile, renderer('build 1'));
  }
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return { dist: join(root, 'dist'), rendererFile };
}

const renders = () => (globalThis as { __pageRenders?: number }).__pageRenders ?? 0;
/** Holds every `/slow` render until the returned function is called. */
function holdSlowRenders() {
  let open!: () => void;
  (globalThis as { __slowGate?: Promise<void> }).__slowGate = new Promise<void>((resolve) => (open = resolve));
  return open;
}

describe('a page the renderer made', async () => {
  const build = webBuild({ withRenderer: true });
  const t = await useTestApp({ WEB_DIST: build.dist });
  const trainer = await insertTrainer(t, { firstName: 'Salma' });
  // the stand-in shows the profile of the trainer the address names; `n` makes an address no test asked for yet
  let n = 0;
  const page = (path: string) => `${path}${path.includes('?') ? '&' : '?'}trainer=${trainer.id}&n=${++n}`;

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

  it('reads with the page’s request id, so the log lines of its API reads share it', async () => {
    const res = await t.app.inject({ url: page('/trainers'), headers: { 'x-request-id': 'page-4711' } });
    expect(res.headers['x-request-id']).toBe('page-4711');
    expect(res.body).toContain('read as page-4711');
  });

  it('gives the renderer the cookie notice’s cookie alone, and keeps a page for each answer to it', async () => {
    const url = page('/trainers');
    const accepted = await t.app.inject({ url, headers: { cookie: 'theme=dark; cookie-accepted=true; other=1' } });
    expect(accepted.body).toContain('cookies [cookie-accepted=true]');
    const fresh = await t.app.inject({ url, headers: { cookie: 'theme=dark' } });
    expect(fresh.body).toContain('cookies []');
    const before = renders();
    expect((await t.app.inject({ url, headers: { cookie: 'cookie-accepted=true; theme=light' } })).body).toBe(accepted.body);
    expect((await t.app.inject(url)).body).toBe(fresh.body);
    expect(renders()).toBe(before);
  });

  it('renders a page once and keeps it until the catalogue changes; a revalidation is a 304', async () => {
    const url = page('/trainers');
    const headers = { 'accept-encoding': 'br' };
    const first = await t.app.inject({ url, headers });
    expect(first.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(first.rawPayload).toString()).toContain(`trainer ${trainer.firstName}`);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{32}-br"$/);
    const before = renders();
    const again = await t.app.inject({ url, headers: { ...headers, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(renders()).toBe(before);

    // a write to what pages show (a profile, a review…) bumps the read cache: the next visitor gets a new render
    t.app.readCache.bump();
    const after = await t.app.inject({ url, headers: { 'x-request-id': 'after-the-write' } });
    expect(after.body).toContain('read as after-the-write');
    expect(renders()).toBe(before + 1);
  });

  it('renders once for the visitors who ask for the same page at the same time', async () => {
    const open = holdSlowRenders();
    const url = page('/slow');
    const before = renders();
    const asking = Array.from({ length: 5 }, () => t.app.inject(url));
    await expect.poll(() => renders() - before).toBe(1);
    open();
    const answers = await Promise.all(asking);
    expect(new Set(answers.map((res) => res.body)).size).toBe(1);
    expect(answers[0].body).toContain(`trainer ${trainer.firstName}`);
    expect(renders() - before).toBe(1);
  });

  it('renders 16 pages at once at most: beyond them, while those wait for their data, the shell goes out', async () => {
    const open = holdSlowRenders();
    const before = renders();
    const waiting = Array.from({ length: 16 }, () => t.app.inject(page('/slow')));
    try {
      await expect.poll(() => renders() - before).toBe(16);
      const beyond = await t.app.inject(page('/slow'));
      expect(beyond.body).toContain('the shell');
    } finally {
      open();
    }
    for (const res of await Promise.all(waiting)) expect(res.body).toContain(`trainer ${trainer.firstName}`);
    expect((await t.app.inject(page('/slow'))).body).toContain(`trainer ${trainer.firstName}`);
  });

  it('sends the shell to a visitor whose page is still waiting for its data after 2 s, and keeps the page for the next', async () => {
    const open = holdSlowRenders();
    const url = page('/slow');
    const started = Date.now();
    try {
      const waited = await t.app.inject(url);
      expect(waited.body).toContain('the shell');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    } finally {
      open();
    }
    await expect.poll(async () => (await t.app.inject(url)).body).toContain(`trainer ${trainer.firstName}`);
  });

  it('answers 404 with the rendered page when the page’s subject does not exist', async () => {
    const res = await t.app.inject('/trainer/profile/x?trainer=00000000-0000-4000-8000-000000000000');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('trainer nobody');
  });

  it('is not made for someone logged in (the signed-in cookie), a HEAD, an overlong address, nor where the renderer says so', async () => {
    const before = renders();
    const signedIn = await t.app.inject({ url: page('/trainers'), headers: { cookie: 'cookie-accepted=true; signed-in=1' } });
    expect(signedIn.body).toContain('the shell');
    expect(signedIn.body).toContain('data-app');
    const head = await t.app.inject({ method: 'HEAD', url: page('/trainers') });
    expect(head.statusCode).toBe(200);
    const long = await t.app.inject(page(`/trainers?q=${'a'.repeat(2_100)}`));
    expect(long.body).toContain('the shell');
    expect(renders()).toBe(before);
    const browserOnly = await t.app.inject('/browser-only');
    expect(browserOnly.statusCode).toBe(200);
    expect(browserOnly.body).toContain('the shell');
  });

  it('falls back to the shell when rendering fails', async () => {
    const res = await t.app.inject(page('/boom'));
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('the shell');
  });

  it('sends the shell once a new build replaced the renderer, until the server restarts, also for pages it kept', async () => {
    const kept = page('/trainers');
    expect((await t.app.inject(kept)).body).toContain('build 1: own 401');
    writeFileSync(build.rendererFile, renderer('build 2'));
    const later = new Date(Date.now() + 60_000);
    utimesSync(build.rendererFile, later, later);
    for (const url of [page('/trainers'), kept]) {
      const res = await t.app.inject(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('the shell');
    }
  });

  it('leaves the API and files alone', async () => {
    expect((await t.app.inject('/api/nothing-here')).statusCode).toBe(404);
    expect((await t.app.inject('/assets/missing.js')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/trainers' })).statusCode).toBe(404);
  });
});

describe('a build without a renderer', async () => {
  const t = await useTestApp({ WEB_DIST: webBuild({ withRenderer: false }).dist });

  it('serves the shell everywhere', async () => {
    const res = await t.app.inject('/trainers');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(INDEX);
  });
});
