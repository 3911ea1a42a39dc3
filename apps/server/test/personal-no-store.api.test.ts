import { describe, expect, it } from 'vitest';
import { createAccount, useTestApp } from './helper';
import { auth, bookAndPay, bookableTrainer, hourFromNow } from './support/bookings';
import { pdf, inDays, uploadCertificate } from './support/certificates';
import { signedInOperator } from './support/console';

/**
 * Answers built for one signed-in account are `Cache-Control: private, no-store`; a visitor's reads
 * keep their caching (docs/decisions/034-socket-and-sign-in-limits.md).
 */
const t = await useTestApp();
const get = (url: string, token?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...auth(token), ...headers } });

const user = await createAccount(t, 'user');
const trainer = await bookableTrainer(t);
/** The console's reads are an operator's (docs/product.md#the-operator-console). */
const operator = await signedInOperator(t);
// something in every personal list: a paid booking, a message, a favourite
await bookAndPay(t, user.token, trainer.id, hourFromNow(30));
expect(
  (
    await t.app.inject({
      method: 'POST',
      url: '/api/chats',
      headers: auth(user.token),
      payload: { recipientId: trainer.id, message: 'Hi' },
    })
  ).statusCode,
).toBe(201);

// a certificate of the trainer's, whose file only they and operators read (docs/product.md#verified-coaches)
const certificate = await uploadCertificate(
  t,
  trainer.token,
  { issuer: 'No-store Academy', expiresOn: inDays(90) },
  { data: pdf() },
);
expect(certificate.statusCode).toBe(201);
const certificateId = certificate.json().certificate._id as string;

const NO_STORE = 'private, no-store';

describe('Cache-Control of personal answers', () => {
  it.each([
    ['/api/userData', 'user'],
    ['/api/trainerData', 'trainer'],
    ['/api/payments', 'user'],
    ['/api/user/weights', 'user'],
    ['/api/trainer/weights', 'trainer'],
    ['/api/favorites', 'user'],
    ['/api/bookings', 'user'],
    ['/api/bookings', 'trainer'],
    ['/api/conversations', 'user'],
    ['/api/conversations', 'trainer'],
    ['/api/chats/{trainer}', 'user'],
    ['/api/chats/{trainer}', 'trainer'],
    ['/api/trainer/availability', 'trainer'],
    ['/api/trainer/reviews/{trainer}', 'user'],
  ] as const)('GET %s as a %s is private, no-store', async (path, role) => {
    const token = role === 'user' ? user.token : trainer.token;
    const res = await get(path.replace('{trainer}', trainer.id), token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(NO_STORE);
    // asked again (a hit of the personal read cache, where there is one), still not to be stored
    expect((await get(path.replace('{trainer}', trainer.id), token)).headers['cache-control']).toBe(NO_STORE);
  });

  it('every GET of the API that needs a token answers private, no-store', async () => {
    const doc = (await get('/api/docs/json')).json() as { paths: Record<string, Record<string, unknown>> };
    const personal: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!('get' in operations)) continue;
      // a certificate's routes name a certificate, not a trainer
      const url = path.replace(/\{[^}]+\}/g, path.includes('/certificates/') ? certificateId : trainer.id);
      if ((await get(url)).statusCode !== 401) continue;
      personal.push(path);
      // a role's own route answers the other role 403 (and the console's, both)
      const answers = (await Promise.all([get(url, user.token), get(url, trainer.token), get(url, operator.token)])).filter(
        (r) => r.statusCode === 200,
      );
      expect(answers.length, path).toBeGreaterThan(0);
      for (const res of answers) expect(res.headers['cache-control'], path).toBe(NO_STORE);
    }
    expect(personal.length).toBeGreaterThanOrEqual(10);
  });

  it('keeps ETag revalidation for a client that sends If-None-Match', async () => {
    const first = await get('/api/conversations', user.token);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const same = await get('/api/conversations', user.token, { 'if-none-match': etag });
    expect(same.statusCode).toBe(304);
    expect(same.headers['cache-control']).toBe(NO_STORE);
  });

  it('a login, which answers a token, is private, no-store', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: user.email, password: user.password },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(NO_STORE);
  });

  it("a visitor's reads keep their caching, and so does a public list asked with a token", async () => {
    for (const url of ['/api/trainers', `/api/trainerData/${trainer.id}`, `/api/trainer/reviews/${trainer.id}`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    const list = await get('/api/trainers', user.token);
    expect(list.headers['cache-control']).toBe('no-cache');
  });
});
