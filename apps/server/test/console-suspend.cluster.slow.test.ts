import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WS_CLOSE } from '@spotter/shared';
import { buildTestApp, createAccount, createFreshPgDatabase, type TestApp } from './helper';
import { signedInOperator } from './support/console';
import { until } from './support/until';
import { ChatSocket } from './ws-client';

/**
 * A suspension made on one process ends the person everywhere (docs/product.md#suspending-an-account):
 * two server processes on one PostgreSQL database, each remembering token checks until the database
 * announces a change; the suspended person's next request and socket are refused on the other
 * within a second. Needs TEST_DATABASE_URL.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('a suspension across two processes on PostgreSQL', () => {
  let fresh: Awaited<ReturnType<typeof createFreshPgDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let baseB = '';

  beforeAll(async () => {
    fresh = await createFreshPgDatabase();
    // one secret, as behind a load balancer, so a token from one process holds on the other
    const env = { JWT_SECRET: 'cluster-test-secret-0123456789abcdef0123456789' };
    a = await buildTestApp(env, { databaseUrl: fresh!.url });
    b = await buildTestApp(env, { databaseUrl: fresh!.url });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = b.app.server.address();
    baseB = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await fresh?.drop();
  });

  it('refuses the suspended person’s next request and closes their socket on the other process within a second', async () => {
    const operator = await signedInOperator(a);
    const user = await createAccount(a, 'user');
    const trainer = await createAccount(a, 'trainer');
    const me = (on: TestApp, token: string) => on.app.inject({ url: '/api/userData', headers: { authorization: token } });
    // B remembers the token's account as valid (its token-check cache is warm)
    expect((await me(b, user.token)).statusCode).toBe(200);
    expect((await me(b, user.token)).statusCode).toBe(200);
    const socket = await ChatSocket.open(baseB, user.token);

    const suspended = await a.app.inject({
      method: 'POST',
      url: `/api/console/people/${user.id}/suspend`,
      headers: { authorization: operator.token },
      payload: { reason: 'Stolen cards' },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    const at = Date.now();

    await until(async () => (await me(b, user.token)).statusCode === 401, 'B to refuse the token');
    expect((await socket.closed).code).toBe(WS_CLOSE.unauthorized);
    expect(Date.now() - at).toBeLessThan(1_000);
    // nor can a message be sent through B, nor can they sign in there
    const sent = await b.app.inject({
      method: 'POST',
      url: '/api/chats',
      headers: { authorization: user.token },
      payload: { recipientId: trainer.id, message: 'still here?' },
    });
    expect(sent.statusCode).toBe(401);
    const login = await b.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: user.email, password: user.password },
    });
    expect(login.json()).toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    // someone else on B is untouched
    expect((await b.app.inject({ url: '/api/trainerData', headers: { authorization: trainer.token } })).statusCode).toBe(200);
  });
});
