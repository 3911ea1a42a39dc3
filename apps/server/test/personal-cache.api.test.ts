import { and, eq, sql } from 'drizzle-orm';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@spotter/shared';
import { availability, bookings, messages } from '../src/db/schema';
import { createReadCache } from '../src/platform/read-cache';
import { buildTestApp, createAccount, createFreshPgDatabase, type TestApp } from './helper';
import { settler } from './support/settle';
import { ALL_HOURS, auth, bookableTrainer, cancel, EVERY_HOUR, hold, hourFromNow } from './support/bookings';
import { until } from './support/until';

/**
 * People's own reads and free slots kept per account until a write concerns it
 * (docs/decisions/024-personal-read-cache.md). On PostgreSQL the file has a database of its own,
 * so no other test file's profile edits drop its answers mid-test.
 */
const fresh = await createFreshPgDatabase();
const t = await buildTestApp({}, { databaseUrl: fresh?.url });
afterAll(async () => {
  await t.close();
  await fresh?.drop();
});

const get = (url: string, token?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...auth(token), ...headers } });
const send = (token: string, recipientId: string, message: string) =>
  t.app.inject({ method: 'POST', url: '/api/chats', headers: auth(token), payload: { recipientId, message } });
type Conversation = { counterpartId: string; lastMessage: string; unread: number };
const conversationsOf = async (token: string) => (await get('/api/conversations', token)).json().conversations as Conversation[];
const lastWith = async (token: string, counterpartId: string) =>
  (await conversationsOf(token)).find((c) => c.counterpartId === counterpartId);
const slotsOf = async (trainerId: string) => (await get(`/api/trainers/${trainerId}/slots`)).json().slots as string[];
const bookingsOf = async (token: string) =>
  (await get('/api/bookings', token)).json().bookings as Array<{ _id: string; status: string }>;
type Get = (url: string, token?: string, headers?: Record<string, string>) => Promise<LightMyRequestResponse>;

/** A change behind the caches' back: the database's change triggers are off in this transaction. */
const unannounced = (change: (tx: Parameters<Parameters<typeof t.database.db.transaction>[0]>[0]) => Promise<unknown>) =>
  t.database.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await change(tx);
  });
const announce = (payload: string) => t.database.db.execute(sql`select pg_notify('spotter_change', ${payload})`);
const weekly = (trainerId: string, hours: Array<{ weekday: number; hours: number[] }>) =>
  unannounced((tx) => tx.update(availability).set({ weekly: hours }).where(eq(availability.trainerId, trainerId)));

/** `url`'s answer comes from memory: `before`'s body and ETag although a row changed, and If-None-Match gets 304. */
async function expectKept(on: Get, url: string, token: string | undefined, before: LightMyRequestResponse) {
  const again = await on(url, token);
  expect(again.statusCode, url).toBe(200);
  expect(again.body, url).toBe(before.body);
  expect(again.headers.etag, url).toBe(before.headers.etag);
  expect((await on(url, token, { 'if-none-match': before.headers.etag as string })).statusCode, url).toBe(304);
}

/** `url`'s answer was dropped: it comes to show the change (`shows`), under a new ETag. */
async function expectDropped(
  on: Get,
  url: string,
  token: string | undefined,
  before: LightMyRequestResponse,
  shows: (answer: Record<string, unknown>) => boolean,
  what: string,
) {
  await until(async () => shows((await on(url, token)).json()), what);
  const now = await on(url, token, { 'if-none-match': before.headers.etag as string });
  expect(now.statusCode, what).toBe(200);
  expect(now.headers.etag, what).not.toBe(before.headers.etag);
}

describe('answers from memory', () => {
  it("keeps a caller's conversations, conversation, bookings, free slots and weekly hours, with ETag and 304, until a change concerning them is announced", async () => {
    const user = await createAccount(t, 'user');
    const trainer = await bookableTrainer(t);
    expect((await send(user.token, trainer.id, 'Hello')).statusCode).toBe(201);
    const held = await hold(t, user.token, trainer.id, hourFromNow(30));
    expect(held.statusCode).toBe(201);
    const theirs = and(eq(messages.userId, user.id), eq(messages.trainerId, trainer.id));
    const oneHour = [{ weekday: 1, hours: [9] }];
    type Step = [string, string | undefined, () => Promise<unknown>, string, (answer: Record<string, unknown>) => boolean];
    const steps: Step[] = [
      [
        '/api/conversations',
        user.token,
        () => unannounced((tx) => tx.update(messages).set({ body: 'Edited 1' }).where(theirs)),
        `messages:${user.id}`,
        (a) => (a.conversations as Conversation[])[0]?.lastMessage === 'Edited 1',
      ],
      [
        `/api/chats/${trainer.id}`,
        user.token,
        () => unannounced((tx) => tx.update(messages).set({ body: 'Edited 2' }).where(theirs)),
        `messages:${user.id}`,
        (a) => (a.allMessages as Array<{ message: string }>)[0]?.message === 'Edited 2',
      ],
      [
        '/api/bookings',
        user.token,
        () =>
          unannounced((tx) => tx.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, held.json().booking._id))),
        `bookings:${user.id}`,
        (a) => (a.bookings as Array<{ status: string }>)[0]?.status === 'cancelled',
      ],
      [
        `/api/trainers/${trainer.id}/slots`,
        undefined,
        () => weekly(trainer.id, []),
        `availability:${trainer.id}`,
        (a) => (a.slots as string[]).length === 0,
      ],
      [
        '/api/trainer/availability',
        trainer.token,
        () => weekly(trainer.id, oneHour),
        `availability:${trainer.id}`,
        (a) => JSON.stringify(a.weekly) === JSON.stringify(oneHour),
      ],
    ];
    for (const [url, token, change, payload, shows] of steps) {
      const first = await get(url, token);
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe(token ? 'private, no-store' : 'no-cache');
      expect(first.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
      const same = await get(url, token, { 'if-none-match': first.headers.etag as string });
      expect(same.statusCode).toBe(304);
      expect(same.body).toBe('');
      // a change behind the cache's back: the kept answer, its ETag and 304…
      expect(shows(first.json()), url).toBe(false);
      await change();
      await expectKept(get, url, token, first);
      // …until the database's notification concerning the caller (or the trainer) comes
      await announce(payload);
      await expectDropped(get, url, token, first, shows, `${url} to show the change announced as ${payload}`);
    }
  });

  it("never gives one caller another's answer, and a token that no longer holds gets 401, not the kept answer", async () => {
    const [a, b] = [await createAccount(t, 'user'), await createAccount(t, 'user')];
    const trainer = await bookableTrainer(t);
    await send(a.token, trainer.id, 'From A');
    expect((await conversationsOf(a.token)).map((c) => c.lastMessage)).toEqual(['From A']);
    expect(await conversationsOf(b.token)).toEqual([]);
    expect((await get(`/api/chats/${trainer.id}`, b.token)).json().allMessages).toEqual([]);

    const changed = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/password',
      headers: auth(a.token),
      payload: { oldPassword: a.password, newPassword: 'Newpass1', confirmPassword: 'Newpass1' },
    });
    expect(changed.statusCode).toBe(200);
    const stale = await get('/api/conversations', a.token);
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toBe(SERVER_MSG.badToken);
    expect((await conversationsOf(changed.json().token)).map((c) => c.lastMessage)).toEqual(['From A']);
  });
});

describe('every write that concerns an account is seen', () => {
  it('chat: your own message at once; the other side once the chat notification arrives; a read mark', async () => {
    const user = await createAccount(t, 'user');
    const trainer = await createAccount(t, 'trainer');
    await send(user.token, trainer.id, 'One');
    expect((await lastWith(user.token, trainer.id))?.lastMessage).toBe('One');
    expect(await lastWith(trainer.token, user.id)).toMatchObject({ lastMessage: 'One', unread: 1 });

    // the writer's next read, with no waiting
    expect((await send(user.token, trainer.id, 'Two')).statusCode).toBe(201);
    expect((await lastWith(user.token, trainer.id))?.lastMessage).toBe('Two');
    expect(
      (await get(`/api/chats/${trainer.id}`, user.token)).json().allMessages.map((m: { message: string }) => m.message),
    ).toEqual(['One', 'Two']);
    // the other side: when the notification arrives (in-process on PGlite, milliseconds on PostgreSQL)
    await until(async () => (await lastWith(trainer.token, user.id))?.unread === 2, "the trainer's inbox to show Two");

    const read = await t.app.inject({ method: 'POST', url: `/api/conversations/${user.id}/read`, headers: auth(trainer.token) });
    expect(read.statusCode).toBe(200);
    expect((await lastWith(trainer.token, user.id))?.unread).toBe(0);
  });

  it("bookings and slots: a hold, its cancellation, and the trainer's new weekly hours", async () => {
    const user = await createAccount(t, 'user');
    const trainer = await bookableTrainer(t);
    const startsAt = hourFromNow(30);
    expect(await slotsOf(trainer.id)).toContain(startsAt);
    expect(await bookingsOf(user.token)).toEqual([]);
    expect(await bookingsOf(trainer.token)).toEqual([]);

    const held = await hold(t, user.token, trainer.id, startsAt);
    expect(held.statusCode).toBe(201);
    const id = held.json().booking._id as string;
    expect((await bookingsOf(user.token)).map((b) => b._id)).toEqual([id]);
    await until(async () => !(await slotsOf(trainer.id)).includes(startsAt), 'the held slot to leave the slots');
    await until(async () => (await bookingsOf(trainer.token)).length === 1, "the hold on the trainer's schedule");

    expect((await cancel(t, user.token, id)).statusCode).toBe(200);
    expect(await bookingsOf(user.token)).toMatchObject([{ _id: id, status: 'cancelled' }]);
    expect(await slotsOf(trainer.id)).toContain(startsAt);

    // a change nobody announced (SQL by hand): the database's trigger names both accounts (another
    // user holds the slot: the one who released it waits 10 minutes, BOOKING_RULES.holdCooldownMinutes)
    const next = await createAccount(t, 'user');
    const again = await hold(t, next.token, trainer.id, startsAt);
    expect(again.statusCode).toBe(201);
    expect(await slotsOf(trainer.id)).not.toContain(startsAt);
    expect((await bookingsOf(next.token)).map((b) => b.status)).toEqual(['pending']);
    await t.database.db.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, again.json().booking._id));
    await until(async () => (await slotsOf(trainer.id)).includes(startsAt), 'the slot freed by hand to come back');
    await until(
      async () => (await bookingsOf(next.token)).every((b) => b.status === 'cancelled'),
      "the user's list to show the cancellation by hand",
    );

    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/trainer/availability',
      headers: auth(trainer.token),
      payload: { timeZone: 'UTC', weekly: [] },
    });
    expect(put.statusCode).toBe(200);
    expect((await get('/api/trainer/availability', trainer.token)).json().weekly).toEqual([]);
    expect(await slotsOf(trainer.id)).toEqual([]);
  });
});

describe('the cache with scopes and a clock', () => {
  /** A bare app with one route kept under scope `?s=`, valid until `until` on `clock`. */
  async function scopedApp(load: () => Promise<{ n: number }>, opts: { clock?: () => number; until?: number } = {}) {
    const cache = createReadCache();
    const app = Fastify();
    app.get('/x', { onSend: cache.onSend }, async (req, reply) => {
      const s = (req.query as { s: string }).s;
      return cache.serve(req, reply, `x:${s}`, load, { scopes: [s], clock: opts.clock, validUntil: () => opts.until });
    });
    await app.ready();
    return { app, cache };
  }

  it("a scope's writes drop its answers only", async () => {
    let n = 0;
    const { app, cache } = await scopedApp(async () => ({ n: ++n }));
    expect((await app.inject('/x?s=a')).json()).toEqual({ n: 1 });
    expect((await app.inject('/x?s=b')).json()).toEqual({ n: 2 });
    cache.bumpScopes(['a']);
    expect((await app.inject('/x?s=a')).json()).toEqual({ n: 3 });
    expect((await app.inject('/x?s=b')).json()).toEqual({ n: 2 });
    await app.close();
  });

  it("does not keep what a read found before its scope's write was announced", async () => {
    let data = 1;
    let open: (() => void) | undefined;
    const gate = new Promise<void>((r) => (open = r));
    let gated = true;
    const { app, cache } = await scopedApp(async () => {
      const seen = data;
      if (gated) await gate;
      return { n: seen };
    });
    const slow = app.inject('/x?s=a');
    await until(() => cache.stats().misses === 1, 'the slow read to start');
    data = 2;
    cache.bumpScopes(['a']);
    gated = false;
    open!();
    expect((await slow).json()).toEqual({ n: 1 });
    expect((await app.inject('/x?s=a')).json()).toEqual({ n: 2 });
    expect((await app.inject('/x?s=a')).json()).toEqual({ n: 2 });
    expect(cache.stats()).toMatchObject({ hits: 1, stores: 1 });
    await app.close();
  });

  it('reads again once the clock reaches validUntil, or is set back before the read', async () => {
    let clock = 1_000;
    let n = 0;
    const { app } = await scopedApp(async () => ({ n: ++n }), { clock: () => clock, until: 2_000 });
    expect((await app.inject('/x?s=a')).json()).toEqual({ n: 1 });
    clock = 1_999;
    expect((await app.inject('/x?s=a')).json()).toEqual({ n: 1 });
    clock = 2_000;
    expect((await app.inject('/x?s=a')).json()).toEqual({ n: 2 });
    clock = 500;
    expect((await app.inject('/x?s=a')).json()).toEqual({ n: 3 });
    await app.close();
  });
});

/** Two server processes on one PostgreSQL database: a write through one drops the other's answers. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two processes on one PostgreSQL database', () => {
  let b: TestApp;
  let settledOnB: () => Promise<void>;
  const onB: Get = (url, token, headers = {}) => b.app.inject({ url, headers: { ...auth(token), ...headers } });
  afterAll(async () => {
    await b?.close();
  });

  it("a message and a hold through one process reach the other's kept answers", async () => {
    // the same signing secret, as processes behind one load balancer have
    b = await buildTestApp({ JWT_SECRET: t.config.jwtSecret }, { databaseUrl: fresh!.url });
    const user = await createAccount(t, 'user');
    const trainer = await bookableTrainer(t);
    settledOnB = await settler(b, 'spotter_test_settle_b');
    const startsAt = hourFromNow(40);
    // another slot, at another hour, which a change behind the caches' back takes away
    const other = hourFromNow(45);
    const otherHour = new Date(other).getUTCHours();
    await send(user.token, trainer.id, 'Before');
    // B keeps its answers (once the notifications of the writes above have reached it)
    await settledOnB();
    const inbox = await onB('/api/conversations', trainer.token);
    expect(inbox.json().conversations).toMatchObject([{ lastMessage: 'Before' }]);
    const slots = await onB(`/api/trainers/${trainer.id}/slots`);
    expect(slots.json().slots).toEqual(expect.arrayContaining([startsAt, other]));
    await unannounced((tx) => tx.update(messages).set({ body: 'Not seen on B' }).where(eq(messages.trainerId, trainer.id)));
    await weekly(
      trainer.id,
      EVERY_HOUR.map(({ weekday }) => ({ weekday, hours: ALL_HOURS.filter((h) => h !== otherHour) })),
    );
    await expectKept(onB, '/api/conversations', trainer.token, inbox);
    await expectKept(onB, `/api/trainers/${trainer.id}/slots`, undefined, slots);

    await send(user.token, trainer.id, 'Through A');
    await until(
      async () => (await onB('/api/conversations', trainer.token)).json().conversations[0]?.lastMessage === 'Through A',
      "B's inbox to show the message",
    );
    expect((await hold(t, user.token, trainer.id, startsAt)).statusCode).toBe(201);
    await until(
      async () => !(await onB(`/api/trainers/${trainer.id}/slots`)).json().slots.includes(startsAt),
      "B's slots to lose the held one",
    );
    // the change behind the caches' back came with the hold's drop
    expect((await onB(`/api/trainers/${trainer.id}/slots`)).json().slots).not.toContain(other);
  });

  it('drops every answer when the listening connection comes back', async () => {
    const trainer = await bookableTrainer(t);
    const url = `/api/trainers/${trainer.id}/slots`;
    // B keeps the slots (once the notifications of the writes above have reached it)
    await settledOnB();
    const kept = await onB(url);
    expect(kept.json().slots.length).toBeGreaterThan(0);
    await weekly(trainer.id, []);
    await expectKept(onB, url, undefined, kept);
    await t.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'spotter-listener' and datname = current_database()`,
    );
    await expectDropped(
      onB,
      url,
      undefined,
      kept,
      (a) => (a.slots as string[]).length === 0,
      "B's slots to show the change once its listener is back",
    );
  });
});
