import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS, GOOGLE_MSG, SERVER_MSG, ZErrorResponse, type ErrorCode } from '@spotter/shared';
import { buildTestApp, createAccount, uniqueEmail, useTestApp, type TestApp } from './helper';
import { bookableTrainer, bookAndPay, hourFromNow } from './support/bookings';
import { until } from './support/until';

const CLIENT_ID = '1234567890-spotter.apps.googleusercontent.com';
const KID = 'spotter-test-key';

/** Google's key server, played on 127.0.0.1: publishes one key the tests sign ID tokens with. */
const google = await generateKeyPair('RS256');
const impostor = await generateKeyPair('RS256');
const jwks = { keys: [{ ...(await exportJWK(google.publicKey)), kid: KID, alg: 'RS256', use: 'sig' }] };
const keyServer = { isDown: false, fetches: 0 };
const server = createServer((req, res) => {
  if (req.url !== '/oauth2/v3/certs') return void res.writeHead(404).end();
  if (keyServer.isDown) return void res.writeHead(500).end('down');
  keyServer.fetches += 1;
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
const JWKS_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth2/v3/certs`;

const t = await useTestApp({ GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_JWKS_URL: JWKS_URL });

type TokenOptions = {
  key?: Parameters<SignJWT['sign']>[0];
  alg?: string;
  issuer?: string;
  audience?: string;
  issuedAt?: number;
  expiresAt?: number;
};

/** An ID token the way Google signs one; claims and options override the defaults. */
async function idToken(claims: Record<string, unknown> = {}, o: TokenOptions = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    email: uniqueEmail('google'),
    email_verified: true,
    name: 'Salma Fathy',
    given_name: 'Salma',
    family_name: 'Fathy',
    picture: 'https://lh3.googleusercontent.com/a/salma-photo=s96-c',
    ...claims,
  })
    .setProtectedHeader({ alg: o.alg ?? 'RS256', kid: KID, typ: 'JWT' })
    .setIssuer(o.issuer ?? 'https://accounts.google.com')
    .setAudience(o.audience ?? CLIENT_ID)
    .setSubject('110169484474386276334')
    .setIssuedAt(o.issuedAt ?? now)
    .setExpirationTime(o.expiresAt ?? now + 3600)
    .sign(o.key ?? google.privateKey);
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

const signIn = (app: TestApp, payload: unknown) =>
  app.app.inject({ method: 'POST', url: '/api/auth/google', payload: payload as Record<string, unknown> });
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

function expectCode(res: { statusCode: number; json(): unknown }, code: ErrorCode) {
  const body = ZErrorResponse.parse(res.json());
  expect({ status: res.statusCode, code: body.code }).toEqual({ status: ERROR_STATUS[code], code });
  return body;
}

async function accountsWithEmail(email: string) {
  const res = await t.database.db.execute(
    `select id, role from accounts where lower(email) = lower('${email.replace(/'/g, "''")}')`,
  );
  return (res as unknown as { rows: Array<{ id: string; role: string }> }).rows;
}

describe('POST /api/auth/google: key set', () => {
  // first in the file: jose caches the key set once it has it
  it("answers 502 when Google's key set cannot be fetched, then works once it can", async () => {
    keyServer.isDown = true;
    const credential = await idToken();
    expect(expectCode(await signIn(t, { credential, role: 'user' }), 'PROVIDER_UNAVAILABLE').message).toBe(
      GOOGLE_MSG.keysUnavailable,
    );
    keyServer.isDown = false;
    expect((await signIn(t, { credential, role: 'user' })).statusCode).toBe(200);
  });
});

describe('POST /api/auth/google: sign-in', () => {
  it('creates a verified user with the names and picture of the claims and answers like a login', async () => {
    const email = uniqueEmail('new.user');
    const res = await signIn(t, { credential: await idToken({ email }), role: 'user' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ message: GOOGLE_MSG.signedUp, token: expect.any(String) });

    const me = await t.app.inject({ url: '/api/userData', headers: auth(body.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().userData).toMatchObject({
      role: 'user',
      email,
      emailVerified: true,
      firstName: 'Salma',
      lastName: 'Fathy',
      picture: 'https://lh3.googleusercontent.com/a/salma-photo=s96-c',
    });
    // no password was ever set, so none logs in, and asking does not break anything
    const login = await t.app.inject({ method: 'POST', url: '/api/users/login', payload: { email, password: 'Strong12' } });
    expect(login.statusCode).toBe(401);
  });

  it('signs the same Google account into the same account next time', async () => {
    const email = uniqueEmail('again');
    const first = (await signIn(t, { credential: await idToken({ email }), role: 'user' })).json();
    const second = await signIn(t, { credential: await idToken({ email: email.toUpperCase() }), role: 'user' });
    expect(second.json().message).toBe('Logged in successfully');
    const idOf = async (token: string) =>
      (await t.app.inject({ url: '/api/userData', headers: auth(token) })).json().userData._id;
    expect(await idOf(second.json().token)).toBe(await idOf(first.token));
    expect(await accountsWithEmail(email)).toHaveLength(1);
  });

  it('accepts both issuers Google writes', async () => {
    const res = await signIn(t, { credential: await idToken({}, { issuer: 'accounts.google.com' }), role: 'user' });
    expect(res.statusCode).toBe(200);
  });

  it('links an existing verified account of that e-mail and role instead of making a second', async () => {
    const existing = await createAccount(t, 'user');
    const res = await signIn(t, { credential: await idToken({ email: existing.email }), role: 'user' });
    expect(res.statusCode).toBe(200);
    const me = (await t.app.inject({ url: '/api/userData', headers: auth(res.json().token) })).json().userData;
    expect(me._id).toBe(existing.id);
    expect(me.firstName).toBe('Nadia'); // the account's own data is kept
    expect(await accountsWithEmail(existing.email)).toHaveLength(1);
    // its password and earlier tokens still work
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/users/login',
          payload: { email: existing.email, password: existing.password },
        })
      ).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ url: '/api/userData', headers: auth(existing.token) })).statusCode).toBe(200);
  });

  it('keeps the roles apart: a trainer of that e-mail is a separate account', async () => {
    const existing = await createAccount(t, 'trainer');
    const res = await signIn(t, { credential: await idToken({ email: existing.email }), role: 'user' });
    expect(res.statusCode).toBe(200);
    const rows = await accountsWithEmail(existing.email);
    expect(rows.map((r) => r.role).sort()).toEqual(['trainer', 'user']);
  });

  it("starts the address's owner clean: an unverified account of that e-mail is retired with its name, chats, password and tokens", async () => {
    const existing = await createAccount(t, 'user', { firstName: 'Squatter' }, { verify: false });
    const before = (await t.app.inject({ url: '/api/userData', headers: auth(existing.token) })).json().userData;
    expect(before.emailVerified).toBe(false);
    const coach = await createAccount(t, 'trainer');
    const said = `Hi, it is me, the owner ${Date.now()}`;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/chats',
      headers: auth(existing.token),
      payload: { recipientId: coach.id, message: said },
    });
    expect(sent.statusCode).toBe(201);
    const coachSees = async () =>
      (
        (await t.app.inject({ url: '/api/conversations', headers: auth(coach.token) })).json().conversations as Array<{
          counterpartId: string;
          lastMessage: string;
        }>
      ).filter((c) => c.lastMessage === said);
    expect(await coachSees()).toHaveLength(1);

    const res = await signIn(t, { credential: await idToken({ email: existing.email }), role: 'user' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(GOOGLE_MSG.signedUp);
    const token = res.json().token as string;
    const me = (await t.app.inject({ url: '/api/userData', headers: auth(token) })).json().userData;
    expect(me).toMatchObject({ email: existing.email, emailVerified: true, firstName: 'Salma', lastName: 'Fathy' });
    expect(me._id).not.toBe(existing.id);
    expect((await t.app.inject({ url: '/api/conversations', headers: auth(token) })).json().conversations).toEqual([]);
    // what the registrant wrote in the owner's name is gone for the one it was written to
    expect(await coachSees()).toEqual([]);
    expect((await accountsWithEmail(existing.email)).map((r) => r.id)).toEqual([me._id]);
    expect((await t.app.inject({ url: '/api/userData', headers: auth(existing.token) })).statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: existing.email, password: existing.password },
    });
    expect(login.statusCode).toBe(401);
  });

  it('a retired trainer is a trainer who left: their paid sessions to come are refunded in full (docs/decisions/042-money-ledger.md#a-trainer-who-leaves)', async () => {
    const trainer = await bookableTrainer(t);
    const client = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, client.token, trainer.id, hourFromNow(72));
    // the trainer moves to an address they never prove; its owner then signs in with Google
    const newEmail = uniqueEmail('moved');
    const moved = await t.app.inject({
      method: 'PATCH',
      url: '/api/trainer/edit',
      headers: auth(trainer.token),
      payload: { email: newEmail, currentPassword: trainer.password },
    });
    expect(moved.statusCode).toBe(200);
    const res = await signIn(t, { credential: await idToken({ email: newEmail }), role: 'trainer' });
    expect(res.json().message).toBe(GOOGLE_MSG.signedUp);

    const sessionOf = async () =>
      (
        (await t.app.inject({ url: '/api/bookings', headers: auth(client.token) })).json().bookings as Array<{
          _id: string;
          status: string;
          cancelledBy: string | null;
        }>
      ).find((b) => b._id === bookingId);
    await until(async () => {
      await t.app.jobs.runDue();
      return (await sessionOf())?.status === 'refunded';
    }, 'the retired trainer’s session refunded');
    expect(await sessionOf()).toMatchObject({ cancelledBy: 'trainer' });
    expect(t.outbox().filter((m) => m.to === client.email && m.subject.startsWith('Cancelled'))).toHaveLength(1);
  });

  it('leaves an unverified account as it is when Google has not verified the e-mail either', async () => {
    const existing = await createAccount(t, 'user', {}, { verify: false });
    const res = await signIn(t, { credential: await idToken({ email: existing.email, email_verified: false }), role: 'user' });
    expect(expectCode(res, 'INVALID_CREDENTIALS').message).toBe(GOOGLE_MSG.emailNotVerified);
    const me = await t.app.inject({ url: '/api/userData', headers: auth(existing.token) });
    expect(me.json().userData.emailVerified).toBe(false);
  });
});

describe('POST /api/auth/google: a trainer', () => {
  it('is created without a price and is not listed publicly until it sets one', async () => {
    const lastName = `Googler${Date.now().toString(36)}`;
    const res = await signIn(t, { credential: await idToken({ family_name: lastName }), role: 'trainer' });
    expect(res.statusCode).toBe(200);
    const token = res.json().token as string;
    const own = (await t.app.inject({ url: '/api/trainerData', headers: auth(token) })).json().trainerData;
    expect(own).toMatchObject({ role: 'trainer', emailVerified: true, lastName, price: 0 });

    const listed = async () =>
      (await t.app.inject(`/api/trainers?q=${lastName}`)).json().viewAllTrainers as Array<{ _id: string }>;
    expect(await listed()).toEqual([]);
    expect((await t.app.inject(`/api/trainerData/${own._id}`)).statusCode).toBe(404);

    const edit = await t.app.inject({ method: 'PATCH', url: '/api/trainer/edit', headers: auth(token), payload: { price: 150 } });
    expect(edit.statusCode).toBe(200);
    expect((await listed()).map((x) => x._id)).toEqual([own._id]);
    expect((await t.app.inject(`/api/trainerData/${own._id}`)).statusCode).toBe(200);
  });
});

describe('POST /api/auth/google: refusals', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const refused: Array<[string, () => Promise<string>]> = [
    ['an unverified e-mail claim', () => idToken({ email_verified: false })],
    ['the string "false" as e-mail_verified', () => idToken({ email_verified: 'false' })],
    ['no e-mail claim', () => idToken({ email: undefined })],
    ['another audience', () => idToken({}, { audience: 'someone-else.apps.googleusercontent.com' })],
    ['another issuer', () => idToken({}, { issuer: 'https://accounts.evil.example' })],
    ['an expired token', () => idToken({}, { issuedAt: now() - 7200, expiresAt: now() - 3600 })],
    ['a signature of another key', () => idToken({}, { key: impostor.privateKey })],
    [
      'alg none',
      async () =>
        `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: 'https://accounts.google.com', aud: CLIENT_ID, sub: '1', email: uniqueEmail(), email_verified: true, iat: now(), exp: now() + 3600 })}.`,
    ],
    [
      'HS256 signed with a guessable secret',
      async () => {
        const secret = new TextEncoder().encode('x'.repeat(32));
        return new SignJWT({ email: uniqueEmail(), email_verified: true })
          .setProtectedHeader({ alg: 'HS256', kid: KID })
          .setIssuer('https://accounts.google.com')
          .setAudience(CLIENT_ID)
          .setSubject('1')
          .setIssuedAt()
          .setExpirationTime('1h')
          .sign(secret);
      },
    ],
    ['garbage', async () => 'not-a-token'],
    ['three garbage parts', async () => 'a.b.c'],
  ];

  it.each(refused)('answers 401 with a message for %s, and creates nobody', async (_name, make) => {
    const credential = await make();
    const email = (() => {
      try {
        return JSON.parse(Buffer.from(credential.split('.')[1] ?? '', 'base64url').toString()).email as string | undefined;
      } catch {
        return undefined;
      }
    })();
    const body = expectCode(await signIn(t, { credential, role: 'user' }), 'INVALID_CREDENTIALS');
    expect(body.message).toMatch(/Google/);
    if (email) expect(await accountsWithEmail(email)).toEqual([]);
  });

  it('answers 400, never 500, to a missing or empty credential and a role that is not user or trainer', async () => {
    const credential = await idToken();
    for (const payload of [
      { role: 'user' },
      { credential: '', role: 'user' },
      { credential: 42, role: 'user' },
      { credential, role: 'admin' },
      { credential },
      {},
    ]) {
      expectCode(await signIn(t, payload), 'VALIDATION_FAILED');
    }
    expectCode(await signIn(t, { credential: 'x'.repeat(9000), role: 'user' }), 'VALIDATION_FAILED');
  });

  it('fetched the key set once for all of the above (jose caches it)', () => {
    expect(keyServer.fetches).toBe(1);
  });
});

describe('POST /api/auth/google: claims of a validly signed token', () => {
  const now = () => Math.floor(Date.now() / 1000);

  it.each([
    ['the given name', { given_name: 'Sal\u0000ma' }],
    ['the family name', { family_name: 'Fa\u0000thy' }],
    ['the name', { given_name: undefined, name: 'Salma\u0000 Fathy' }],
    ['the e-mail', { email: `nul\u0000${uniqueEmail()}` }],
    ['a claim sign-in does not read', { hd: 'example\u0000.com' }],
    ['a nested claim', { extra: { deep: ['x\u0000'] } }],
    ['a claim name', { 'x\u0000y': 1 }],
  ])('answers 400, never 500, to a NUL byte in %s, and creates nobody', async (_where, claims) => {
    const email = uniqueEmail('nul');
    const res = await signIn(t, { credential: await idToken({ email, ...claims }), role: 'user' });
    expect(expectCode(res, 'VALIDATION_FAILED').message).toBe(SERVER_MSG.nulCharacter);
    expect(await accountsWithEmail(email)).toEqual([]);
  });

  it.each(['not-an-email', 'two@@example.com', 'spaces in@example.com', 'x@localhost', '<script>@example.com', 42])(
    'answers 400 to an e-mail claim that is not an address (%s), and creates nobody',
    async (email) => {
      const res = await signIn(t, { credential: await idToken({ email }), role: 'user' });
      const body = expectCode(res, 'VALIDATION_FAILED');
      expect(body.message).toBe(GOOGLE_MSG.emailInvalid);
      if (typeof email === 'string') expect(await accountsWithEmail(email)).toEqual([]);
    },
  );

  it('refuses a token issued in the future, beyond 5 minutes of clock skew', async () => {
    const email = uniqueEmail('future');
    const future = await idToken({ email }, { issuedAt: now() + 3600, expiresAt: now() + 7200 });
    expect(expectCode(await signIn(t, { credential: future, role: 'user' }), 'INVALID_CREDENTIALS').message).toBe(
      GOOGLE_MSG.invalidCredential,
    );
    expect(await accountsWithEmail(email)).toEqual([]);
    const skewed = await idToken({ email }, { issuedAt: now() + 120 });
    expect((await signIn(t, { credential: skewed, role: 'user' })).statusCode).toBe(200);
  });
});

describe('configuration', () => {
  it("GET /api/auth/config names the client id, and the CSP lets Google's sign-in in", async () => {
    const res = await t.app.inject('/api/auth/config');
    expect(res.json()).toEqual({ googleClientId: CLIENT_ID });
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self' https://accounts.google.com");
    expect(csp).toContain('https://accounts.google.com/gsi/style');
    expect(csp).toContain("connect-src 'self' https://accounts.google.com");
    expect(csp).toContain('frame-src https://accounts.google.com');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
  });

  it('without GOOGLE_CLIENT_ID: 503 saying so, a null client id, and no Google host in the CSP', async () => {
    const off = await buildTestApp({ GOOGLE_JWKS_URL: JWKS_URL });
    try {
      const res = await signIn(off, { credential: await idToken(), role: 'user' });
      expect(expectCode(res, 'NOT_CONFIGURED').message).toMatch(/not configured/);
      const config = await off.app.inject('/api/auth/config');
      expect(config.json()).toEqual({ googleClientId: null });
      expect(config.headers['content-security-policy']).not.toMatch(/google/);
      expect(config.headers['cross-origin-opener-policy']).toBe('same-origin');
    } finally {
      await off.close();
    }
  });
});
