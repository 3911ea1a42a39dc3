import { describe, expect, it } from 'vitest';
import { loginLockedMessage, SERVER_MSG } from '@spotter/shared';
import { LOGIN_LIMITS } from '../src/platform/login-throttle';
import { createAccount, useTestApp } from './helper';

// the production default limits (the per-IP limit of every account route: 10 a minute)
const t = await useTestApp({ RATE_LIMIT_MAX: '10' });
const login = (email: string, password: string, remoteAddress: string, role: 'users' | 'trainers' = 'users') =>
  t.app.inject({ method: 'POST', url: `/api/${role}/login`, payload: { email, password }, remoteAddress });
const failFrom = async (ip: string, email: string, times: number) => {
  for (let i = 0; i < times; i++) expect((await login(email, 'Wrong123', ip)).statusCode).toBe(401);
};

describe('login lockout counts failures per e-mail and IP', () => {
  it("an attacker's failures from IP A do not stop the owner logging in from IP B", async () => {
    const owner = await createAccount(t, 'user');
    await failFrom('203.0.113.1', owner.email, LOGIN_LIMITS.perEmailAndIp);
    expect((await login(owner.email, 'Wrong123', '203.0.113.1')).statusCode).toBe(429);

    const res = await login(owner.email, owner.password, '198.51.100.7');
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(SERVER_MSG.loginOk);
  });

  it('five failures from one IP lock that IP and e-mail: 429 saying when to retry, even for the right password', async () => {
    const owner = await createAccount(t, 'user');
    const other = await createAccount(t, 'user');
    await failFrom('203.0.113.2', owner.email, 5);

    const locked = await login(owner.email, owner.password, '203.0.113.2');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ message: loginLockedMessage(15 * 60), statusCode: 429, code: 'RATE_LIMITED' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    // the same IP may still log in to another account, and the same e-mail as a trainer is another account
    expect((await login(other.email, other.password, '203.0.113.2')).statusCode).toBe(200);
    expect((await login(owner.email, 'Wrong123', '203.0.113.2', 'trainers')).statusCode).toBe(401);
  });

  it('counts failures, not attempts: a successful login clears that IP’s failures', async () => {
    const owner = await createAccount(t, 'user');
    await failFrom('203.0.113.3', owner.email, 4);
    expect((await login(owner.email, owner.password, '203.0.113.3')).statusCode).toBe(200);
    await failFrom('203.0.113.3', owner.email, 4);
    expect((await login(owner.email, owner.password, '203.0.113.3')).statusCode).toBe(200);
  });

  it('parallel guesses cannot all slip past the check before any fails', async () => {
    const owner = await createAccount(t, 'user');
    const results = await Promise.all(Array.from({ length: 9 }, () => login(owner.email, 'Wrong123', '203.0.113.4')));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(4);
  });

  it('an IPv6 client counts as its /64: failures from five of its addresses lock every address of it, not the next /64', async () => {
    const owner = await createAccount(t, 'user');
    for (let i = 1; i <= LOGIN_LIMITS.perEmailAndIp; i++) {
      expect((await login(owner.email, 'Wrong123', `2001:db8:9:1::${i}`)).statusCode).toBe(401);
    }
    const sameNetwork = await login(owner.email, owner.password, '2001:db8:9:1:aaaa:bbbb:cccc:dddd');
    expect(sameNetwork.statusCode).toBe(429);
    expect(sameNetwork.json().code).toBe('RATE_LIMITED');
    expect((await login(owner.email, owner.password, '2001:db8:9:2::1')).statusCode).toBe(200);
  });

  it('IPv4 clients, also written IPv4-mapped, count per address: a neighbour is not locked with them', async () => {
    const owner = await createAccount(t, 'user');
    await failFrom('::ffff:203.0.113.20', owner.email, LOGIN_LIMITS.perEmailAndIp);
    // the same client written plainly is locked; the next address is another client
    expect((await login(owner.email, owner.password, '203.0.113.20')).statusCode).toBe(429);
    expect((await login(owner.email, owner.password, '::ffff:203.0.113.21')).statusCode).toBe(200);
    expect((await login(owner.email, owner.password, '203.0.113.22')).statusCode).toBe(200);
  });
});
