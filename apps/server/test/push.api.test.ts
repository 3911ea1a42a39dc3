import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { generateVAPIDKeys } from 'web-push';
import { afterAll, describe, expect, it } from 'vitest';
import { PUSH_MSG, ZPushPayload, type TPushPayload } from '@spotter/shared';
import { messages } from '../src/db/schema';
import { z } from 'zod';
import { buildApp } from '../src/app';
import { defineJob } from '../src/platform/jobs';
import { loadConfig } from '../src/config';
import { buildTestApp, createAccount, useTestApp } from './helper';
import { auth, bookAndPay, bookableTrainer, hourFromNow } from './support/bookings';
import { startPushService, type PushDevice } from './support/push-service';
import { until } from './support/until';
import { ChatSocket } from './ws-client';

// Web Push (docs/product.md#notifications) against a local push service that decrypts what it gets
// (RFC 8030 delivery, RFC 8291 encryption, RFC 8292 VAPID): what a device would show is checked.
const pushService = await startPushService();
afterAll(() => pushService.close());
const t = await useTestApp({ PUSH_ENDPOINT_HOSTS: `http://${pushService.host}` });
await t.app.listen({ port: 0, host: '127.0.0.1' });
const address = t.app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const subscribe = (token: string | undefined, body: object) =>
  t.app.inject({ method: 'POST', url: '/api/push/subscriptions', headers: auth(token), payload: body });
const devicesOf = async (token: string) =>
  (await t.app.inject({ url: '/api/push/subscriptions', headers: auth(token) })).json().subscriptions as Array<{
    endpoint: string;
    kinds: string[];
  }>;
const shown = (device: PushDevice): TPushPayload[] => device.received.map((r) => ZPushPayload.parse(JSON.parse(r.payload)));
const sendChat = async (token: string, recipientId: string, message: string, clientMessageId?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/chats',
    headers: auth(token),
    payload: { recipientId, message, ...(clientMessageId ? { clientMessageId } : {}) },
  });
const HOUR = 60 * 60_000;
const subscriptionsOf = async (accountId: string) => {
  const rows = await t.database.db.execute(
    sql`select count(*)::int as n from push_subscriptions where account_id = ${accountId}`,
  );
  return (rows as unknown as { rows: Array<{ n: number }> }).rows[0].n;
};

/** Runs every job due by `ms` from now (the chat push waits a few seconds for an open socket). */
const runJobs = (ms = 60_000, app = t.app) => app.jobs.runDue({ now: new Date(Date.now() + ms) });
/** Two rounds: a message's `chat.push` job queues the deliveries, which the second round sends. */
async function runPushJobs(app = t.app) {
  await runJobs(60_000, app);
  await runJobs(60_000, app);
}
/** The jobs still queued about a message. */
const jobsAbout = async (messageId: string) => {
  const rows = await t.database.db.execute(sql`select count(*)::int as n from jobs where payload->>'messageId' = ${messageId}`);
  return (rows as unknown as { rows: Array<{ n: number }> }).rows[0].n;
};

describe('GET /api/push/config', () => {
  it('gives the VAPID public key, the same after a restart on the same data folder', async () => {
    const res = await t.app.inject('/api/push/config');
    expect(res.statusCode).toBe(200);
    expect(res.json().publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(Buffer.from(res.json().publicKey, 'base64url')[0]).toBe(4);
    // generated once into DATA_DIR: another process (or a restart) on the folder signs with the same pair
    const again = loadConfig({ NODE_ENV: 'test', DATA_DIR: t.config.dataDir });
    expect(again.push.vapid?.publicKey).toBe(res.json().publicKey);
    expect(statSync(join(t.config.dataDir, 'vapid-keys.json')).mode & 0o777).toBe(0o600);
  });

  it('takes VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY from the environment, both or neither', () => {
    const pair = generateVAPIDKeys();
    const dir = mkdtempSync(join(tmpdir(), 'spotter-vapid-'));
    try {
      const cfg = loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dir,
        VAPID_PUBLIC_KEY: pair.publicKey,
        VAPID_PRIVATE_KEY: pair.privateKey,
      });
      expect(cfg.push.vapid).toMatchObject(pair);
      expect(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(/set both/);
      const other = generateVAPIDKeys();
      expect(() =>
        loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, VAPID_PUBLIC_KEY: other.publicKey, VAPID_PRIVATE_KEY: pair.privateKey }),
      ).toThrow(/is not the public key/);
      expect(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, VAPID_SUBJECT: 'mailto:' })).toThrow(/VAPID_SUBJECT/);
      expect(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, MAIL_FROM: 'Spotter Team' })).toThrow(/VAPID_SUBJECT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is null on a server with PUSH=false, which refuses subscriptions with 503', async () => {
    const off = await buildTestApp({ PUSH: 'false' });
    try {
      expect((await off.app.inject('/api/push/config')).json()).toEqual({ publicKey: null });
      const u = await createAccount(off, 'user');
      const res = await off.app.inject({
        method: 'POST',
        url: '/api/push/subscriptions',
        headers: auth(u.token),
        payload: pushService.device().subscription,
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'NOT_CONFIGURED', message: PUSH_MSG.off });
    } finally {
      await off.close();
    }
  });
});

describe('POST and DELETE /api/push/subscriptions', () => {
  it("keeps a device with the role's kinds, updates them on the same endpoint, and forgets it on DELETE", async () => {
    const u = await createAccount(t, 'user');
    const device = pushService.device();
    const first = await subscribe(u.token, device.subscription);
    expect(first.statusCode).toBe(200);
    // a user gets no payouts
    expect(first.json().subscription.kinds).toEqual(['message', 'booking', 'reminder', 'waitlist']);
    const again = await subscribe(u.token, { ...device.subscription, kinds: ['message', 'payout'] });
    expect(again.json().subscription.kinds).toEqual(['message']);
    expect(await devicesOf(u.token)).toEqual([
      expect.objectContaining({ endpoint: device.subscription.endpoint, kinds: ['message'] }),
    ]);

    const gone = await t.app.inject({
      method: 'DELETE',
      url: '/api/push/subscriptions',
      headers: auth(u.token),
      payload: { endpoint: device.subscription.endpoint },
    });
    expect(gone.statusCode).toBe(204);
    expect(await devicesOf(u.token)).toEqual([]);
  });

  it('needs a signed-in person', async () => {
    expect((await subscribe(undefined, pushService.device().subscription)).statusCode).toBe(401);
    expect((await t.app.inject('/api/push/subscriptions')).statusCode).toBe(401);
  });

  it.each([
    ['a host not on the list', 'https://evil.example/push/1'],
    ['the list host under another name', `http://${pushService.host.replace(':', '.evil.example:')}/push/1`],
    ['another port of the same address', 'http://127.0.0.1:1/push/1'],
    ['HTTPS where the list says HTTP', `https://${pushService.host}/push/1`],
    ['credentials in the URL', `http://user:pw@${pushService.host}/push/1`],
    ['the metadata address of a cloud', 'http://169.254.169.254/latest/meta-data/'],
  ])('refuses an endpoint on %s (the server never calls an address a person chose)', async (_name, endpoint) => {
    const u = await createAccount(t, 'user');
    const res = await subscribe(u.token, { ...pushService.device().subscription, endpoint });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(PUSH_MSG.host);
    expect(await devicesOf(u.token)).toEqual([]);
  });

  it('refuses an expiration time no clock can hold, and kinds that are no list', async () => {
    const u = await createAccount(t, 'user');
    for (const body of [
      { ...pushService.device().subscription, expirationTime: 1e16 },
      { ...pushService.device().subscription, expirationTime: -1 },
      { ...pushService.device().subscription, kinds: 'message' },
    ]) {
      const res = await subscribe(u.token, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses keys that are not a P-256 point and a 16-byte secret', async () => {
    const u = await createAccount(t, 'user');
    const device = pushService.device().subscription;
    const notOnCurve = Buffer.alloc(65, 7);
    notOnCurve[0] = 4;
    for (const keys of [
      { ...device.keys, p256dh: notOnCurve.toString('base64url') },
      { ...device.keys, auth: Buffer.alloc(15).toString('base64url') },
      { ...device.keys, p256dh: 'not base64!' },
    ]) {
      const res = await subscribe(u.token, { ...device, keys });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(PUSH_MSG.keys);
    }
  });

  it("a shared browser's endpoint belongs to whoever subscribed it last", async () => {
    const a = await createAccount(t, 'user');
    const b = await createAccount(t, 'user');
    const device = pushService.device();
    await subscribe(a.token, device.subscription);
    await subscribe(b.token, device.subscription);
    expect(await devicesOf(a.token)).toEqual([]);
    expect((await devicesOf(b.token)).map((d) => d.endpoint)).toEqual([device.subscription.endpoint]);
  });
});

describe('what is sent', () => {
  it("a paid booking: each side's device shows it, decrypted with its own keys; a device without the kind gets nothing", async () => {
    const trainer = await bookableTrainer(t);
    const u = await createAccount(t, 'user', { firstName: 'Nadia' });
    const userPhone = pushService.device();
    const trainerPhone = pushService.device();
    const quiet = pushService.device();
    await subscribe(u.token, userPhone.subscription);
    await subscribe(trainer.token, trainerPhone.subscription);
    await subscribe(u.token, { ...quiet.subscription, kinds: ['message'] });

    const { bookingId } = await bookAndPay(t, u.token, trainer.id, hourFromNow(30));
    await runJobs(0);
    await until(() => userPhone.received.length > 0 && trainerPhone.received.length > 0, 'both sides notified');
    expect(shown(userPhone)).toEqual([
      expect.objectContaining({ kind: 'booking', url: '/user/profile', tag: `booking-${bookingId}` }),
    ]);
    expect(shown(userPhone)[0].title).toMatch(/^Session with .+ booked$/);
    expect(shown(trainerPhone)[0]).toMatchObject({ kind: 'booking', title: 'Nadia booked a session', url: '/trainer/profile' });
    expect(userPhone.received[0]).toMatchObject({ urgency: 'normal', ttl: 24 * 3600 });
    expect(userPhone.received[0].vapid.sub).toMatch(/^mailto:/);
    expect(quiet.received).toEqual([]);
  });

  it('the reminder before a session, and a payout sent, reach the devices that want them', async () => {
    const trainer = await bookableTrainer(t, { price: 200 });
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/trainer/payout',
      headers: auth(trainer.token),
      payload: { email: 'coach.payouts@example.com' },
    });
    expect(saved.statusCode).toBe(200);
    const u = await createAccount(t, 'user');
    const userPhone = pushService.device();
    const trainerPhone = pushService.device();
    await subscribe(u.token, { ...userPhone.subscription, kinds: ['reminder'] });
    await subscribe(trainer.token, { ...trainerPhone.subscription, kinds: ['payout'] });
    const startsAt = hourFromNow(30);
    await bookAndPay(t, u.token, trainer.id, startsAt);

    // the reminder is due a day before
    await t.app.jobs.runDue({ now: new Date(Date.parse(startsAt) - 23 * HOUR) });
    await t.app.jobs.runDue({ now: new Date(Date.parse(startsAt) - 23 * HOUR) });
    await until(() => userPhone.received.length === 1, 'the reminder');
    expect(shown(userPhone)[0]).toMatchObject({ kind: 'reminder', url: '/user/profile' });
    expect(shown(userPhone)[0].title).toMatch(/^Session with .+ soon$/);

    // the session ends, its share is payable a day later, and the next payout round pays it
    for (const hours of [26, 50, 74]) await t.app.jobs.runDue({ now: new Date(Date.parse(startsAt) + hours * HOUR) });
    await until(() => trainerPhone.received.length === 1, 'the payout notification');
    expect(shown(trainerPhone)[0]).toMatchObject({ kind: 'payout', title: 'Payout sent', url: '/trainer/payments' });
    expect(shown(trainerPhone)[0].body).toMatch(/^\$\d+\.\d\d \(USD\) is in your PayPal account coach\.payouts@example\.com$/);
    expect(trainerPhone.received[0].urgency).toBe('low');
  });

  it('messages to someone with no open socket: one notification for the burst, with who wrote, the newest text and the unread count', async () => {
    const trainer = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user', { firstName: 'Omar' });
    const phone = pushService.device();
    await subscribe(trainer.token, phone.subscription);
    expect((await sendChat(u.token, trainer.id, 'Are you free on Monday?')).statusCode).toBe(201);
    expect((await sendChat(u.token, trainer.id, 'Morning works best')).statusCode).toBe(201);
    await runPushJobs();
    await until(() => phone.received.length >= 1, 'the message notification');
    expect(shown(phone)).toEqual([
      {
        kind: 'message',
        title: 'Omar sent you a message',
        body: 'Morning works best',
        url: '/trainer/chat',
        tag: `chat-${u.id}`,
        badge: 2,
      },
    ]);
    expect(phone.received[0].urgency).toBe('high');

    // read, then written to again: a new notification
    const read = await t.app.inject({ method: 'POST', url: `/api/conversations/${u.id}/read`, headers: auth(trainer.token) });
    expect(read.statusCode).toBe(200);
    await sendChat(u.token, trainer.id, 'See you then');
    await runPushJobs();
    await until(() => phone.received.length === 2, 'the next notification');
    expect(shown(phone)[1]).toMatchObject({ body: 'See you then', badge: 1 });
  });

  it('a long message is cut between characters, never inside an emoji', async () => {
    const trainer = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user');
    const phone = pushService.device();
    await subscribe(trainer.token, phone.subscription);
    expect((await sendChat(u.token, trainer.id, 'x' + '😀'.repeat(999))).statusCode).toBe(201);
    await runPushJobs();
    await until(() => phone.received.length === 1, 'the notification');
    const body = shown(phone)[0].body;
    expect(Array.from(body)).toHaveLength(300);
    expect(body).toBe('x' + '😀'.repeat(298) + '…');
  });
  it('a message pushed to an open socket of the recipient gets no notification', async () => {
    const trainer = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user');
    const phone = pushService.device();
    await subscribe(trainer.token, phone.subscription);
    const socket = await ChatSocket.open(base, trainer.token);
    try {
      const sent = await sendChat(u.token, trainer.id, 'You are online');
      const id = sent.json().message._id as string;
      await socket.next((f) => f.type === 'message');
      await until(async () => {
        const [row] = await t.database.db.select({ at: messages.deliveredAt }).from(messages).where(eq(messages.id, id));
        return !!row?.at;
      }, 'the message marked delivered');
      await runJobs();
      await runJobs();
      expect(await jobsAbout(id)).toBe(0);
      expect(phone.received).toEqual([]);
    } finally {
      await socket.close();
    }
  });

  it('nothing is queued for a message to someone without a device that wants messages', async () => {
    const trainer = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user');
    const res = await sendChat(u.token, trainer.id, 'No devices here');
    const id = res.json().message._id as string;
    expect(await jobsAbout(id)).toBe(0);
  });

  it('a device the push service says is gone (404 or 410) is forgotten; a 500 is retried until it is delivered', async () => {
    const trainer = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user', { firstName: 'Lina' });
    const gone404 = pushService.device();
    const gone410 = pushService.device();
    const flaky = pushService.device();
    for (const d of [gone404, gone410, flaky]) await subscribe(trainer.token, d.subscription);
    pushService.gone(gone404, 404);
    pushService.gone(gone410, 410);
    pushService.failNext(flaky, 500);
    await sendChat(u.token, trainer.id, 'Hello?');
    await runPushJobs();
    await until(async () => (await devicesOf(trainer.token)).length === 1, 'the gone devices removed');
    expect((await devicesOf(trainer.token)).map((d) => d.endpoint)).toEqual([flaky.subscription.endpoint]);
    expect(flaky.received).toEqual([]);
    // the job backs off, then delivers
    await runJobs(10 * 60_000);
    await until(() => flaky.received.length === 1, 'the retried delivery');
    expect(shown(flaky)[0]).toMatchObject({ body: 'Hello?' });
  });

  it('a device whose push service refuses the subscription (403: made with another key) is forgotten', async () => {
    const trainer = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user');
    const phone = pushService.device();
    await subscribe(trainer.token, phone.subscription);
    pushService.failNext(phone, 403);
    await sendChat(u.token, trainer.id, 'Refused');
    await runPushJobs();
    await until(async () => (await devicesOf(trainer.token)).length === 0, 'the device forgotten');
  });

  it("after a password change or 'sign out everywhere', the devices subscribed before get nothing and are forgotten", async () => {
    const trainer = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user');
    const phone = pushService.device();
    await subscribe(trainer.token, phone.subscription);
    await t.database.db.execute(sql`update accounts set token_version = token_version + 1 where id = ${trainer.id}`);
    await sendChat(u.token, trainer.id, 'After the tokens ended');
    await runPushJobs();
    await until(async () => (await subscriptionsOf(trainer.id)) === 0, 'the device forgotten');
    expect(phone.received).toEqual([]);
  });

  it('a notice queued for one person never reaches the next person who subscribes the same browser', async () => {
    const trainer = await createAccount(t, 'trainer');
    const next = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user');
    const phone = pushService.device();
    await subscribe(trainer.token, phone.subscription);
    pushService.failNext(phone, 503);
    await sendChat(u.token, trainer.id, 'For the first trainer only');
    await runPushJobs();
    const path = new URL(phone.subscription.endpoint).pathname;
    await until(() => pushService.rejected().some((r) => r.path === path), 'the first attempt');
    await subscribe(next.token, phone.subscription);
    await runJobs(10 * 60_000);
    expect(phone.received).toEqual([]);
  });

  it('keeps an account to its newest ten devices, and one device however its endpoint is spelled', async () => {
    const u = await createAccount(t, 'user');
    const devices = Array.from({ length: 11 }, () => pushService.device());
    for (const d of devices) expect((await subscribe(u.token, d.subscription)).statusCode).toBe(200);
    const kept = (await devicesOf(u.token)).map((d) => d.endpoint).sort();
    expect(kept).toEqual(
      devices
        .slice(1)
        .map((d) => d.subscription.endpoint)
        .sort(),
    );

    const v = await createAccount(t, 'user');
    const d = pushService.device().subscription;
    await subscribe(v.token, d);
    await subscribe(v.token, { ...d, endpoint: d.endpoint.replace('http://', 'HTTP://') });
    expect((await devicesOf(v.token)).map((x) => x.endpoint)).toEqual([d.endpoint]);
  });

  it('a flood of notifications waits behind every other job that is due', async () => {
    const ran: string[] = [];
    const urgent = defineJob('test.urgent', z.object({}));
    t.app.jobs.register(urgent, async () => {
      ran.push('urgent');
    });
    const trainer = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user');
    await subscribe(trainer.token, pushService.device().subscription);
    await sendChat(u.token, trainer.id, 'Queued before the urgent job');
    await t.app.jobs.enqueue(t.database.db, { kind: urgent, runAt: new Date(Date.now() + 30_000), payload: {} });
    // both due: the urgent one runs first, although the push job was due before it
    expect(await t.app.jobs.runDue({ now: new Date(Date.now() + 60_000), max: 1 })).toBe(1);
    expect(ran).toEqual(['urgent']);
    await runJobs();
  });

  it("a suspended account's devices get nothing more, and are forgotten", async () => {
    const trainer = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user');
    const phone = pushService.device();
    await subscribe(trainer.token, phone.subscription);
    await sendChat(u.token, trainer.id, 'Before the suspension');
    await t.database.db.execute(sql`update accounts set suspended_at = now() where id = ${trainer.id}`);
    await runPushJobs();
    await until(async () => {
      const rows = await t.database.db.execute(
        sql`select count(*)::int as n from push_subscriptions where account_id = ${trainer.id}`,
      );
      return (rows as unknown as { rows: Array<{ n: number }> }).rows[0].n === 0;
    }, 'the device forgotten');
    expect(phone.received).toEqual([]);
  });

  it('a queued notification outlives the process that queued it', async () => {
    const trainer = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user');
    const phone = pushService.device();
    await subscribe(trainer.token, phone.subscription);
    // the message is sent to the first app, which stops before its job is due
    const first = await buildApp({ config: t.config, database: t.database, logger: false });
    await first.ready();
    const res = await first.inject({
      method: 'POST',
      url: '/api/chats',
      headers: auth(u.token),
      payload: { recipientId: trainer.id, message: 'Sent before a restart' },
    });
    expect(res.statusCode).toBe(201);
    await first.close();
    // a new process on the same database
    const second = await buildApp({ config: t.config, database: t.database, logger: false });
    await second.ready();
    try {
      await runPushJobs(second);
      await until(() => phone.received.length === 1, 'the notification after the restart');
      expect(shown(phone)[0].body).toBe('Sent before a restart');
    } finally {
      await second.close();
    }
  });
});

describe('a message sent again with its clientMessageId (docs/product.md#offline)', () => {
  it('is stored once and answered the same', async () => {
    const trainer = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user');
    const id = crypto.randomUUID();
    const first = await sendChat(u.token, trainer.id, 'Typed offline', id);
    const again = await sendChat(u.token, trainer.id, 'Typed offline', id);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json().message).toEqual(first.json().message);
    expect(first.json().message.clientMessageId).toBe(id);
    const rows = await t.database.db.select().from(messages).where(eq(messages.clientMessageId, id));
    expect(rows).toHaveLength(1);
    // the same id from the other side of the conversation is that side's own message
    const reply = await sendChat(trainer.token, u.id, 'Reply', id);
    expect(reply.json().message._id).not.toBe(first.json().message._id);
  });

  it('is refused as any message is for a token that ended', async () => {
    const trainer = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user');
    const id = crypto.randomUUID();
    await sendChat(u.token, trainer.id, 'Once', id);
    await t.database.db.execute(sql`update accounts set token_version = token_version + 1 where id = ${u.id}`);
    const again = await sendChat(u.token, trainer.id, 'Once', id);
    expect(again.statusCode).toBe(401);
  });

  it('must be a UUID', async () => {
    const trainer = await createAccount(t, 'trainer');
    const u = await createAccount(t, 'user');
    const res = await sendChat(u.token, trainer.id, 'Hi', 'not-a-uuid');
    expect(res.statusCode).toBe(400);
  });
});
