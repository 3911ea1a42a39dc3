import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ZErrorResponse } from '@spotter/shared';
import { createFreshPgDatabase } from '../helper';
import { ChatSocket } from '../ws-client';
import { api, demoLogin, killServer, newDataDir, startServer, waitFor, type ServerProcess } from './server-process';
import { startTcpProxy } from './tcp-proxy';

const pgDescribe = process.env.TEST_DATABASE_URL ? describe : describe.skip;

/** `call` answered, and how long it took. */
async function timed<T>(call: () => Promise<T>): Promise<{ ms: number; res: T }> {
  const started = performance.now();
  const res = await call();
  return { ms: performance.now() - started, res };
}

pgDescribe('a PostgreSQL outage', () => {
  const cleanup: Array<() => unknown> = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('is answered 503 quickly while it lasts, and the server recovers on its own', { timeout: 120_000 }, async () => {
    const pg = (await createFreshPgDatabase())!;
    cleanup.push(() => pg.drop());
    const url = new URL(pg.url);
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    cleanup.push(() => proxy.close());
    const dataDir = newDataDir('outage');
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const server: ServerProcess = await startServer({ dataDir, databaseUrl: proxy.through(pg.url) });
    cleanup.push(() => killServer(server));
    const { base } = server;
    const user = await demoLogin(base, 'user', 'user@spotter.test');
    const trainer = await demoLogin(base, 'trainer', 'trainer@spotter.test');
    const inbox = await ChatSocket.open(base, trainer.token);
    cleanup.push(() => inbox.ws.terminate());

    /** What the server answers while the database cannot be reached, each within `withinMs`. */
    const expectUnavailable = async (withinMs: number) => {
      const ready = await timed(() => fetch(`${base}/api/health/ready`));
      expect(ready.res.status).toBe(503);
      expect(ready.ms).toBeLessThan(withinMs);
      const calls = [
        () => api(base, '/api/userData', { token: user.token }),
        () => api(base, '/api/chats', { method: 'POST', token: user.token, body: { recipientId: trainer.id, message: 'lost?' } }),
        () => api(base, '/api/bookings', { token: user.token }),
      ];
      for (const call of calls) {
        const { ms, res } = await timed(call);
        expect(res.status).toBe(503);
        expect(ZErrorResponse.parse(res.body)).toMatchObject({ statusCode: 503, code: 'DATABASE_UNAVAILABLE' });
        expect(ms).toBeLessThan(withinMs);
      }
    };

    // the database stops: connections drop and new ones are refused
    await proxy.refuse();
    await expectUnavailable(2_000);
    // the network to it dies: new connections are accepted but never answered
    await proxy.hang();
    await expectUnavailable(5_000);

    await proxy.restore();
    // no restart: the pool connects again on the next request
    await waitFor(async () => (await fetch(`${base}/api/health/ready`)).status === 200, 30_000, 'readiness');
    const me = await api<{ userData: { _id: string } }>(base, '/api/userData', { token: user.token });
    expect(me.status).toBe(200);
    expect(me.body.userData._id).toBe(user.id);
    // the listener reconnects on its own too (it logs so), and a message sent then reaches the open socket
    await waitFor(() => /listener reconnected/.test(server.output()), 30_000, 'the listener to reconnect');
    const text = `after the outage ${Date.now()}`;
    const arrived = inbox.message(text);
    const sent = await api(base, '/api/chats', {
      method: 'POST',
      token: user.token,
      body: { recipientId: trainer.id, message: text },
    });
    expect(sent.status).toBe(201);
    expect((await arrived).senderId).toBe(user.id);
    expect(server.output()).not.toMatch(/"level":50/);
  });
});
