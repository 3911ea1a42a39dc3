import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WS_CLOSE, type TChatMessage } from '@spotter/shared';
import { accounts } from '../src/db/schema';
import type { Mail } from '../src/modules/mail/mail.service';
import { sweepUnreadChats, UNREAD_MAIL_AFTER_MS } from '../src/modules/chats/chats.service';
import { announceAccountChanged } from './support/account-events';
import { buildTestApp, createAccount, createFreshPgDatabase, type TestApp } from './helper';
import { ChatSocket } from './ws-client';

/**
 * Two server processes on one PostgreSQL database, each with its own LISTEN connection, behave
 * as one: what is posted to one reaches sockets on the other. Needs TEST_DATABASE_URL.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two processes on one PostgreSQL database', () => {
  let fresh: Awaited<ReturnType<typeof createFreshPgDatabase>>;
  let a: TestApp;
  let b: TestApp;
  const baseOf = async (x: TestApp) => {
    await x.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = x.app.server.address();
    return `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  };
  let baseA = '';
  let baseB = '';

  beforeAll(async () => {
    // a database of its own, so that killing its listener connections disturbs no other test file
    fresh = await createFreshPgDatabase();
    // one secret, as behind a load balancer, so a token from one process holds on the other
    const env = { JWT_SECRET: 'cluster-test-secret-0123456789abcdef0123456789' };
    a = await buildTestApp(env, { databaseUrl: fresh!.url });
    b = await buildTestApp(env, { databaseUrl: fresh!.url });
    baseA = await baseOf(a);
    baseB = await baseOf(b);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await fresh?.drop();
  });

  const post = async (on: TestApp, message: string, recipientId: string, token: string): Promise<TChatMessage> => {
    const res = await on.app.inject({
      method: 'POST',
      url: '/api/chats',
      payload: { message, recipientId },
      headers: { authorization: token },
    });
    expect(res.statusCode).toBe(201);
    return res.json().message;
  };

  it('a message posted to one process reaches sockets on both', async () => {
    const user = await createAccount(a, 'user');
    const trainer = await createAccount(a, 'trainer');
    const userOnB = await ChatSocket.open(baseB, user.token);
    const trainerOnA = await ChatSocket.open(baseA, trainer.token);
    const trainerOnB = await ChatSocket.open(baseB, trainer.token);

    const m = await post(a, 'posted to A', trainer.id, user.token);
    expect(await userOnB.message(m.message)).toEqual(m);
    expect(await trainerOnA.message(m.message)).toEqual(m);
    expect(await trainerOnB.message(m.message)).toEqual(m);

    const r = await post(b, 'answered on B', user.id, trainer.token);
    expect(await userOnB.message(r.message)).toEqual(r);
    expect(await trainerOnA.message(r.message)).toEqual(r);
    await Promise.all([userOnB, trainerOnA, trainerOnB].map((s) => s.close()));
  });

  it('messages sent at once through both processes arrive in the order the inbox lists them', async () => {
    const trainer = await createAccount(a, 'trainer');
    const users = await Promise.all([createAccount(a, 'user'), createAccount(b, 'user')]);
    const inbox = await ChatSocket.open(baseB, trainer.token);
    const texts = Array.from({ length: 24 }, (_, i) => `burst ${i}`);
    await Promise.all(texts.map((text, i) => post(i % 2 ? b : a, text, trainer.id, users[i % 2].token)));
    const pushed: string[] = [];
    for (let i = 0; i < texts.length; i++) pushed.push((await inbox.next((f) => f.type === 'message')).message.message);
    const listed = (await a.app.inject({ url: `/api/chats/${trainer.id}`, headers: { authorization: trainer.token } })).json()
      .allMessages;
    expect(listed.map((m: TChatMessage) => m.message)).toEqual(pushed);
    expect([...pushed].sort()).toEqual([...texts].sort());
    // and catching up from any of them gives exactly the ones after it
    const mid = listed[10];
    const after = (
      await b.app.inject({ url: `/api/chats/${trainer.id}?after=${mid._id}`, headers: { authorization: trainer.token } })
    ).json().allMessages;
    expect(after.map((m: TChatMessage) => m.message)).toEqual(pushed.slice(11));
    await inbox.close();
  });

  it('an account change announced by one process closes the sockets on the other', async () => {
    const who = await createAccount(a, 'user');
    const onB = await ChatSocket.open(baseB, who.token);
    await a.database.db.transaction(async (tx) => {
      await tx
        .update(accounts)
        .set({ tokenVersion: sql`${accounts.tokenVersion} + 1` })
        .where(eq(accounts.id, who.id));
      await announceAccountChanged(tx, who.id);
    });
    expect(await onB.closeCode()).toBe(WS_CLOSE.unauthorized);
  });

  it('a lost listener connection reconnects, tells its sockets to resync, and delivers again', async () => {
    const user = await createAccount(a, 'user');
    const trainer = await createAccount(a, 'trainer');
    const onB = await ChatSocket.open(baseB, user.token);
    const killed = await a.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'spotter-listener' and datname = current_database()`,
    );
    expect((killed as unknown as { rows: unknown[] }).rows.length).toBeGreaterThanOrEqual(2);
    await onB.next((f) => f.type === 'resync');
    const m = await post(a, 'after the reconnect', user.id, trainer.token);
    expect(await onB.message(m.message)).toEqual(m);
    await onB.close();
  });

  it('sweeps running in both processes at once mail a conversation once', async () => {
    const trainer = await createAccount(a, 'trainer');
    const senders = await Promise.all([createAccount(a, 'user'), createAccount(b, 'user'), createAccount(a, 'user')]);
    for (const s of senders) await post(a, 'unread', trainer.id, s.token);
    const mails: Mail[] = [];
    const mailer = { send: async (m: Mail) => void mails.push(m) };
    const now = new Date(Date.now() + UNREAD_MAIL_AFTER_MS + 60_000);
    const run = (x: TestApp) => sweepUnreadChats({ db: x.database.db, mailer, publicUrl: 'http://localhost:3000', now });
    await Promise.all([run(a), run(b), run(a), run(b)]);
    expect(mails.filter((m) => m.to === trainer.email)).toHaveLength(senders.length);
  });
});
