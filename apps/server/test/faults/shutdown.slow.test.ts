import { Agent, request } from 'node:http';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../../src/db/client';
import { messages } from '../../src/db/schema';
import { createFreshPgDatabase } from '../helper';
import { ChatSocket } from '../ws-client';
import { api, demoLogin, killServer, newDataDir, startServer, waitFor, type ServerProcess } from './server-process';

/**
 * A request whose body is still arriving: in flight until `finish()` sends the rest. Answers the
 * status and body the server gives it. Its connection is kept alive afterwards, as browsers and
 * load balancers do, so it goes idle only after the server began to close.
 */
function slowPost(base: string, path: string, token: string, body: object, agent: Agent) {
  const text = JSON.stringify(body);
  const half = Math.floor(text.length / 2);
  const req = request(`${base}${path}`, {
    method: 'POST',
    agent,
    headers: { authorization: token, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let data = '';
      res.on('data', (d) => (data += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: data }));
    });
    req.on('error', reject);
  });
  // resolves once the headers and half the body are handed to the kernel, on their way to the server
  const sent = new Promise<void>((resolve, reject) => req.write(text.slice(0, half), (err) => (err ? reject(err) : resolve())));
  return { sent, answer, finish: () => req.end(text.slice(half)) };
}

/** True once nothing listens on `base` any more. */
const refused = async (base: string) => {
  try {
    await fetch(`${base}/api/health`);
    return false;
  } catch (err) {
    return (err as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
  }
};

async function shutdownDuringRequests(databaseUrl: string | undefined) {
  const dataDir = newDataDir('shutdown');
  let server: ServerProcess | undefined;
  let cleanup = () => undefined as unknown;
  try {
    server = await startServer({ dataDir, databaseUrl });
    const { base } = server;
    const user = await demoLogin(base, 'user', 'user@spotter.test');
    const trainer = await demoLogin(base, 'trainer', 'trainer@spotter.test');
    const inbox = await ChatSocket.open(base, trainer.token);
    const text = `sent while shutting down ${Date.now()}`;
    const agent = new Agent({ keepAlive: true });
    cleanup = () => agent.destroy();
    const inFlight = slowPost(base, '/api/chats', user.token, { recipientId: trainer.id, message: text }, agent);
    await inFlight.sent;
    // a round trip on another connection after it: the server has read the request before the signal
    await waitFor(async () => (await api(base, '/api/health')).status === 200, 10_000, 'the server');

    const signalled = performance.now();
    server.child.kill('SIGTERM');
    // open sockets are told to reconnect (elsewhere)
    expect(await inbox.closeCode()).toBe(1012);
    // nothing new is accepted
    await waitFor(() => refused(base), 10_000, 'new connections to be refused');
    // while the request in flight still gets its answer
    inFlight.finish();
    const answer = await inFlight.answer;
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body).message.message).toBe(text);
    const { code } = await server.exited;
    expect(code, server.output()).toBe(0);
    expect(performance.now() - signalled).toBeLessThan(10_000);
    // and what it answered was stored
    const database = await openDatabase({ url: databaseUrl, dataDir });
    try {
      const stored = await database.db.select({ id: messages.id }).from(messages).where(eq(messages.body, text));
      expect(stored).toHaveLength(1);
    } finally {
      await database.close();
    }
  } finally {
    cleanup();
    killServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('SIGTERM', () => {
  it(
    'PGlite: in-flight requests finish, new connections are refused, sockets get 1012, exit 0 within 10 s',
    { timeout: 120_000 },
    async () => {
      await shutdownDuringRequests(undefined);
    },
  );

  const pgIt = process.env.TEST_DATABASE_URL ? it : it.skip;
  const fresh: Array<{ drop(): Promise<void> }> = [];
  afterAll(async () => {
    for (const f of fresh) await f.drop();
  });
  pgIt(
    'PostgreSQL: in-flight requests finish, new connections are refused, sockets get 1012, exit 0 within 10 s',
    { timeout: 120_000 },
    async () => {
      const pg = (await createFreshPgDatabase())!;
      fresh.push(pg);
      await shutdownDuringRequests(pg.url);
    },
  );
});
