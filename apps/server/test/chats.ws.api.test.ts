import { eq, sql } from 'drizzle-orm';
import { request } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CHAT_LIMITS, CHAT_MSG, WS_CLOSE, type TChatMessage } from '@spotter/shared';
import { accounts } from '../src/db/schema';
import { announceAccountChanged } from './support/account-events';
import { buildTestApp, createAccount, useTestApp } from './helper';
import { until } from './support/until';
import { ChatSocket } from './ws-client';

const t = await useTestApp();
await t.app.listen({ port: 0, host: '127.0.0.1' });
const address = t.app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const send = async (message: string, recipientId: string, token: string): Promise<TChatMessage> => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/chats',
    payload: { message, recipientId },
    headers: { authorization: token },
  });
  expect(res.statusCode).toBe(201);
  return res.json().message;
};

const user = await createAccount(t, 'user', { firstName: 'Sara', lastName: 'Nabil' });
const trainer = await createAccount(t, 'trainer', { firstName: 'Karim', lastName: 'Coach' });
const bystander = await createAccount(t, 'user', { firstName: 'Other', lastName: 'Person' });

describe('/api/ws authentication', () => {
  it('answers ready to an auth frame with a raw or a Bearer token, and pong to ping', async () => {
    const raw = await ChatSocket.open(base, user.token);
    const bearer = await ChatSocket.open(base, `Bearer ${trainer.token}`);
    raw.send({ type: 'ping' });
    expect(await raw.next((f) => f.type === 'pong')).toEqual({ type: 'pong' });
    bearer.send({ type: 'ping' });
    await bearer.next((f) => f.type === 'pong');
    await Promise.all([raw.close(), bearer.close()]);
  });

  it.each([
    ['a forged token', { type: 'auth', token: 'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6IngifQ.bad' }],
    ['an empty token', { type: 'auth', token: '' }],
    ['a first frame that is not auth', { type: 'ping' }],
    ['a first frame that is not JSON', 'hello'],
  ])('closes with 4401 on %s', async (_name, frame) => {
    const s = await ChatSocket.open(base);
    s.send(frame);
    expect(await s.closeCode()).toBe(WS_CLOSE.unauthorized);
    expect(s.frames.some((f) => f.type === 'ready')).toBe(false);
  });

  it('never takes the token from the URL', async () => {
    const s = await ChatSocket.open(
      base,
      undefined,
      `/api/ws?token=${encodeURIComponent(user.token)}&authorization=${encodeURIComponent(user.token)}`,
    );
    s.send({ type: 'ping' });
    expect(await s.closeCode()).toBe(WS_CLOSE.unauthorized);
    expect(s.frames).toEqual([]);
  });

  it('refuses a token whose password changed since it was issued', async () => {
    const who = await createAccount(t, 'user');
    await t.database.db
      .update(accounts)
      .set({ tokenVersion: sql`${accounts.tokenVersion} + 1` })
      .where(eq(accounts.id, who.id));
    const s = await ChatSocket.open(base);
    s.send({ type: 'auth', token: who.token });
    expect(await s.closeCode()).toBe(WS_CLOSE.unauthorized);
  });

  it(`limits an account to ${CHAT_LIMITS.socketsPerAccount} sockets`, async () => {
    const many = await createAccount(t, 'user');
    const open = await Promise.all(
      Array.from({ length: CHAT_LIMITS.socketsPerAccount }, () => ChatSocket.open(base, many.token)),
    );
    const extra = await ChatSocket.open(base);
    extra.send({ type: 'auth', token: many.token });
    expect(await extra.closeCode()).toBe(WS_CLOSE.tooManySockets);
    await open[0].close();
    // a closed socket frees its place
    const again = await ChatSocket.open(base, many.token);
    await Promise.all([...open.slice(1), again].map((s) => s.close()));
  });
});

describe('/api/ws handshake', () => {
  /** The HTTP status a WebSocket handshake at `path` is answered with (101 once upgraded). */
  const handshake = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${base.replace('http', 'ws')}${path}`);
      ws.on('upgrade', () => {
        resolve(101);
        ws.terminate();
      });
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        ws.terminate();
      });
      ws.on('error', (err) => (err.message.includes('Unexpected server response') ? undefined : reject(err)));
    });

  it('upgrades /api/ws only, with or without a query or a trailing slash; any other path is answered 404', async () => {
    expect(await handshake('/api/ws')).toBe(101);
    expect(await handshake('/api/ws?v=1')).toBe(101);
    expect(await handshake('/api/ws/')).toBe(101);
    for (const path of ['/api/wss', '/api/ws/x', '/ws', '/api/chats', '/api/nope', '/']) expect(await handshake(path)).toBe(404);
  });

  const port = Number(new URL(base).port);
  const upgradeRequest = (path: string) =>
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
    `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`;

  it('survives clients that reset a refused upgrade, and closes a refused socket whose client stays', async () => {
    // resetting before the 404 is written made it an unhandled socket error, which ends the process
    for (let i = 0; i < 20; i++) {
      const s = connect(port, '127.0.0.1');
      s.on('error', () => {});
      await new Promise<void>((resolve) => s.once('connect', () => resolve()));
      s.write(upgradeRequest('/api/nope'));
      s.resetAndDestroy();
    }
    // a client that reads the 404 and never closes its side: the server closes the socket anyway
    const serverSide = new Promise<Duplex>((resolve) => t.app.server.once('upgrade', (_req, socket: Duplex) => resolve(socket)));
    const stays = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let answer = '';
    stays.on('data', (d) => (answer += d));
    const ended = new Promise<void>((resolve) => stays.once('end', () => resolve()));
    stays.write(upgradeRequest('/api/nope'));
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    const socket = await serverSide;
    await until(() => socket.destroyed, 'the server to close the refused socket');
    stays.destroy();
    const s = await ChatSocket.open(base, user.token);
    await s.close();
  });

  it('answers a plain GET on /api/ws with 404 and says to open it as a WebSocket', async () => {
    const res = await fetch(`${base}/api/ws`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toBe(CHAT_MSG.wsOnly);
  });

  it('answers a handshake it cannot accept with 400 and keeps serving', async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${base}/api/ws`, {
        headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'short' },
      });
      req.on('response', (r) => {
        let body = '';
        r.on('data', (d) => (body += d));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
      });
      req.on('upgrade', () => reject(new Error('upgraded with a bad key')));
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(400);
    const s = await ChatSocket.open(base, user.token);
    await s.close();
  });
});

describe('/api/ws frames', () => {
  it('answers a bad frame with an error frame and keeps the connection; closes after too many', async () => {
    const s = await ChatSocket.open(base, user.token);
    s.send('not json');
    expect(await s.next((f) => f.type === 'error')).toEqual({ type: 'error', message: CHAT_MSG.wsBadFrame });
    s.send({ type: 'shout', text: 'hi' });
    await s.next((f) => f.type === 'error');
    s.send({ type: 'auth', token: user.token });
    expect(await s.next((f) => f.type === 'error')).toEqual({ type: 'error', message: CHAT_MSG.wsAlreadyAuthenticated });
    s.send({ type: 'ping' });
    await s.next((f) => f.type === 'pong');
    for (let i = 3; i < CHAT_LIMITS.badFramesMax; i++) s.send({ bad: i });
    expect(await s.closeCode()).toBe(WS_CLOSE.badFrames);
  });

  it('closes a socket that sends a frame over the size limit', async () => {
    const s = await ChatSocket.open(base, user.token);
    s.send({ type: 'ping', pad: 'x'.repeat(CHAT_LIMITS.frameMaxBytes) });
    expect(await s.closeCode()).toBe(1009);
  });
});

describe('/api/ws delivery', () => {
  it('pushes a new message to both participants, on every device, and to nobody else', async () => {
    const phone = await ChatSocket.open(base, user.token);
    const laptop = await ChatSocket.open(base, user.token);
    const coach = await ChatSocket.open(base, trainer.token);
    const stranger = await ChatSocket.open(base, bystander.token);

    const sent = await send('Can we train on Monday?', trainer.id, user.token);
    expect(await phone.message(sent.message)).toEqual(sent);
    expect(await laptop.message(sent.message)).toEqual(sent);
    expect(await coach.message(sent.message)).toEqual(sent);

    const reply = await send('Yes, 7 am', user.id, trainer.token);
    for (const s of [phone, laptop, coach]) expect(await s.message(reply.message)).toEqual(reply);
    expect(reply).toMatchObject({ senderId: trainer.id, recipientId: user.id, senderFirstName: 'Karim' });

    // the stranger's first push is one meant for them, not the conversation above
    const own = await send('Hello stranger', bystander.id, trainer.token);
    expect(await stranger.next((f) => f.type === 'message')).toEqual({ type: 'message', message: own });
    await Promise.all([phone, laptop, coach, stranger].map((s) => s.close()));
  });

  it('tells both sides when a conversation is read', async () => {
    const coach = await ChatSocket.open(base, trainer.token);
    const reader = await ChatSocket.open(base, user.token);
    await send('Did you see this?', user.id, trainer.token);
    await reader.message('Did you see this?');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/conversations/${trainer.id}/read`,
      headers: { authorization: user.token },
    });
    expect(res.statusCode).toBe(200);
    for (const s of [coach, reader]) {
      expect(await s.next((f) => f.type === 'read')).toEqual({
        type: 'read',
        userId: user.id,
        trainerId: trainer.id,
        readerId: user.id,
        readAt: expect.any(String),
      });
    }
    await Promise.all([coach.close(), reader.close()]);
  });

  it('a client that reconnects fetches what it missed with after, and sees each message once', async () => {
    const seen = new Map<string, TChatMessage>();
    const first = await ChatSocket.open(base, user.token);
    const m1 = await send('before the tunnel', user.id, trainer.token);
    seen.set(m1._id, await first.message(m1.message));
    await first.close();

    const m2 = await send('in the tunnel', user.id, trainer.token);
    const m3 = await send('still in the tunnel', user.id, trainer.token);

    // reconnect first, then catch up: whatever commits from now on arrives as a push
    const second = await ChatSocket.open(base, user.token);
    const res = await t.app.inject({ url: `/api/chats/${trainer.id}?after=${m1._id}`, headers: { authorization: user.token } });
    const missed: TChatMessage[] = res.json().allMessages;
    expect(missed.map((m) => m._id)).toEqual([m2._id, m3._id]);
    for (const m of missed) {
      expect(seen.has(m._id)).toBe(false);
      seen.set(m._id, m);
    }
    const m4 = await send('out of the tunnel', user.id, trainer.token);
    const pushed = await second.message(m4.message);
    expect(seen.has(pushed._id)).toBe(false);
    expect(second.frames.filter((f) => f.type === 'message')).toEqual([]);
    await second.close();
  });
});

describe('/api/ws revocation', () => {
  /**
   * Account notifications are handled one after another: once a revoked throwaway account's socket
   * has closed, every notification sent before it has been handled.
   */
  const handledAccountNotifications = async () => {
    const probe = await createAccount(t, 'user');
    const s = await ChatSocket.open(base, probe.token);
    await t.database.db
      .update(accounts)
      .set({ tokenVersion: sql`${accounts.tokenVersion} + 1` })
      .where(eq(accounts.id, probe.id));
    await announceAccountChanged(t.database.db, probe.id);
    expect(await s.closeCode()).toBe(WS_CLOSE.unauthorized);
  };

  it('closes the sockets of an account whose password changed, on the account notification', async () => {
    const who = await createAccount(t, 'user');
    const a = await ChatSocket.open(base, who.token);
    const b = await ChatSocket.open(base, who.token);
    const unrelated = await ChatSocket.open(base, bystander.token);

    // a notification without a change keeps the sockets
    await announceAccountChanged(t.database.db, who.id);
    await handledAccountNotifications();
    a.send({ type: 'ping' });
    await a.next((f) => f.type === 'pong');

    await t.database.db.transaction(async (tx) => {
      await tx
        .update(accounts)
        .set({ tokenVersion: sql`${accounts.tokenVersion} + 1` })
        .where(eq(accounts.id, who.id));
      await announceAccountChanged(tx, who.id);
    });
    expect(await a.closeCode()).toBe(WS_CLOSE.unauthorized);
    expect(await b.closeCode()).toBe(WS_CLOSE.unauthorized);
    unrelated.send({ type: 'ping' });
    await unrelated.next((f) => f.type === 'pong');
    await unrelated.close();
  });

  it('closes the sockets of a deleted account', async () => {
    const who = await createAccount(t, 'trainer');
    const s = await ChatSocket.open(base, who.token);
    await t.database.db.update(accounts).set({ deletedAt: new Date() }).where(eq(accounts.id, who.id));
    await announceAccountChanged(t.database.db, who.id);
    expect(await s.closeCode()).toBe(WS_CLOSE.unauthorized);
  });

  it('closes every socket of an account when its password is changed in settings, and only those', async () => {
    const who = await createAccount(t, 'user');
    const a = await ChatSocket.open(base, who.token);
    const b = await ChatSocket.open(base, who.token);
    const unrelated = await ChatSocket.open(base, bystander.token);
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/password',
      headers: { authorization: who.token },
      payload: { oldPassword: who.password, newPassword: 'Newpass12', confirmPassword: 'Newpass12' },
    });
    expect(res.statusCode).toBe(200);
    expect(await a.closeCode()).toBe(WS_CLOSE.unauthorized);
    expect(await b.closeCode()).toBe(WS_CLOSE.unauthorized);
    unrelated.send({ type: 'ping' });
    await unrelated.next((f) => f.type === 'pong');
    await unrelated.close();
  });

  it('closes the sockets of an account deleted in settings', async () => {
    const who = await createAccount(t, 'trainer');
    const s = await ChatSocket.open(base, who.token);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/trainer',
      headers: { authorization: who.token },
      payload: { password: who.password },
    });
    expect(res.statusCode).toBe(200);
    expect(await s.closeCode()).toBe(WS_CLOSE.unauthorized);
  });
});

describe('/api/ws on shutdown', () => {
  it('closes every socket with 1012 (service restart) so clients reconnect elsewhere', async () => {
    const other = await buildTestApp();
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    const at = other.app.server.address();
    const otherBase = `http://127.0.0.1:${typeof at === 'object' && at ? at.port : 0}`;
    const who = await createAccount(other, 'user');
    const s = await ChatSocket.open(otherBase, who.token);
    const closing = other.close();
    expect(await s.closeCode()).toBe(WS_CLOSE.restart);
    await closing;
  });
});
