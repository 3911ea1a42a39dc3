import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createAuth } from '../../src/plugins/auth';
import { createTokenService } from '../../src/lib/tokens';
import { createAccount, useTestApp } from '../helper';
import { inspectFrame, installLeakCheck, takeLeakViolations } from '../support/leak-check';

/**
 * The leak crawler itself (support/leak-check.ts, installed on every test app by helper.ts):
 * answers that carry someone else's secrets are caught, the caller's own are not.
 */
const t = await useTestApp();
const alice = await createAccount(t, 'user', { phone: '01512345678' });
const bob = await createAccount(t, 'trainer', { phone: '01298765432' });
const stored = await t.database.db.execute(sql`select password_hash from accounts where email = ${alice.email}`);
const [aliceHash] = (stored as { rows: Array<{ password_hash: string }> }).rows;

/** A small app on the same database whose routes answer whatever the test asks them to. */
const leaky = Fastify({ logger: false });
const auth = createAuth(t.database.db, createTokenService(t.config.jwtSecret));
let answer: unknown = {};
leaky.get('/api/leak', { preHandler: auth.optionalAuth }, async () => answer);
leaky.post('/api/users/login', async () => answer);
installLeakCheck(leaky, t.database);
await leaky.ready();
afterAll(() => leaky.close());

async function found(
  body: unknown,
  { token, url = '/api/leak', payload }: { token?: string; url?: string; payload?: object } = {},
) {
  answer = body;
  const res = await leaky.inject({
    method: payload ? 'POST' : 'GET',
    url,
    payload,
    headers: token ? { authorization: token } : {},
  });
  expect(res.statusCode).toBe(200);
  return takeLeakViolations().map((v) => v.found);
}

describe('leak crawler', () => {
  it('passes the caller’s own data and public data', async () => {
    expect(await found({ email: alice.email, phone: '01512345678', token: alice.token }, { token: alice.token })).toEqual([]);
    expect(await found({ firstName: 'Nadia', title: 'Coach', picture: '/avatars/x.svg' })).toEqual([]);
    // a login answer carries the token of the account its body names
    expect(
      await found(
        { message: 'ok', token: alice.token },
        { url: '/api/users/login', payload: { email: alice.email, password: 'x' } },
      ),
    ).toEqual([]);
  });

  it('catches a password hash', async () => {
    expect(aliceHash.password_hash).toMatch(/^\$argon2/);
    expect(await found({ userData: { passwordHash: aliceHash.password_hash } }, { token: alice.token })).toEqual([
      'a password hash',
    ]);
  });

  it('catches someone else’s session token', async () => {
    expect(await found({ token: bob.token }, { token: alice.token })).toEqual([`a session token of ${bob.id}`]);
    expect(await found({ token: alice.token })).toEqual([`a session token of ${alice.id}`]);
    expect(
      await found({ token: bob.token }, { url: '/api/users/login', payload: { email: alice.email, password: 'x' } }),
    ).toEqual([`a session token of ${bob.id}`]);
  });

  it('catches another person’s e-mail and phone, for visitors and other accounts alike', async () => {
    const bobEmail = bob.email.toLowerCase();
    expect(await found({ trainerData: { email: bob.email } }, { token: alice.token })).toEqual([
      `the e-mail of another account (${bobEmail})`,
    ]);
    expect(await found({ trainerData: { email: bob.email, phone: '01298765432' } })).toEqual([
      `the e-mail of another account (${bobEmail})`,
      'the phone of another account (01298765432)',
    ]);
    // an address that is nobody's account is not personal data of anyone here
    expect(await found({ note: 'write to nobody.here@example.org' })).toEqual([]);
  });
});

describe('pushed WebSocket frames', () => {
  const frame = (overrides: Record<string, unknown>, text = 'See you at 6') => {
    const value = {
      type: 'message',
      message: {
        _id: '3f1c2b9e-0000-4000-8000-000000000001',
        senderId: '3f1c2b9e-0000-4000-8000-000000000002',
        recipientId: '3f1c2b9e-0000-4000-8000-000000000003',
        message: text,
        messageDate: new Date(0).toISOString(),
        senderFirstName: 'Nadia',
        senderLastName: 'Samir',
        senderPicture: '',
        ...overrides,
      },
    };
    inspectFrame(value, JSON.stringify(value));
    return takeLeakViolations().map((v) => v.found);
  };

  it('catches an e-mail, a token or a hash anywhere but in the text someone wrote', () => {
    expect(frame({})).toEqual([]);
    expect(frame({}, 'write to me at nadia@example.com')).toEqual([]);
    expect(frame({ senderLastName: alice.email })).toEqual(['an e-mail address']);
    expect(frame({ senderPicture: `https://x.example/?t=${bob.token}` })).toEqual(['a session token']);
    expect(frame({ senderFirstName: aliceHash.password_hash })).toEqual(['a password hash']);
  });
});
