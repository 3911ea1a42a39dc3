import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@spotter/shared';
import { accounts } from '../src/db/schema';
import { createTokenStates } from '../src/modules/accounts/token-states';
import { CHANNELS, createNotifyBus } from '../src/platform/events';
import { buildTestApp, createAccount, createFreshPgDatabase } from './helper';
import { until } from './support/until';

// the token check's remembered account state (docs/decisions/023-token-check-cache.md)
// on PostgreSQL a database of its own: other files' account changes would reach this file's listeners
const fresh = await createFreshPgDatabase();
const t = await buildTestApp({}, { databaseUrl: fresh?.url });
afterAll(async () => {
  await t.close();
  await fresh?.drop();
});
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/userData', headers: { authorization: token } });
const bumpTokenVersion = (id: string) =>
  t.database.db
    .update(accounts)
    .set({ tokenVersion: sql`${accounts.tokenVersion} + 1` })
    .where(eq(accounts.id, id));

describe('the remembered token check', () => {
  it('answers from memory until the database announces a change to the account, then reads it again', async () => {
    const u = await createAccount(t, 'user');
    let clock = 1_000_000;
    // not listening (a connection down): the remembered state holds until it is too old
    const deaf = createTokenStates(t.database.db, { maxAgeMs: 10_000, now: () => clock });
    expect((await deaf.get(u.id))?.tokenVersion).toBe(0);
    await bumpTokenVersion(u.id);
    expect((await deaf.get(u.id))?.tokenVersion).toBe(0);
    expect(deaf.stats()).toMatchObject({ hits: 1, misses: 1 });
    clock += 10_001;
    expect((await deaf.get(u.id))?.tokenVersion).toBe(1);

    // listening: a change made with plain SQL is announced by the database's trigger, and forgotten
    // when the notification arrives, without waiting for the age
    const states = createTokenStates(t.database.db, { maxAgeMs: 10_000, now: () => clock });
    // on PostgreSQL the channel is the database's: other test files' accounts are announced on it too,
    // so only what it says of `u` and of the marker account counts
    const marker = await createAccount(t, 'user');
    const heard: string[] = [];
    const bus = createNotifyBus(t.database, t.app.log);
    await bus.subscribe(
      CHANNELS.account,
      (id) => {
        if (id === u.id || id === marker.id) heard.push(id);
        states.forget(id);
      },
      states.clear,
    );
    try {
      expect((await states.get(u.id))?.tokenVersion).toBe(1);
      await t.database.db.execute(sql`update accounts set token_version = token_version + 1 where id = ${u.id}`);
      await until(() => heard.includes(u.id), 'the account notification');
      expect((await states.get(u.id))?.tokenVersion).toBe(2);
      // a change that does not end tokens (a title) is not announced on the channel: the marker's
      // change, committed after it, arrives with nothing about `u` before it
      await t.database.db.execute(sql`update accounts set title = 'Unannounced' where id = ${u.id}`);
      await bumpTokenVersion(marker.id);
      await until(() => heard.includes(marker.id), 'the marker account notification');
      expect(heard).toEqual([u.id, marker.id]);
    } finally {
      await bus.close();
    }
  });

  it('does not keep a state read while the account was being changed', async () => {
    const u = await createAccount(t, 'user');
    const states = createTokenStates(t.database.db);
    const reading = states.get(u.id);
    // the change's notification arrives while the read is on its way
    states.forget(u.id);
    await reading;
    await bumpTokenVersion(u.id);
    expect((await states.get(u.id))?.tokenVersion).toBe(1);
    expect(states.stats()).toMatchObject({ hits: 0, misses: 2 });
  });

  it('remembers at most maxEntries accounts, the least recently checked going first', async () => {
    const [a, b, c] = [await createAccount(t, 'user'), await createAccount(t, 'user'), await createAccount(t, 'user')];
    const states = createTokenStates(t.database.db, { maxEntries: 2 });
    await states.get(a.id);
    await states.get(b.id);
    await states.get(a.id);
    await states.get(c.id);
    expect(states.stats()).toMatchObject({ entries: 2, hits: 1, misses: 3 });
    await states.get(a.id);
    await states.get(b.id);
    expect(states.stats()).toMatchObject({ hits: 2, misses: 4 });
  });

  it('a used token stops working at once when the password changes or the account is deleted', async () => {
    const u = await createAccount(t, 'user');
    expect((await me(u.token)).statusCode).toBe(200);
    const changed = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/password',
      headers: { authorization: u.token },
      payload: { oldPassword: u.password, newPassword: 'Newpass1', confirmPassword: 'Newpass1' },
    });
    expect(changed.statusCode).toBe(200);
    const stale = await me(u.token);
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toBe(SERVER_MSG.badToken);
    const fresh = changed.json().token as string;
    expect((await me(fresh)).statusCode).toBe(200);

    const gone = await t.app.inject({
      method: 'DELETE',
      url: '/api/user',
      headers: { authorization: fresh },
      payload: { password: 'Newpass1' },
    });
    expect(gone.statusCode).toBe(200);
    expect((await me(fresh)).statusCode).toBe(401);
  });
});
