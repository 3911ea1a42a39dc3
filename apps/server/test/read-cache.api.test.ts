import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { accounts } from '../src/db/schema';
import { createReadCache } from '../src/platform/read-cache';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, createAccount, createFreshPgDatabase, insertTrainer, type TestApp } from './helper';
import { settler } from './support/settle';
import { auth, bookableTrainer, bookAndPay, cancel, hourFromNow } from './support/bookings';
import { until } from './support/until';

/**
 * The read cache of the public answers (docs/decisions/019-read-cache.md): ETag and 304, answers
 * served from memory, and every write that changes them seen at once. On PostgreSQL the file
 * has a database of its own, so no other test file's writes drop its answers mid-test.
 */
const fresh = await createFreshPgDatabase();
const t = await buildTestApp({}, { databaseUrl: fresh?.url });
afterAll(async () => {
  await t.close();
  await fresh?.drop();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
let cities = 0;
/** A city no other test uses, so a list filtered by it holds only this test's trainers. */
const newCity = () => `Cachetown${Date.now().toString(36)}${++cities}`;
const listIn = async (city: string, extra = '') =>
  (await get(`/api/trainers?city=${city}${extra}`)).json().viewAllTrainers as Array<Record<string, unknown>>;
const profile = (id: string) => get(`/api/trainerData/${id}`);
const reviewsOf = async (id: string, token?: string) =>
  (await t.app.inject({ url: `/api/trainer/reviews/${id}`, headers: auth(token) })).json().allReviews as Array<
    Record<string, unknown>
  >;
const call = (method: 'PATCH' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: token }, ...(payload ? { payload } : {}) });
const review = (token: string, trainerId: string, rating: number, comment: string) =>
  call('POST', '/api/reviews/new', token, { trainerId, rating, comment });
type Get = (url: string, headers?: Record<string, string>) => Promise<LightMyRequestResponse>;

/** Changes an account behind the caches' back: the database's change triggers are off in this transaction. */
const unannounced = (id: string, values: Partial<typeof accounts.$inferInsert>) =>
  t.database.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.update(accounts).set(values).where(eq(accounts.id, id));
  });
const announce = (payload: string) => t.database.db.execute(sql`select pg_notify('spotter_change', ${payload})`);

const settled = await settler(t, 'spotter_test_settle_a');

/** `url`'s answer comes from memory: `before`'s body and ETag although the row changed, and If-None-Match gets 304. */
async function expectKept(on: Get, url: string, before: LightMyRequestResponse) {
  const again = await on(url);
  expect(again.statusCode, url).toBe(200);
  expect(again.body, url).toBe(before.body);
  expect(again.headers.etag, url).toBe(before.headers.etag);
  const same = await on(url, { 'if-none-match': before.headers.etag as string });
  expect(same.statusCode, url).toBe(304);
}

/** `url`'s answer was dropped: it comes to show the change (`shows`), under a new ETag. */
async function expectDropped(
  on: Get,
  url: string,
  before: LightMyRequestResponse,
  shows: (body: string) => boolean,
  what: string,
) {
  await until(async () => shows((await on(url)).body), what);
  const now = await on(url, { 'if-none-match': before.headers.etag as string });
  expect(now.statusCode, what).toBe(200);
  expect(now.headers.etag, what).not.toBe(before.headers.etag);
}

describe('HTTP: ETag, 304 and compression', () => {
  it('answers the list, a profile and its reviews with a strong ETag; If-None-Match answers 304 without a body', async () => {
    const city = newCity();
    const tr = await insertTrainer(t, { city });
    for (const url of [`/api/trainers?city=${city}`, `/api/trainerData/${tr.id}`, `/api/trainer/reviews/${tr.id}`]) {
      const first = await get(url);
      expect(first.statusCode).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      expect(first.headers['cache-control']).toBe('no-cache');
      expect(first.headers.vary).toMatch(/accept-encoding/i);

      const same = await get(url, { 'if-none-match': etag });
      expect(same.statusCode).toBe(304);
      expect(same.body).toBe('');
      expect(same.headers.etag).toBe(etag);
      expect(same.headers['content-encoding']).toBeUndefined();
      // a list of tags, or a weak one, matches too; another tag does not
      expect((await get(url, { 'if-none-match': `"nope", W/${etag}` })).statusCode).toBe(304);
      expect((await get(url, { 'if-none-match': '"nope"' })).statusCode).toBe(200);

      // after an announced change (which drops every public answer), the first (recomputed) answer
      // is still a 304 when nothing in it changed
      await announce('accounts');
      await settled();
      const afterWrite = await get(url, { 'if-none-match': etag });
      expect(afterWrite.statusCode).toBe(304);
      expect(afterWrite.body).toBe('');

      // HEAD: the same headers, no body
      const head = await t.app.inject({ method: 'HEAD', url });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers.etag).toBe(etag);
    }
  });

  it('sends brotli or gzip when asked, decoding to the same JSON, with its own ETag; 304s are not compressed', async () => {
    const city = newCity();
    for (let i = 0; i < 6; i++) await insertTrainer(t, { city, description: `A long description of trainer ${i}. `.repeat(8) });
    const url = `/api/trainers?city=${city}`;
    const plain = await get(url);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const tag = (plain.headers.etag as string).slice(1, -1);

    const gz = await get(url, { 'accept-encoding': 'gzip, deflate' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.etag).toBe(`"${tag}-gzip"`);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);

    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    // served from the cache, compressed once
    expect((await get(url, { 'accept-encoding': 'br' })).rawPayload.equals(br.rawPayload)).toBe(true);
    // q=0 refuses a coding
    expect((await get(url, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');

    for (const etag of [`"${tag}"`, `"${tag}-gzip"`]) {
      const res = await get(url, { 'accept-encoding': 'gzip', 'if-none-match': etag });
      expect(res.statusCode).toBe(304);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers['content-encoding']).toBeUndefined();
    }
  });
});

describe('the web app page', () => {
  it('answers index.html compressed, with an ETag, 304 when unchanged, and the new page after a build', async () => {
    const web = mkdtempSync(join(tmpdir(), 'spotter-web-'));
    mkdirSync(join(web, 'assets'));
    const html = (v: string) =>
      `<!doctype html><title>Spotter ${v}</title><script type="module" src="/assets/${v}.js"></script>${'<link rel="modulepreload" href="/assets/x.js">'.repeat(40)}<div id="root"></div>`;
    writeFileSync(join(web, 'index.html'), html('one'));
    const w = await buildTestApp({ WEB_DIST: web }, { databaseUrl: fresh?.url });
    try {
      const plain = await w.app.inject('/trainers');
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['cache-control']).toBe('no-cache');
      expect(plain.body).toBe(html('one'));
      const br = await w.app.inject({ url: '/trainers', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toContain('text/html');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(html('one'));
      const gz = await w.app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
      expect(gunzipSync(gz.rawPayload).toString()).toBe(html('one'));
      const again = await w.app.inject({ url: '/', headers: { 'if-none-match': gz.headers.etag as string } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      // a new build while the server runs: the new page, under a new ETag
      writeFileSync(join(web, 'index.html'), html('two'));
      const rebuilt = await w.app.inject({ url: '/', headers: { 'if-none-match': gz.headers.etag as string } });
      expect(rebuilt.statusCode).toBe(200);
      expect(rebuilt.body).toBe(html('two'));
      expect((await w.app.inject('/api/nope')).statusCode).toBe(404);
      expect((await w.app.inject('/assets/missing.js')).statusCode).toBe(404);
    } finally {
      await w.close();
    }
  });
});

describe('answers from memory', () => {
  it('serves a second identical list from the cache, whatever the order of the query', async () => {
    const city = newCity();
    const tr = await insertTrainer(t, { city, title: 'Kettlebells' });
    // the new trainer's notification has dropped what was kept (on PostgreSQL it comes after the insert)
    await settled();
    const url = `/api/trainers?city=${city}&page=1&sort=price_asc`;
    const first = await get(url);
    expect(first.json().viewAllTrainers[0].title).toBe('Kettlebells');

    // the database is not read again, whatever the order of the query: a change made behind the
    // cache's back (its triggers off) is not seen…
    await unannounced(tr.id, { title: 'Changed unannounced' });
    for (const same of [url, `/api/trainers?sort=price_asc&page=1&city=${city}`, `/api/trainers?city=${city}&sort=price_asc`]) {
      await expectKept(get, same, first);
      expect((await get(same)).headers['content-type']).toBe(first.headers['content-type']);
    }
    // …until a change is announced
    await announce(`accounts:${tr.id}`);
    await expectDropped(get, url, first, (body) => body.includes('Changed unannounced'), 'the list to show the new title');
  });

  it('caches exactly what the response schema lets out (no hidden columns), with absolute picture URLs', async () => {
    const tr = await insertTrainer(t, { city: newCity(), picture: '/api/avatars/cached.svg' });
    const miss = await profile(tr.id);
    const hit = await profile(tr.id);
    expect(hit.body).toBe(miss.body);
    const data = hit.json().trainerData;
    expect(Object.keys(data).sort()).toEqual(
      [
        '_id',
        'city',
        'country',
        'description',
        'firstName',
        'gender',
        'lastName',
        'nextFreeAt',
        'picture',
        'price',
        'rating',
        'packages',
        'ratingCount',
        'subscribers',
        'title',
        'verified',
      ].sort(),
    );
    expect(hit.body).not.toMatch(/not-a-login|passwordHash|email/);
    expect(data.picture).toBe('http://localhost:3000/api/avatars/cached.svg');
  });

  it("never shares a signed-in caller's reviews (isMine) with anyone else", async () => {
    const tr = await createAccount(t, 'trainer');
    const [mine, other] = [await createAccount(t, 'user'), await createAccount(t, 'user')];
    expect((await review(mine.token, tr.id, 5, 'Mine')).statusCode).toBe(201);
    const anonymous = await reviewsOf(tr.id);
    expect(anonymous[0]).not.toHaveProperty('isMine');
    expect((await reviewsOf(tr.id, mine.token))[0].isMine).toBe(true);
    expect((await reviewsOf(tr.id, other.token))[0].isMine).toBe(false);
    expect((await reviewsOf(tr.id, mine.token))[0].isMine).toBe(true);
    expect((await reviewsOf(tr.id))[0]).not.toHaveProperty('isMine');
    const signedIn = await t.app.inject({ url: `/api/trainer/reviews/${tr.id}`, headers: auth(mine.token) });
    expect(signedIn.headers['cache-control']).toBe('private, no-store');
    expect(signedIn.headers.vary).toMatch(/authorization/i);
  });

  it('does not cache errors: an unknown trainer is a 404 each time', async () => {
    const id = '00000000-0000-4000-8000-00000000cafe';
    expect((await profile(id)).statusCode).toBe(404);
    expect((await profile(id)).statusCode).toBe(404);
    expect((await profile(id)).headers.etag).toBeUndefined();
  });
});

describe('every write that changes an answer is seen at once', () => {
  it('a review, and its edit: the reviews, the rating on profile and list, and the order by rating', async () => {
    const city = newCity();
    const [a, b] = [await createAccount(t, 'trainer', { city }), await createAccount(t, 'trainer', { city })];
    const u = await createAccount(t, 'user', { firstName: 'Rita' });
    // prime every answer
    const order = async () => (await listIn(city, '&sort=rating')).map((x) => x._id);
    const [first] = await order();
    const lower = first === a.id ? b : a;
    expect((await profile(lower.id)).json().trainerData.ratingCount).toBe(0);
    expect(await reviewsOf(lower.id)).toEqual([]);

    expect((await review(u.token, lower.id, 5, 'Great coach')).statusCode).toBe(201);
    expect((await order())[0]).toBe(lower.id);
    expect((await profile(lower.id)).json().trainerData).toMatchObject({ rating: 5, ratingCount: 1 });
    expect((await listIn(city)).find((x) => x._id === lower.id)).toMatchObject({ rating: 5, ratingCount: 1 });
    expect(await reviewsOf(lower.id)).toMatchObject([{ comment: 'Great coach', reviewerFirstName: 'Rita' }]);

    expect((await review(u.token, lower.id, 3, 'Changed my mind')).statusCode).toBe(201);
    expect(await reviewsOf(lower.id)).toMatchObject([{ comment: 'Changed my mind', rating: 3 }]);
    expect((await profile(lower.id)).json().trainerData.rating).toBe(3);
  });

  it("a trainer's profile: name, title, city and price", async () => {
    const [city, moved] = [newCity(), newCity()];
    const tr = await createAccount(t, 'trainer', { city, price: 200 });
    expect((await listIn(city)).map((x) => x._id)).toEqual([tr.id]);
    expect(await listIn(moved)).toEqual([]);
    expect((await profile(tr.id)).json().trainerData.price).toBe(200);

    const res = await call('PATCH', '/api/trainer/edit', tr.token, {
      firstName: 'Renamed',
      title: 'Pilates',
      city: moved,
      price: 350,
    });
    expect(res.statusCode).toBe(200);
    expect(await listIn(city)).toEqual([]);
    expect(await listIn(moved)).toMatchObject([{ _id: tr.id, firstName: 'Renamed', title: 'Pilates', price: 350 }]);
    expect((await profile(tr.id)).json().trainerData).toMatchObject({ firstName: 'Renamed', city: moved, price: 350 });
  });

  it("a new photo, of a trainer (list and profile) and of a reviewer (the trainer's reviews)", async () => {
    const city = newCity();
    const tr = await createAccount(t, 'trainer', { city });
    const u = await createAccount(t, 'user');
    await review(u.token, tr.id, 4, 'Nice');
    expect((await listIn(city))[0].picture).toBe('');
    expect((await profile(tr.id)).json().trainerData.picture).toBe('');
    expect((await reviewsOf(tr.id))[0].reviewerProfilePhoto).toBe('');

    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 10, g: 120, b: 90 } } })
      .png()
      .toBuffer();
    for (const [who, role] of [
      [tr, 'trainer'],
      [u, 'user'],
    ] as const) {
      const boundary = 'cachetest';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const up = await t.app.inject({
        method: 'POST',
        url: '/api/images',
        payload,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: who.token },
      });
      expect(up.statusCode).toBe(201);
      expect((await call('PATCH', `/api/${role}/edit/photo`, who.token, { picture: up.json().url })).statusCode).toBe(200);
    }
    expect((await listIn(city))[0].picture).toMatch(/^http:\/\/localhost:3000\/api\/images\/[0-9a-f]{64}\.webp$/);
    expect((await profile(tr.id)).json().trainerData.picture).toMatch(/\/api\/images\//);
    expect((await reviewsOf(tr.id))[0].reviewerProfilePhoto).toMatch(/\/api\/images\//);
  });

  it("a reviewer's new name", async () => {
    const tr = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user', { firstName: 'Before' });
    await review(u.token, tr.id, 5, 'Good');
    expect((await reviewsOf(tr.id))[0].reviewerFirstName).toBe('Before');
    expect((await call('PATCH', '/api/user/edit', u.token, { firstName: 'After' })).statusCode).toBe(200);
    expect((await reviewsOf(tr.id))[0].reviewerFirstName).toBe('After');
  });

  it("deleting an account: the trainer leaves the list and the profile; the reviewer's reviews say Former member", async () => {
    const city = newCity();
    const tr = await createAccount(t, 'trainer', { city });
    const other = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user', { firstName: 'Leaving' });
    await review(u.token, other.id, 5, 'Bye');
    expect((await listIn(city)).map((x) => x._id)).toEqual([tr.id]);
    expect((await profile(tr.id)).statusCode).toBe(200);
    expect((await reviewsOf(other.id))[0].reviewerFirstName).toBe('Leaving');

    expect((await call('DELETE', '/api/trainer', tr.token, { password: tr.password })).statusCode).toBe(200);
    expect(await listIn(city)).toEqual([]);
    expect((await profile(tr.id)).statusCode).toBe(404);

    expect((await call('DELETE', '/api/user', u.token, { password: u.password })).statusCode).toBe(200);
    expect((await reviewsOf(other.id))[0]).toMatchObject({ reviewerFirstName: 'Former', reviewerLastName: 'member' });
  });

  it('verifying the e-mail address lists a new trainer', async () => {
    const city = newCity();
    const tr = await createAccount(t, 'trainer', { city }, { verify: false });
    expect(await listIn(city)).toEqual([]);
    const link = new URL(
      t
        .outbox()
        .filter((m) => m.to === tr.email)
        .at(-1)!.links[0],
    );
    expect((await get(link.pathname + link.search)).statusCode).toBe(302);
    expect((await listIn(city)).map((x) => x._id)).toEqual([tr.id]);
    expect((await profile(tr.id)).statusCode).toBe(200);
  });

  it('a paid booking adds a subscriber, its refund takes it away; a session that ends marks the review verified', async () => {
    const tr = await bookableTrainer(t);
    const u = await createAccount(t, 'user');
    expect((await profile(tr.id)).json().trainerData.subscribers).toBe(0);
    const paid = await bookAndPay(t, u.token, tr.id, hourFromNow(30));
    expect((await profile(tr.id)).json().trainerData.subscribers).toBe(1);
    expect((await cancel(t, u.token, paid.bookingId)).statusCode).toBe(200);
    expect((await profile(tr.id)).json().trainerData.subscribers).toBe(0);

    const session = await bookAndPay(t, u.token, tr.id, hourFromNow(40));
    await review(u.token, tr.id, 5, 'Before the session');
    expect((await reviewsOf(tr.id))[0].verifiedSession).toBe(false);
    // the completion job runs when the session is over
    const ends = new Date(session.capture.booking.endsAt as string).getTime();
    expect(await t.app.jobs.runDue({ now: new Date(ends + 60_000) })).toBeGreaterThanOrEqual(1);
    // a job is no request: nothing waits for its change to be announced before the next read
    await settled();
    expect((await reviewsOf(tr.id))[0].verifiedSession).toBe(true);
  });

  it('a change the database announces drops the answers, whatever it names (PGlite delivers it in-process)', async () => {
    const tr = await insertTrainer(t, { city: newCity() });
    await settled();
    const url = `/api/trainerData/${tr.id}`;
    for (const payload of [
      'accounts',
      `accounts:${tr.id}`,
      `ratings:${tr.id}`,
      `reviews:${tr.id}`,
      `sessions:${tr.id}`,
      'unknown',
    ]) {
      const before = await profile(tr.id);
      await unannounced(tr.id, { description: `Changed before ${payload}` });
      await expectKept(get, url, before);
      await announce(payload);
      await expectDropped(
        get,
        url,
        before,
        (body) => JSON.parse(body).trainerData.description === `Changed before ${payload}`,
        `the profile to show the change announced as ${payload}`,
      );
    }
  });
});

describe('the cache itself', () => {
  /** A bare app with one cached route whose answer is `load`'s. */
  async function bareApp(load: () => Promise<unknown>, cache = createReadCache()) {
    const app = Fastify();
    app.get('/x', { onSend: cache.onSend }, async (req, reply) =>
      cache.serve(req, reply, String(req.query && (req.query as { k?: string }).k), load),
    );
    await app.ready();
    return { app, cache };
  }

  it('does not keep what a read started before a write found, once the write is announced', async () => {
    let data = 'before';
    let open: (() => void) | undefined;
    const gate = new Promise<void>((r) => (open = r));
    let gated = true;
    const { app, cache } = await bareApp(async () => {
      const seen = data;
      if (gated) await gate;
      return { v: seen };
    });
    const slow = app.inject('/x?k=a');
    await until(() => cache.stats().misses === 1, 'the slow read to start');
    // a write commits and is announced while the read is under way
    data = 'after';
    cache.bump();
    gated = false;
    open!();
    expect((await slow).json()).toEqual({ v: 'before' });
    expect(cache.stats().entries).toBe(0);
    expect((await app.inject('/x?k=a')).json()).toEqual({ v: 'after' });
    expect((await app.inject('/x?k=a')).json()).toEqual({ v: 'after' });
    expect(cache.stats()).toMatchObject({ hits: 1, stores: 1 });
    await app.close();
  });

  it('runs one query for requests that miss the same key at once', async () => {
    let loads = 0;
    const { app } = await bareApp(async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 50));
      return { n: loads };
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => app.inject('/x?k=same')));
    expect(loads).toBe(1);
    expect(new Set(answers.map((a) => a.body))).toEqual(new Set(['{"n":1}']));
    await app.close();
  });

  /** A bare app whose answer for `?k=` carries `pad[k]` bytes of padding. */
  async function paddedApp(cache: ReturnType<typeof createReadCache>, pad: Record<string, number>) {
    const app = Fastify();
    app.get('/x', { onSend: cache.onSend }, async (req, reply) => {
      const k = (req.query as { k: string }).k;
      return cache.serve(req, reply, k, async () => ({ k, pad: 'x'.repeat(pad[k] ?? 10) }));
    });
    await app.ready();
    return app;
  }

  it('keeps at most maxEntries answers, the least recently used going first', async () => {
    const cache = createReadCache({ maxEntries: 3 });
    const app = await paddedApp(cache, {});
    for (const k of ['a', 'b', 'c', 'a', 'd']) await app.inject(`/x?k=${k}`);
    expect(cache.stats()).toMatchObject({ entries: 3, evictions: 1 });
    // b was the least recently used when d came: a, c and d are still there
    const { hits, misses } = cache.stats();
    for (const k of ['a', 'c', 'd']) await app.inject(`/x?k=${k}`);
    expect(cache.stats()).toMatchObject({ hits: hits + 3, misses });
    await app.inject('/x?k=b');
    expect(cache.stats().misses).toBe(misses + 1);
    await app.close();
  });

  it('keeps at most maxBytes, and no answer larger than maxEntryBytes', async () => {
    const cache = createReadCache({ maxBytes: 10_000, maxEntryBytes: 5_000 });
    const app = await paddedApp(cache, { p1: 3000, p2: 3000, p3: 3000, p4: 3000, big: 6000 });
    for (const k of ['p1', 'p2', 'p3', 'p4']) await app.inject(`/x?k=${k}`);
    expect(cache.stats()).toMatchObject({ entries: 3, evictions: 1 });
    expect(cache.stats().bytes).toBeLessThanOrEqual(10_000);
    const { stores } = cache.stats();
    const big = await app.inject('/x?k=big');
    expect(big.statusCode).toBe(200);
    expect(big.json().pad).toHaveLength(6000);
    expect(cache.stats()).toMatchObject({ entries: 3, stores });
    // compressed copies count too
    await app.inject({ url: '/x?k=p4', headers: { 'accept-encoding': 'gzip' } });
    await app.inject({ url: '/x?k=p3', headers: { 'accept-encoding': 'br' } });
    expect(cache.stats().bytes).toBeLessThanOrEqual(10_000);
    await app.close();
  });

  it('recomputes an answer older than maxAgeMs', async () => {
    let clock = 0;
    let n = 0;
    const { app, cache } = await bareApp(async () => ({ n: ++n }), createReadCache({ maxAgeMs: 1000, now: () => clock }));
    expect((await app.inject('/x?k=t')).json()).toEqual({ n: 1 });
    clock = 999;
    expect((await app.inject('/x?k=t')).json()).toEqual({ n: 1 });
    clock = 2000;
    expect((await app.inject('/x?k=t')).json()).toEqual({ n: 2 });
    expect(cache.stats().misses).toBe(2);
    await app.close();
  });
});

/** Two server processes on one PostgreSQL database: a write through one is seen by the other's cache. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two processes on one PostgreSQL database', () => {
  let b: TestApp;
  let settledOnB: () => Promise<void>;
  const onB: Get = (url, headers = {}) => b.app.inject({ method: 'GET', url, headers });
  afterAll(async () => {
    await b?.close();
  });

  it("a write through one process drops the other's cached answers", async () => {
    b = await buildTestApp({}, { databaseUrl: fresh!.url });
    settledOnB = await settler(b, 'spotter_test_settle_b');
    const city = newCity();
    const tr = await createAccount(t, 'trainer', { city });
    const u = await createAccount(t, 'user');
    // B has seen the sign-ups' notifications
    await settledOnB();
    // B keeps its answers
    expect((await onB(`/api/trainerData/${tr.id}`)).json().trainerData.ratingCount).toBe(0);
    expect((await onB(`/api/trainer/reviews/${tr.id}`)).json().allReviews).toEqual([]);
    expect((await onB(`/api/trainers?city=${city}`)).json().viewAllTrainers[0].ratingCount).toBe(0);
    const kept = await onB(`/api/trainerData/${tr.id}`);
    await unannounced(tr.id, { description: 'Not seen on B' });
    await expectKept(onB, `/api/trainerData/${tr.id}`, kept);

    // a review through A
    expect((await review(u.token, tr.id, 4, 'Through A')).statusCode).toBe(201);
    await until(
      async () => (await onB(`/api/trainerData/${tr.id}`)).json().trainerData.ratingCount === 1,
      "B's profile to show the review",
    );
    expect((await onB(`/api/trainer/reviews/${tr.id}`)).json().allReviews).toMatchObject([{ comment: 'Through A' }]);
    expect((await onB(`/api/trainers?city=${city}`)).json().viewAllTrainers[0]).toMatchObject({ rating: 4, ratingCount: 1 });

    // a profile change through A
    expect((await call('PATCH', '/api/trainer/edit', tr.token, { title: 'Seen on B' })).statusCode).toBe(200);
    await until(async () => (await onB(`/api/trainers?city=${city}`)).json().viewAllTrainers[0].title === 'Seen on B', 'B');
  });

  it('drops every answer when the listening connection comes back (notifications meanwhile were missed)', async () => {
    const tr = await insertTrainer(t, { city: newCity() });
    const url = `/api/trainerData/${tr.id}`;
    // B keeps the profile (once the insert's notification has reached it)
    await settledOnB();
    const kept = await onB(url);
    await unannounced(tr.id, { description: 'Changed while B listens' });
    await expectKept(onB, url, kept);
    await t.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'spotter-listener' and datname = current_database()`,
    );
    await expectDropped(
      onB,
      url,
      kept,
      (body) => JSON.parse(body).trainerData.description === 'Changed while B listens',
      "B's profile to show the change once its listener is back",
    );
  });
});
