import { connect, type Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createAccount, useTestApp } from './helper';
import { ChatSocket } from './ws-client';

/**
 * Slow clients (slowloris): sockets that trickle their headers or body, say nothing, or sit on a
 * keep-alive connection are closed by the server after short deadlines set for this test, while
 * real requests, a steady slow upload and a WebSocket carry on. See docs/decisions/003-rate-limits.md.
 */
const t = await useTestApp({
  HEADERS_TIMEOUT_MS: '1000',
  REQUEST_TIMEOUT_MS: '4000',
  IDLE_TIMEOUT_MS: '2000',
  KEEP_ALIVE_TIMEOUT_MS: '1000',
});
await t.app.listen({ port: 0, host: '127.0.0.1' });
const address = t.app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const base = `http://127.0.0.1:${port}`;

type Slow = { kind: string; socket: Socket; received: string; closed: Promise<void> };

/** A raw socket that records what the server sends and resolves `closed` when the server hangs up. */
async function openSlow(kind: string, first: string): Promise<Slow> {
  const socket = connect(port, '127.0.0.1');
  const slow: Slow = { kind, socket, received: '', closed: new Promise((resolve) => socket.once('close', () => resolve())) };
  socket.on('data', (d) => (slow.received += d.toString('latin1')));
  socket.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  if (first) socket.write(first);
  return slow;
}

const SLOW_BODY_BYTES = 100_000;
const KINDS = {
  /** headers one byte at a time, never finished */
  headers: { count: 150, first: 'GET /api/health HTTP/1.1\r\nHost: spotter\r\nX-Slow: ', drip: true },
  /** a body announced and never finished */
  body: {
    count: 50,
    first: `POST /api/newsletter HTTP/1.1\r\nHost: spotter\r\nContent-Type: application/json\r\nContent-Length: ${SLOW_BODY_BYTES}\r\n\r\n{"email":"`,
    drip: true,
  },
  /** connects and says nothing */
  silent: { count: 50, first: '', drip: false },
  /** one request answered, then the keep-alive connection sits idle */
  keepAlive: { count: 50, first: 'GET /api/health HTTP/1.1\r\nHost: spotter\r\n\r\n', drip: false },
};

describe('slow clients', () => {
  it('300 slowloris sockets starve no real request, and the server closes every one of them', { timeout: 90_000 }, async () => {
    const account = await createAccount(t, 'user');
    // a WebSocket opened before: it must outlive every deadline below
    const chat = await ChatSocket.open(base, account.token);

    const slow: Slow[] = [];
    for (const [kind, k] of Object.entries(KINDS)) for (let i = 0; i < k.count; i++) slow.push(await openSlow(kind, k.first));
    expect(slow).toHaveLength(300);
    let open = slow.length;
    for (const s of slow) void s.closed.then(() => open--);
    const drip = setInterval(() => {
      for (const s of slow) if (KINDS[s.kind as keyof typeof KINDS].drip && !s.socket.destroyed) s.socket.write('a');
    }, 250);

    try {
      // real requests answer while the slow sockets are still there
      const health = await fetch(`${base}/api/health`);
      expect(health.status).toBe(200);
      const login = await fetch(`${base}/api/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: account.email, password: account.password }),
      });
      expect(login.status).toBe(200);
      expect(typeof ((await login.json()) as { token?: unknown }).token).toBe('string');
      expect(open).toBeGreaterThan(0);

      // a steady slow upload: its body takes longer than the headers deadline, and still arrives
      const body = JSON.stringify({ email: 'steady.slow.upload@example.com' });
      const steady = await openSlow(
        'steady',
        `POST /api/newsletter HTTP/1.1\r\nHost: spotter\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      );
      for (const part of body.match(/.{1,8}/g)!) {
        steady.socket.write(part);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      await steady.closed;
      expect(steady.received).toMatch(/^HTTP\/1\.1 200 /);

      // every slow socket is closed by the server (this test never closes them)
      await Promise.all(slow.map((s) => s.closed));
      expect(open).toBe(0);
      for (const s of slow.filter((x) => x.kind === 'headers')) expect(s.received).toMatch(/^HTTP\/1\.1 408 /);
      for (const s of slow.filter((x) => x.kind === 'keepAlive')) expect(s.received).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      clearInterval(drip);
      for (const s of slow) s.socket.destroy();
    }

    // the WebSocket, idle past every deadline, still answers
    chat.send({ type: 'ping' });
    expect(await chat.next((f) => f.type === 'pong')).toEqual({ type: 'pong' });
    await chat.close();
  });

  it('refuses a headers deadline longer than the whole request’s, and says which', () => {
    const env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'cfg-')), HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '4000' };
    expect(() => loadConfig(env)).toThrow(/HEADERS_TIMEOUT_MS=5000: must not be longer than REQUEST_TIMEOUT_MS \(4000\)/);
    expect(loadConfig({ ...env, REQUEST_TIMEOUT_MS: '5000' }).timeouts).toEqual({
      headersMs: 5000,
      requestMs: 5000,
      idleMs: 60_000,
      keepAliveMs: 72_000,
    });
  });
});
