import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_CLOSE } from '@spotter/shared';
import { buildTestApp, createAccount, useTestApp, type TestApp } from './helper';
import { until } from './support/until';
import { ChatSocket } from './ws-client';

/**
 * Chat sockets that never authenticate, and pings (docs/decisions/034-socket-and-sign-in-limits.md):
 * capped per client address and in all before the handshake, closed at the auth deadline, and a
 * socket's pings beyond its budget close it with 1008 instead of being answered.
 */
const PER_IP = 3;
const TOTAL = 5;
const PINGS = 20;
const t = await useTestApp({
  WS_UNAUTHENTICATED_PER_IP: String(PER_IP),
  WS_UNAUTHENTICATED_MAX: String(TOTAL),
  WS_PINGS_PER_MINUTE: String(PINGS),
  // 127.0.0.1 is a proxy whose X-Forwarded-For names the client; 127.0.0.2 and up are clients themselves
  TRUST_PROXY: '127.0.0.1',
});

const listen = async (app: TestApp) => {
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.app.server.address();
  return `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/ws`;
};
const url = await listen(t);
const httpBase = (wsUrl: string) => wsUrl.replace(/^ws/, 'http').replace(/\/api\/ws$/, '');

/** A handshake from a loopback address (and through the proxy, for a forwarded client): its status, and the socket if upgraded. */
const handshake = (from: { localAddress: string; forwardedFor?: string }, at = url) =>
  new Promise<{ status: number; ws?: WebSocket }>((resolve, reject) => {
    const ws = new WebSocket(at, {
      localAddress: from.localAddress,
      headers: from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {},
    });
    ws.once('open', () => resolve({ status: 101, ws }));
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.on('error', (err) => (err.message.includes('Unexpected server response') ? undefined : reject(err)));
  });

const openSockets = async () => {
  const res = await t.app.inject({ url: '/api/metrics' });
  return Number(/^spotter_websockets_open (\d+)$/m.exec(res.body)?.[1]);
};
/** Closes the sockets and waits until the server has let go of every one. */
const closeAll = async (sockets: Array<WebSocket | undefined>) => {
  for (const ws of sockets) ws?.terminate();
  await until(async () => (await openSockets()) === 0, 'the server to drop the closed sockets');
};

describe('/api/ws sockets that have not authenticated', () => {
  it(`refuses a client address its ${PER_IP + 1}th, with 429, and takes it again once one authenticates`, async () => {
    const client = { localAddress: '127.0.0.2' };
    const open = await Promise.all(Array.from({ length: PER_IP }, () => handshake(client)));
    expect(open.map((h) => h.status)).toEqual(Array(PER_IP).fill(101));
    expect((await handshake(client)).status).toBe(429);
    // another address is not affected
    const other = await handshake({ localAddress: '127.0.0.3' });
    expect(other.status).toBe(101);

    const who = await createAccount(t, 'user');
    open[0].ws!.send(JSON.stringify({ type: 'auth', token: who.token }));
    await new Promise<void>((resolve) => open[0].ws!.once('message', () => resolve()));
    const again = await handshake(client);
    expect(again.status).toBe(101);
    expect((await handshake(client)).status).toBe(429);
    await closeAll([...open, other, again].map((h) => h.ws));
    // a closed socket frees its place
    const later = await handshake(client);
    expect(later.status).toBe(101);
    await closeAll([later.ws]);
  });

  it(`counts clients behind a trusted proxy by X-Forwarded-For, and refuses the ${TOTAL + 1}th in all with 503`, async () => {
    const proxy = (client: string) => ({ localAddress: '127.0.0.1', forwardedFor: `198.51.100.9, ${client}` });
    const first = await Promise.all(Array.from({ length: PER_IP }, () => handshake(proxy('203.0.113.1'))));
    expect(first.map((h) => h.status)).toEqual(Array(PER_IP).fill(101));
    expect((await handshake(proxy('203.0.113.1'))).status).toBe(429);
    const second = await Promise.all(Array.from({ length: TOTAL - PER_IP }, () => handshake(proxy('203.0.113.2'))));
    expect(second.map((h) => h.status)).toEqual(Array(TOTAL - PER_IP).fill(101));
    expect((await handshake(proxy('203.0.113.3'))).status).toBe(503);
    expect((await handshake({ localAddress: '127.0.0.4' })).status).toBe(503);
    await closeAll([...first, ...second].map((h) => h.ws));
    const freed = await handshake(proxy('203.0.113.3'));
    expect(freed.status).toBe(101);
    await closeAll([freed.ws]);
  });

  it('counts an IPv6 client as its /64', async () => {
    const proxy = (client: string) => ({ localAddress: '127.0.0.1', forwardedFor: client });
    const open = [];
    for (let i = 1; i <= PER_IP; i++) open.push(await handshake(proxy(`2001:db8:7:8:${i}::1`)));
    expect(open.map((h) => h.status)).toEqual(Array(PER_IP).fill(101));
    expect((await handshake(proxy('2001:db8:7:8:ffff::2'))).status).toBe(429);
    const next = await handshake(proxy('2001:db8:7:9::1'));
    expect(next.status).toBe(101);
    await closeAll([...open, next].map((h) => h.ws));
  });

  it('closes a socket that has not authenticated by the deadline with 4401, pings or not', async () => {
    const quick = await buildTestApp({ WS_AUTH_TIMEOUT_MS: '300' });
    try {
      const at = await listen(quick);
      const started = Date.now();
      const silent = await ChatSocket.open(httpBase(at));
      const pinging = await ChatSocket.open(httpBase(at));
      pinging.ws.ping();
      await new Promise<void>((resolve) => pinging.ws.once('pong', () => resolve()));
      expect(await silent.closed).toEqual({ code: WS_CLOSE.unauthorized, reason: 'authentication timeout' });
      expect(await pinging.closed).toEqual({ code: WS_CLOSE.unauthorized, reason: 'authentication timeout' });
      // the configured deadline, not the default 10 s
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      await quick.close();
    }
  });
});

describe('/api/ws pings', () => {
  const base = httpBase(url);

  it(`answers ${PINGS} pings of either kind a minute, and closes the socket with 1008 on the next`, async () => {
    const who = await createAccount(t, 'user');
    const s = await ChatSocket.open(base, who.token);
    let pongs = 0;
    s.ws.on('pong', () => pongs++);
    for (let i = 0; i < PINGS / 2; i++) {
      s.ws.ping();
      s.send({ type: 'ping' });
    }
    await until(() => pongs === PINGS / 2, 'the control pongs');
    for (let i = 0; i < PINGS / 2; i++) await s.next((f) => f.type === 'pong');
    s.send({ type: 'ping' });
    expect(await s.closed).toEqual({ code: WS_CLOSE.tooManyPings, reason: 'too many pings' });
    expect(s.frames.filter((f) => f.type === 'pong')).toEqual([]);
  });

  it('counts pings before authentication too', async () => {
    const s = await ChatSocket.open(base);
    let pongs = 0;
    s.ws.on('pong', () => pongs++);
    for (let i = 0; i <= PINGS; i++) s.ws.ping();
    expect(await s.closed).toEqual({ code: WS_CLOSE.tooManyPings, reason: 'too many pings' });
    expect(pongs).toBe(PINGS);
  });

  it('closes a socket that pings steadily once it is over budget, while other sockets and requests are served', async () => {
    const pinger = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    const calm = await ChatSocket.open(base, other.token);
    const s = await ChatSocket.open(base, pinger.token);
    let pongs = 0;
    s.ws.on('pong', () => pongs++);
    let closed = false;
    void s.closed.then(() => (closed = true));
    // bursts the pongs of which are awaited: never enough unanswered ones for ws to give up on the socket itself
    for (let burst = 1; burst <= 50 && !closed; burst++) {
      for (let i = 0; i < 10; i++) s.ws.ping();
      await until(() => closed || pongs >= Math.min(burst * 10, PINGS), 'the pongs of a burst');
    }
    expect(await s.closed).toEqual({ code: WS_CLOSE.tooManyPings, reason: 'too many pings' });
    expect(pongs).toBe(PINGS);
    calm.send({ type: 'ping' });
    await calm.next((f) => f.type === 'pong');
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    await calm.close();
  });

  it('cuts off a client that ignores the close and keeps pinging', async () => {
    const { port } = new URL(base);
    const raw = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    raw.on('data', (d: Buffer) => chunks.push(d));
    const ended = new Promise<void>((resolve) => raw.once('close', () => resolve()));
    raw.write(
      `GET /api/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );
    await until(() => Buffer.concat(chunks).includes('\r\n\r\n'), 'the handshake answer');
    expect(Buffer.concat(chunks).toString('latin1')).toMatch(/^HTTP\/1\.1 101 /);
    // empty ping frames, masked with a zero key as a client must; the close is never answered
    const ping = Buffer.from([0x89, 0x80, 0, 0, 0, 0]);
    raw.write(Buffer.concat(Array(10 * PINGS).fill(ping)));
    await ended;
    const received = Buffer.concat(chunks);
    const frames = received.subarray(received.indexOf('\r\n\r\n') + 4);
    const pong = Buffer.from([0x8a, 0x00]);
    const close = Buffer.concat([Buffer.from([0x88, 2 + 'too many pings'.length, 0x03, 0xf0]), Buffer.from('too many pings')]);
    expect(frames).toEqual(Buffer.concat([...Array(PINGS).fill(pong), close]));
  });
});
