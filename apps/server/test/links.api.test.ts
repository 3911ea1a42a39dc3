import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@spotter/shared';
import { accounts } from '../src/db/schema';
import { createAccount, uniqueEmail, useTestApp } from './helper';

const t = await useTestApp();
const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, token?: string, payload?: object) =>
  t.app.inject({ method, url, headers: token ? { authorization: token } : {}, ...(payload ? { payload } : {}) });
const isVerified = async (token: string) =>
  (await inject('GET', '/api/userData', token)).json().userData.emailVerified as boolean;
/** The path and query of the newest link mailed to `to` whose subject matches. */
const lastLink = (to: string, subject: RegExp) => {
  const mail = t
    .outbox()
    .filter((m) => m.to === to && subject.test(m.subject))
    .at(-1);
  const url = new URL(mail!.links[0]);
  return { path: url.pathname + url.search, token: url.searchParams.get('token')! };
};
const open = async (path: string) => (await inject('GET', path)).headers.location;
const reset = (token: string, password: string) =>
  inject('POST', '/api/password/reset', undefined, { token, password, confirmPassword: password });

describe('verification links prove one address', () => {
  it('an old link verifies nothing after an e-mail change; the link mailed to the new address does', async () => {
    const u = await createAccount(t, 'user', {}, { verify: false });
    const old = lastLink(u.email, /Verify/);
    const moved = uniqueEmail('moved');
    expect((await inject('PATCH', '/api/user/edit', u.token, { email: moved, currentPassword: u.password })).statusCode).toBe(
      200,
    );

    expect(await open(old.path)).toBe('/verification/failed');
    expect(await isVerified(u.token)).toBe(false);

    expect(await open(lastLink(moved, /Verify/).path)).toBe('/verification/success?role=user');
    expect(await isVerified(u.token)).toBe(true);
  });

  it('a link mailed to address A does not verify the account once its address is B', async () => {
    const u = await createAccount(t, 'user', {}, { verify: false });
    const mailedToA = lastLink(u.email, /Verify/);
    // the address changes by a path that does not cancel links (an operator, a future feature)
    await t.database.db
      .update(accounts)
      .set({ email: uniqueEmail('b') })
      .where(eq(accounts.id, u.id));

    expect(await open(mailedToA.path)).toBe('/verification/failed');
    expect(await isVerified(u.token)).toBe(false);
  });
});

describe('reset links', () => {
  it('a reset link is refused after a password change', async () => {
    const u = await createAccount(t, 'user');
    await inject('POST', '/api/password/forgot', undefined, { email: u.email, role: 'user' });
    const link = lastLink(u.email, /Reset/);
    const changed = await inject('PATCH', '/api/user/password', u.token, {
      oldPassword: u.password,
      newPassword: 'Newpass1',
      confirmPassword: 'Newpass1',
    });
    expect(changed.statusCode).toBe(200);

    const res = await reset(link.token, 'Attack12');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(SERVER_MSG.resetInvalid);
    expect((await inject('POST', '/api/users/login', undefined, { email: u.email, password: 'Newpass1' })).statusCode).toBe(200);
  });

  it('a reset ends the other open reset links', async () => {
    const u = await createAccount(t, 'user');
    await inject('POST', '/api/password/forgot', undefined, { email: u.email, role: 'user' });
    const first = lastLink(u.email, /Reset/);
    await inject('POST', '/api/password/forgot', undefined, { email: u.email, role: 'user' });
    const second = lastLink(u.email, /Reset/);
    expect((await reset(second.token, 'Newpass1')).statusCode).toBe(200);
    expect((await reset(first.token, 'Attack12')).statusCode).toBe(400);
    expect((await inject('POST', '/api/users/login', undefined, { email: u.email, password: 'Newpass1' })).statusCode).toBe(200);
  });

  it('an e-mail change ends open reset links, and a reset link mailed to A does not reset once the address is B', async () => {
    const u = await createAccount(t, 'user');
    await inject('POST', '/api/password/forgot', undefined, { email: u.email, role: 'user' });
    const beforeChange = lastLink(u.email, /Reset/);
    const moved = uniqueEmail('moved');
    expect((await inject('PATCH', '/api/user/edit', u.token, { email: moved, currentPassword: u.password })).statusCode).toBe(
      200,
    );
    expect((await reset(beforeChange.token, 'Attack12')).statusCode).toBe(400);

    await inject('POST', '/api/password/forgot', undefined, { email: moved, role: 'user' });
    const mailedToB = lastLink(moved, /Reset/);
    await t.database.db
      .update(accounts)
      .set({ email: uniqueEmail('c') })
      .where(eq(accounts.id, u.id));
    expect((await reset(mailedToB.token, 'Attack12')).statusCode).toBe(400);
    expect((await inject('GET', '/api/userData', u.token)).statusCode).toBe(200);
  });
});
