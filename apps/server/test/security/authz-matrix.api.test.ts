import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WS_CLOSE, type Role } from '@spotter/shared';
import type { TestApp } from '../helper';
import { ChatSocket } from '../ws-client';
import { buildIsolatedApp, dbState, registeredRoutes } from './db-state';
import { createFixture, ENDPOINTS, mainRole, type Account, type Endpoint, type Fixture } from './endpoints';

/**
 * The authorisation matrix (issue 13): every endpoint the app registers, from the one table
 * in endpoints.ts, against every way a caller can be wrong. A refused call answers its status and changes
 * nothing in the database; a same-role stranger aimed at the victim's things is refused, or acts
 * on its own data only.
 */

/** The bad tokens: each but the garbage one carries a real account's claims. */
const BAD_TOKENS = [
  'garbage token',
  'expired token',
  'alg none token',
  'foreign-key token',
  // signed with the app's key, so only the account check refuses them
  'role-swapped token',
  'revoked token',
  'unknown-account token',
  'malformed-id token',
] as const;
type Case = 'no token' | (typeof BAD_TOKENS)[number] | 'other role' | 'stranger';
const CASES: Case[] = ['no token', ...BAD_TOKENS, 'other role', 'stranger'];

/** The status the table says, or undefined where the case does not apply. */
function expectedStatus(e: Endpoint, c: Case): number | { own: number } | undefined {
  // a public endpoint does not read the token: one bad token shows it is ignored
  if (e.access === 'public') return c === 'no token' || c === 'garbage token' ? e.ok : undefined;
  if (c === 'no token') return e.access === 'optional' ? e.ok : 401;
  // the console's: a member of either role
  if (c === 'other role') return e.access === 'user' || e.access === 'trainer' || e.access === 'operator' ? 403 : undefined;
  if (c === 'stranger' && e.access === 'operator') return undefined;
  if (c === 'stranger') return e.access === 'optional' ? undefined : e.stranger;
  return 401;
}

const other = (role: Role): Role => (role === 'user' ? 'trainer' : 'user');
const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

let t: TestApp;
let f: Fixture;
let listening: string | undefined;
/** The app on a real port, for the WebSocket (opened on first use). */
async function baseUrl() {
  listening ??= await t.app.listen({ port: 0, host: '127.0.0.1' });
  return listening;
}
const secret = () => new TextEncoder().encode(t.config.jwtSecret);
const sign = (claims: Record<string, unknown>, key: Uint8Array, { iat, exp }: { iat: number; exp: number }) =>
  new SignJWT({ id: claims.id, role: claims.role, tv: claims.tv })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.id))
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(key);
const now = () => Math.floor(Date.now() / 1000);

/** Tokens that must not work, each carrying the real claims of `account`. */
async function badToken(kind: Case, account: Account): Promise<string> {
  const claims = claimsOf(account.token);
  switch (kind) {
    case 'garbage token':
      return 'eyJhbGciOiJIUzI1NiJ9.not-a-token.at-all';
    case 'expired token':
      return sign(claims, secret(), { iat: now() - 8 * 86400, exp: now() - 60 });
    case 'alg none token':
      return `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, exp: now() + 3600 })}.`;
    case 'foreign-key token':
      return sign(claims, new TextEncoder().encode('another-server-secret-of-32-bytes!!'), { iat: now(), exp: now() + 3600 });
    case 'role-swapped token':
      return sign({ ...claims, role: claims.role === 'user' ? 'trainer' : 'user' }, secret(), { iat: now(), exp: now() + 3600 });
    // a token from before a password change or a deletion: its version is not the account's any more
    case 'revoked token':
      return sign({ ...claims, tv: Number(claims.tv) + 1 }, secret(), { iat: now(), exp: now() + 3600 });
    case 'unknown-account token':
      return sign({ ...claims, id: randomUUID() }, secret(), { iat: now(), exp: now() + 3600 });
    // defence in depth: a claim that is no account id at all (only the key could sign it) is not a 500
    case 'malformed-id token':
      return sign({ ...claims, id: `${String(claims.id)}'--` }, secret(), { iat: now(), exp: now() + 3600 });
    default:
      throw new Error(kind);
  }
}

const victimOf = (role: Role) => (role === 'user' ? f.user : f.trainer);
const strangerOf = (role: Role) => (role === 'user' ? f.user2 : f.trainer2);

async function call(key: string, e: Endpoint, role: Role, token?: string) {
  const [method, path] = key.split(' ') as [InjectOptions['method'], string];
  const req = e.request?.(f, role) ?? {};
  return t.app.inject({
    method,
    url: path,
    ...req,
    headers: { ...(req.headers ?? {}), ...(token ? { authorization: token } : {}) },
  });
}

beforeAll(async () => {
  t = await buildIsolatedApp();
  f = await createFixture(t);
}, 120_000);
afterAll(() => t?.close());

describe('authorisation matrix', () => {
  it('lists every registered route, and only those', () => {
    const registered = registeredRoutes(t.app);
    expect(
      registered.filter((r) => !(r in ENDPOINTS)),
      'routes missing from the matrix table',
    ).toEqual([]);
    expect(
      Object.keys(ENDPOINTS).filter((r) => !registered.includes(r)),
      'table rows with no route',
    ).toEqual([]);
  });

  it('accepts a token built like the refused ones but valid, so the refusals are about what is wrong with them', async () => {
    const claims = claimsOf(f.user.token);
    const fresh = await sign(claims, secret(), { iat: now(), exp: now() + 3600 });
    const res = await t.app.inject({ method: 'GET', url: '/api/userData', headers: { authorization: fresh } });
    expect(res.statusCode).toBe(200);
  });

  const rows = Object.entries(ENDPOINTS).flatMap(([key, e]) =>
    CASES.flatMap((c) => {
      const expected = expectedStatus(e, c);
      if (expected === undefined) return [];
      const roles: Role[] =
        c === 'stranger' && e.access === 'any'
          ? (e.strangerRoles ?? ['user'])
          : c === 'other role' && e.access === 'operator'
            ? ['user', 'trainer']
            : [mainRole(e)];
      return roles.map((role) => ({ key, e, c, role, expected }));
    }),
  );

  it.each(rows.map((r) => [`${r.key} × ${r.c}${r.c === 'stranger' ? ` (${r.role})` : ''}`, r] as const))(
    '%s',
    async (_name, { key, e, c, role, expected }) => {
      let token: string | undefined;
      if (c === 'other role') token = e.access === 'operator' ? victimOf(role).token : victimOf(other(role)).token;
      else if (c === 'stranger') token = strangerOf(role).token;
      else if (c !== 'no token') token = await badToken(c, victimOf(role));

      const status = typeof expected === 'number' ? expected : expected.own;
      const isRefusal = status >= 400 && e.access !== 'public';
      const victim = victimOf(role);
      const victimMarks = [victim.id, f.bookingId];
      const before = isRefusal || c === 'stranger' ? await dbState(t.database, isRefusal ? [] : victimMarks) : undefined;
      const res = await call(key, e, role, token);
      expect(res.statusCode, res.body).toBe(status);
      if (isRefusal) {
        // nothing at all changed
        expect(await dbState(t.database)).toEqual(before);
      } else if (c === 'stranger') {
        // the stranger is served on its own data: the victim's rows did not change, nor show
        expect(await dbState(t.database, victimMarks)).toEqual(before);
        expect(res.body).not.toContain(victim.email);
        expect(res.body).not.toContain(f.bookingId);
        expect(res.body).not.toContain('private words');
      }
    },
  );
});

describe('the chat socket', () => {
  it.each(BAD_TOKENS.map((c) => [c] as const))('closes as unauthorised on a %s in its auth frame', async (c) => {
    const base = await baseUrl();
    const socket = await ChatSocket.open(base);
    socket.send({ type: 'auth', token: await badToken(c, f.user) });
    expect(await socket.closeCode()).toBe(WS_CLOSE.unauthorized);
  });
});
