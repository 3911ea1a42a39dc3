import { createPrivateKey, sign } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush, { WebPushError, type RequestOptions } from 'web-push';
import { startPushService, type PushDevice, type PushService } from './support/push-service';
import { until } from './support/until';

// The push stand-in (support/push-service.ts) against the real web-push library: what it accepts,
// decrypts and reads (RFC 8030, RFC 8291, RFC 8292), and what it refuses and how.

let service: PushService;
const vapid = webpush.generateVAPIDKeys();
const SUBJECT = 'mailto:ops@spotter.test';

beforeAll(async () => {
  service = await startPushService();
});
afterAll(async () => {
  await service.close();
});

const options = (extra: RequestOptions = {}): RequestOptions => ({
  vapidDetails: { subject: SUBJECT, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
  TTL: 60,
  timeout: 5_000,
  agent: service.agent,
  ...extra,
});

/** What sendNotification rejected with (a WebPushError for an answer outside 2xx). */
const failure = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => {
      throw new Error('expected the push to be refused');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebPushError);
  return err as WebPushError;
};

/** A raw POST to the stand-in (for requests web-push would never make). */
const post = (url: string, headers: Record<string, string | number>, body?: Buffer) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });

/** web-push's request for this device, sent raw with some headers changed (undefined drops one). */
const sendChanged = (
  device: PushDevice,
  payload: string,
  changes: Record<string, string | undefined>,
  extra: RequestOptions = {},
) => {
  const details = webpush.generateRequestDetails(device.subscription, payload, options(extra));
  const headers: Record<string, string | number> = { ...(details.headers as Record<string, string | number>) };
  for (const [name, value] of Object.entries(changes)) {
    delete headers[name];
    if (value !== undefined) headers[name] = value;
  }
  return post(device.subscription.endpoint, headers, details.body ?? undefined);
};

/** An ES256 JWT signed with a web-push VAPID key pair, with whatever claims a test wants. */
const vapidJwt = (keys: { publicKey: string; privateKey: string }, claims: Record<string, unknown>) => {
  const point = Buffer.from(keys.publicKey, 'base64url');
  const key = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: keys.privateKey,
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const input = [{ typ: 'JWT', alg: 'ES256' }, claims]
    .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
    .join('.');
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
};

const rejectedFor = (device: PushDevice) => service.rejected().filter((r) => device.subscription.endpoint.endsWith(r.path));

describe('push service stand-in', () => {
  it('accepts what web-push sends, decrypts the payload and reads TTL, Urgency, Topic and the VAPID claims', async () => {
    const device = service.device();
    expect(device.subscription.endpoint).toMatch(new RegExp(`^${service.url}/push/[A-Za-z0-9_-]+$`));
    expect(service.url).toBe(`http://${service.host}`);
    expect(Buffer.from(device.subscription.keys.p256dh, 'base64url')).toHaveLength(65);
    expect(Buffer.from(device.subscription.keys.auth, 'base64url')).toHaveLength(16);

    const payload = JSON.stringify({
      kind: 'message',
      title: 'Ana',
      body: 'See you at 7 — ok? ✓',
      url: '/chats/1',
      tag: 'chat-1',
    });
    const before = Math.floor(Date.now() / 1000);
    const result = await webpush.sendNotification(
      device.subscription,
      payload,
      options({ TTL: 120, urgency: 'high', topic: 'chat-1' }),
    );

    expect(result.statusCode).toBe(201);
    expect(result.headers.location).toMatch(new RegExp(`^${service.url}/message/`));
    expect(device.received).toHaveLength(1);
    const push = device.received[0];
    expect(push).toMatchObject({
      payload,
      ttl: 120,
      urgency: 'high',
      topic: 'chat-1',
      path: new URL(device.subscription.endpoint).pathname,
      vapid: { sub: SUBJECT, aud: service.url, publicKey: vapid.publicKey },
    });
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    // web-push signs for 12 hours; RFC 8292 allows at most 24
    expect(push.vapid.exp).toBeGreaterThan(before);
    expect(push.vapid.exp).toBeLessThanOrEqual(before + 24 * 60 * 60 + 1);
    expect(service.all()).toContainEqual(push);

    // web-push's defaults: Urgency normal, no Topic; a push without a payload is allowed too (RFC 8030 §5)
    await webpush.sendNotification(device.subscription, 'second', { ...options(), TTL: 0 });
    await webpush.sendNotification(device.subscription, null, options());
    expect(device.received.slice(1).map(({ payload: p, ttl, urgency, topic }) => ({ p, ttl, urgency, topic }))).toEqual([
      { p: 'second', ttl: 0, urgency: 'normal', topic: undefined },
      { p: '', ttl: 60, urgency: 'normal', topic: undefined },
    ]);
    expect(rejectedFor(device)).toEqual([]);
  });

  it('refuses a VAPID JWT not signed by the key in k, and another key on a restricted subscription (403)', async () => {
    const device = service.device();
    const other = webpush.generateVAPIDKeys();
    // k says one key, the JWT is signed with another's private key
    const forged = { subject: SUBJECT, publicKey: vapid.publicKey, privateKey: other.privateKey };
    expect(
      (await failure(webpush.sendNotification(device.subscription, 'forged', options({ vapidDetails: forged })))).statusCode,
    ).toBe(403);

    const restricted = service.device({ applicationServerKey: vapid.publicKey });
    const otherDetails = { subject: SUBJECT, ...other };
    const err = await failure(
      webpush.sendNotification(restricted.subscription, 'other key', options({ vapidDetails: otherDetails })),
    );
    expect(err.statusCode).toBe(403);
    await webpush.sendNotification(restricted.subscription, 'right key', options());

    expect(device.received).toEqual([]);
    expect(restricted.received.map((p) => p.payload)).toEqual(['right key']);
    expect(rejectedFor(device)).toEqual([{ path: expect.any(String), status: 403, reason: expect.stringMatching(/signature/) }]);
    expect(rejectedFor(restricted)).toEqual([
      { path: expect.any(String), status: 403, reason: expect.stringMatching(/restricted/) },
    ]);
  });

  it('refuses a missing Authorization (401), a wrong aud, an expired or too distant exp and a missing sub (403)', async () => {
    const device = service.device();
    const now = Math.floor(Date.now() / 1000);
    const withJwt = (claims: Record<string, unknown>) => `vapid t=${vapidJwt(vapid, claims)}, k=${vapid.publicKey}`;

    const missing = await sendChanged(device, 'x', { Authorization: undefined });
    expect(missing.status).toBe(401);
    const cases = [
      { aud: 'https://push.example.test', exp: now + 600, sub: SUBJECT },
      { aud: service.url, exp: now - 1, sub: SUBJECT },
      { aud: service.url, exp: now + 25 * 60 * 60, sub: SUBJECT },
      { aud: service.url, exp: now + 600 },
      { aud: service.url, exp: now + 600, sub: 'http://spotter.test/contact' },
    ];
    for (const claims of cases) {
      expect((await sendChanged(device, 'x', { Authorization: withJwt(claims) })).status, JSON.stringify(claims)).toBe(403);
    }
    // the helper's JWT itself is good: the same request with valid claims is accepted
    expect(
      (await sendChanged(device, 'ok', { Authorization: withJwt({ aud: service.url, exp: now + 600, sub: SUBJECT }) })).status,
    ).toBe(201);

    expect(device.received.map((p) => p.payload)).toEqual(['ok']);
    expect(rejectedFor(device).map((r) => [r.status, r.reason])).toEqual([
      [401, expect.stringMatching(/no vapid Authorization/)],
      [403, expect.stringMatching(/aud/)],
      [403, expect.stringMatching(/expired/)],
      [403, expect.stringMatching(/24 hours/)],
      [403, expect.stringMatching(/sub/)],
      [403, expect.stringMatching(/sub/)],
    ]);
  });

  it('refuses a body not encrypted for the device (400) and a content coding other than aes128gcm (415)', async () => {
    const device = service.device();
    const stranger = service.device();
    // encrypted for the stranger's keys, sent to this device's endpoint
    const misdirected = { ...device.subscription, keys: stranger.subscription.keys };
    expect((await failure(webpush.sendNotification(misdirected, 'not for you', options()))).statusCode).toBe(400);
    const aesgcm = await failure(
      webpush.sendNotification(device.subscription, 'old coding', options({ contentEncoding: 'aesgcm' })),
    );
    expect(aesgcm.statusCode).toBe(415);
    // a body with one byte changed fails its tag
    const details = webpush.generateRequestDetails(device.subscription, 'tampered', options());
    const body = Buffer.from(details.body as Buffer);
    body[body.length - 20] ^= 1;
    expect((await post(device.subscription.endpoint, details.headers as Record<string, string>, body)).status).toBe(400);

    expect(device.received).toEqual([]);
    expect(stranger.received).toEqual([]);
    expect(rejectedFor(device).map((r) => [r.status, r.reason])).toEqual([
      [400, expect.stringMatching(/does not decrypt/)],
      [415, expect.stringMatching(/aes128gcm/)],
      [400, expect.stringMatching(/does not decrypt/)],
    ]);
  });

  it('refuses a missing or malformed TTL, an unknown Urgency and a bad Topic (400)', async () => {
    const device = service.device();
    expect((await sendChanged(device, 'x', { TTL: undefined })).status).toBe(400);
    expect((await sendChanged(device, 'x', { TTL: '-5' })).status).toBe(400);
    expect((await sendChanged(device, 'x', { Urgency: 'urgent' })).status).toBe(400);
    expect((await sendChanged(device, 'x', { Topic: 'has spaces' })).status).toBe(400);
    expect((await sendChanged(device, 'x', { Topic: 'a'.repeat(33) })).status).toBe(400);
    expect(device.received).toEqual([]);
    expect(rejectedFor(device).map((r) => r.reason)).toEqual([
      expect.stringMatching(/TTL header is missing/),
      expect.stringMatching(/TTL "-5"/),
      expect.stringMatching(/Urgency "urgent"/),
      expect.stringMatching(/Topic/),
      expect.stringMatching(/Topic/),
    ]);
  });

  it('answers 404 for an unknown endpoint, and 404 or 410 for a gone device from then on', async () => {
    const unknown = { ...service.device().subscription, endpoint: `${service.url}/push/no-such-subscription` };
    expect((await failure(webpush.sendNotification(unknown, 'x', options()))).statusCode).toBe(404);

    const expired = service.device();
    await webpush.sendNotification(expired.subscription, 'before', options());
    service.gone(expired, 410);
    for (const attempt of ['after', 'again']) {
      const err = await failure(webpush.sendNotification(expired.subscription, attempt, options()));
      expect(err.statusCode).toBe(410);
      expect(err.endpoint).toBe(expired.subscription.endpoint);
    }
    expect(expired.received.map((p) => p.payload)).toEqual(['before']);

    // a scripted 404 is a gone device too
    const dropped = service.device();
    service.failNext(dropped, 404);
    expect((await failure(webpush.sendNotification(dropped.subscription, 'x', options()))).statusCode).toBe(404);
    expect((await failure(webpush.sendNotification(dropped.subscription, 'y', options()))).statusCode).toBe(404);
    expect(dropped.received).toEqual([]);
  });

  it('fails the next deliveries as told (500, 429), then delivers', async () => {
    const device = service.device();
    service.failNext(device, 500);
    service.failNext(device, 429, 2);
    const statuses: number[] = [];
    for (;;) {
      try {
        await webpush.sendNotification(device.subscription, 'eventually', options());
        break;
      } catch (err) {
        statuses.push((err as WebPushError).statusCode);
      }
    }
    expect(statuses).toEqual([500, 429, 429]);
    expect(device.received.map((p) => p.payload)).toEqual(['eventually']);
    expect(rejectedFor(device).map((r) => r.status)).toEqual([500, 429, 429]);
  });

  it('answers 413 past 4096 octets, and cuts a hostile body without reading it', async () => {
    const device = service.device();
    // 3993 octets of plaintext fill 4096 octets exactly (RFC 8291 §4: 86 octets of header, 16 of tag, 1 delimiter)
    await webpush.sendNotification(device.subscription, 'a'.repeat(3993), options());
    expect((await failure(webpush.sendNotification(device.subscription, 'a'.repeat(3994), options()))).statusCode).toBe(413);
    expect(device.received.map((p) => p.payload.length)).toEqual([3993]);

    // a declared 10 MB body is answered at once: the stand-in does not wait for it
    const path = new URL(device.subscription.endpoint).pathname;
    const answered = await new Promise<number>((resolve, reject) => {
      const req = request(
        device.subscription.endpoint,
        { method: 'POST', headers: { 'Content-Length': 10_000_000, TTL: 60 } },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.write(Buffer.alloc(1024));
    });
    expect(answered).toBe(413);

    // an undeclared (chunked) one is cut once it passes the limit; the sender sees a 413 or a reset
    const before = service.rejected().length;
    await new Promise<void>((resolve) => {
      const req = request(device.subscription.endpoint, { method: 'POST', headers: { TTL: 60 } }, () => resolve());
      req.on('error', () => resolve());
      req.write(Buffer.alloc(64 * 1024));
    });
    await until(() => service.rejected().length > before, 'the chunked body to be refused');
    expect(service.rejected().slice(-2)).toEqual([
      { path, status: 413, reason: expect.stringMatching(/4096/) },
      { path, status: 413, reason: expect.stringMatching(/4096/) },
    ]);
  });

  it('gives an agent that reaches only the stand-in', async () => {
    const elsewhere = { ...service.device().subscription, endpoint: 'https://127.0.0.1:1/push/x' };
    await expect(webpush.sendNotification(elsewhere, 'x', options())).rejects.toThrow(/only reaches/);
  });
});
