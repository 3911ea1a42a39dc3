import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { Role } from '@spotter/shared';
import { createAccount, TEST_PUSH_HOST, uniqueEmail, validSignUp, validTrainerSignUp, type TestApp } from '../helper';
import { bookableTrainer, createOrder, hold, hourFromNow } from '../support/bookings';
import { certificateForm, inDays, pdf } from '../support/certificates';
import { signedInOperator } from '../support/console';

/**
 * Every endpoint of the API, in one table, with who may call it and a valid request aimed at a
 * victim's things: the authorisation matrix (authz-matrix.api.test.ts) and the HTTP fuzzing
 * (fuzz.slow.test.ts) are generated from it.
 */

export type Account = { token: string; email: string; password: string; id: string };
export type Fixture = {
  user: Account;
  trainer: Account;
  /** the same roles' other accounts, with another password */
  user2: Account;
  trainer2: Account;
  /** a console operator, signed in */
  operator: { token: string; id: string; email: string };
  bookingId: string;
  orderId: string;
  /** the victim user's wait on the victim trainer's waitlist */
  waitlistId: string;
  imageUrl: string;
  png: Buffer;
  /** the victim trainer's certificate, waiting for review */
  certificateId: string;
};

/**
 * - public: the token is not read; every caller gets `ok`.
 * - optional: anyone may call; a token, when sent, must be valid.
 * - any: a valid token of either role.
 * - user / trainer: a valid token of that role (403 for the other).
 * - operator: a console token (docs/product.md#the-operator-console); 403 for members of either role.
 */
type Access = 'public' | 'optional' | 'any' | 'user' | 'trainer' | 'operator';

/** What the stranger gets: a status, or `own`: it is served, on its own data only. */
type Stranger = number | { own: number };

export type Endpoint = {
  access: Access;
  /** The request the allowed role makes, aimed at the victim's things (the victim of `role`). */
  request?: (f: Fixture, role: Role) => Omit<InjectOptions, 'method' | 'headers'> & { headers?: Record<string, string> };
  /** public and optional: the visitor's status */
  ok?: number;
  /** Another account of the same role sending the victim's request; unset where nothing in it is the victim's. */
  stranger?: Stranger;
  /** for `any` endpoints: the roles whose victims a stranger of the same role aims at */
  strangerRoles?: Role[];
};

const SLOT = hourFromNow(48);

/** A browser's subscription on the tests' push host, with keys a browser could have (a P-256 point, a 16-byte secret). */
function pushSubscription() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `${TEST_PUSH_HOST}/push/${randomUUID()}`,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}
const newName = { firstName: 'Changed' };
const contact = { phone: '01012345678', website: '', weight: 70, height: 170 };
const newPassword = { oldPassword: 'Strong12', newPassword: 'Newpass12', confirmPassword: 'Newpass12' };

function multipart(file: Buffer) {
  const boundary = `----matrix${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Both roles' settings routes: each answers only its own role. */
const settingsOf = (role: Role): Record<string, Endpoint> => ({
  [`PATCH /api/${role}/edit`]: { access: role, request: () => ({ payload: newName }), stranger: { own: 200 } },
  [`PATCH /api/${role}/edit/photo`]: {
    access: role,
    // the victim's uploaded photo is not the stranger's to use
    request: (f) => ({ payload: { picture: f.imageUrl } }),
    stranger: 400,
  },
  [`PATCH /api/${role}/contact`]: { access: role, request: () => ({ payload: contact }), stranger: { own: 200 } },
  [`GET /api/${role}/weights`]: { access: role, stranger: { own: 200 } },
  // the victim's password does not open the stranger's account
  [`PATCH /api/${role}/password`]: { access: role, request: () => ({ payload: newPassword }), stranger: 400 },
  [`PATCH /api/${role}/notifications`]: {
    access: role,
    request: () => ({ payload: { account: false, marketing: true } }),
    stranger: { own: 200 },
  },
  [`DELETE /api/${role}`]: { access: role, request: () => ({ payload: { password: 'Strong12' } }), stranger: 400 },
});

/** THE table: every registered route is listed here, or the first test fails. */
export const ENDPOINTS: Record<string, Endpoint> = {
  'GET /api/health': { access: 'public', ok: 200 },
  // the operator console (docs/product.md#the-operator-console)
  'POST /api/console/welcome': {
    access: 'public',
    request: () => ({ payload: { token: 'x'.repeat(43), password: 'Console-pass-12' } }),
    ok: 400,
  },
  'POST /api/console/login': {
    access: 'public',
    request: (f) => ({ payload: { email: f.operator.email, password: 'Wrong-pass-123', code: '000000' } }),
    ok: 401,
  },
  'GET /api/console/me': { access: 'operator' },
  // it ends the operator's sessions: the fuzzing signs out an operator of its own (fuzz.slow.test.ts)
  'POST /api/console/logout': { access: 'operator' },
  'GET /api/console/audit': { access: 'operator' },
  'GET /api/console/audit.csv': { access: 'operator' },
  'GET /api/console/overview': { access: 'operator' },
  'GET /api/console/people': { access: 'operator', request: (f) => ({ url: `/api/console/people?q=${f.trainer.email}` }) },
  'GET /api/console/people/:id': { access: 'operator', request: (f) => ({ url: `/api/console/people/${f.trainer.id}` }) },
  'GET /api/console/bookings': { access: 'operator', request: (f) => ({ url: `/api/console/bookings?q=${f.bookingId}` }) },
  'POST /api/console/bookings/:id/refund': {
    access: 'operator',
    // an unknown session: the fuzzer's accepted requests must not refund the fixture's booking
    request: () => ({ url: `/api/console/bookings/${randomUUID()}/refund`, payload: { amount: 1, reason: 'Matrix check' } }),
  },
  'GET /api/console/ledger': { access: 'operator' },
  'GET /api/console/disputes': { access: 'operator' },
  'POST /api/console/disputes/:id/decide': {
    access: 'operator',
    request: (f) => ({
      url: `/api/console/disputes/${f.bookingId}/decide`,
      payload: { outcome: 'no-refund', reason: 'Matrix check' },
    }),
  },
  ...Object.fromEntries(
    (['suspend', 'restore', 'delete'] as const).map((action) => [
      `POST /api/console/people/:id/${action}`,
      {
        access: 'operator',
        request: () => ({
          // an unknown person: the fuzzer's accepted requests must not suspend the fixture's accounts
          url: `/api/console/people/${randomUUID()}/${action}`,
          payload: { reason: 'Matrix check' },
        }),
      } satisfies Endpoint,
    ]),
  ),
  // reports and moderation (docs/product.md#reports-and-moderation)
  'GET /api/console/reports': { access: 'operator', request: () => ({ url: '/api/console/reports?status=open' }) },
  ...Object.fromEntries(
    (['hide', 'restore', 'dismiss'] as const).map((d) => [
      `POST /api/console/reports/:id/${d}`,
      {
        access: 'operator',
        request: () => ({ url: `/api/console/reports/${randomUUID()}/${d}`, payload: { reason: 'checked' } }),
      },
    ]),
  ),
  'POST /api/reports': {
    access: 'any',
    request: (f) => ({ payload: { kind: 'profile', id: f.trainer2.id, reason: 'spam', note: 'matrix' } }),
  },
  // certificates and the 'Verified coach' badge (docs/product.md#verified-coaches)
  'POST /api/trainer/certificates': {
    access: 'trainer',
    request: () => certificateForm({ issuer: 'Matrix Academy', expiresOn: inDays(200) }, { data: pdf() }),
    stranger: { own: 201 },
  },
  'GET /api/trainer/certificates': { access: 'trainer', stranger: { own: 200 } },
  'GET /api/trainer/certificates/:id/file': {
    access: 'trainer',
    request: (f) => ({ url: `/api/trainer/certificates/${f.certificateId}/file` }),
    // another trainer's certificate is not found
    stranger: 404,
  },
  'GET /api/console/certificates': { access: 'operator', request: () => ({ url: '/api/console/certificates?status=pending' }) },
  'GET /api/console/certificates/:id/file': {
    access: 'operator',
    request: (f) => ({ url: `/api/console/certificates/${f.certificateId}/file` }),
  },
  'POST /api/console/certificates/:id/approve': {
    access: 'operator',
    request: () => ({ url: `/api/console/certificates/${randomUUID()}/approve`, payload: { reason: 'Matrix check' } }),
  },
  'POST /api/console/certificates/:id/reject': {
    access: 'operator',
    request: () => ({ url: `/api/console/certificates/${randomUUID()}/reject`, payload: { reason: 'Matrix check' } }),
  },
  'GET /api/health/ready': { access: 'public', ok: 200 },
  // the API map (off in production unless API_DOCS=true)
  'GET /api/docs': { access: 'public', ok: 200 },
  'GET /api/docs/json': { access: 'public', ok: 200 },
  'GET /api/docs/yaml': { access: 'public', ok: 200 },
  'GET /api/docs/static/index.html': { access: 'public', ok: 302 },
  'GET /api/docs/static/swagger-initializer.js': { access: 'public', ok: 200 },
  'GET /api/docs/static/*': { access: 'public', request: () => ({ url: '/api/docs/static/favicon-32x32.png' }), ok: 200 },
  // CORS preflights: closed unless CORS_ORIGINS lists origins
  'OPTIONS *': { access: 'public', request: () => ({ url: '/api/trainers' }), ok: 404 },
  // open outside production; there only with METRICS_TOKEN (metrics.api.test.ts)
  'GET /api/metrics': { access: 'public', ok: 200 },

  'POST /api/users/register': { access: 'public', request: () => ({ payload: validSignUp() }), ok: 201 },
  'POST /api/trainers/register': { access: 'public', request: () => ({ payload: validTrainerSignUp() }), ok: 201 },
  'POST /api/users/login': {
    access: 'public',
    request: (f) => ({ payload: { email: f.user.email, password: f.user.password } }),
    ok: 200,
  },
  'POST /api/trainers/login': {
    access: 'public',
    request: (f) => ({ payload: { email: f.trainer.email, password: f.trainer.password } }),
    ok: 200,
  },
  'GET /api/verify': { access: 'public', request: () => ({ url: '/api/verify?token=not-a-mailed-link' }), ok: 302 },
  'POST /api/password/forgot': {
    access: 'public',
    request: (f) => ({ payload: { email: f.user.email, role: 'user' } }),
    ok: 200,
  },
  'POST /api/password/reset': {
    access: 'public',
    request: () => ({ payload: { token: 'not-a-mailed-link', password: 'Strong12', confirmPassword: 'Strong12' } }),
    ok: 400,
  },
  'GET /api/auth/config': { access: 'public', ok: 200 },
  // not configured in tests: the answer says so whoever asks
  'POST /api/auth/google': {
    access: 'public',
    request: () => ({ payload: { role: 'user', credential: 'x'.repeat(40) } }),
    ok: 503,
  },
  'GET /api/trainers': { access: 'public', ok: 200 },
  'GET /api/trainerData/:id': { access: 'public', request: (f) => ({ url: `/api/trainerData/${f.trainer.id}` }), ok: 200 },
  'GET /api/trainers/:id/slots': { access: 'public', request: (f) => ({ url: `/api/trainers/${f.trainer.id}/slots` }), ok: 200 },
  'GET /api/trainer/reviews/:id': {
    access: 'optional',
    request: (f) => ({ url: `/api/trainer/reviews/${f.trainer.id}` }),
    ok: 200,
  },
  'GET /api/trainer/reviews/:id/distribution': {
    access: 'public',
    request: (f) => ({ url: `/api/trainer/reviews/${f.trainer.id}/distribution` }),
    ok: 200,
  },
  'GET /api/avatars/:file': { access: 'public', request: () => ({ url: '/api/avatars/someone.svg' }), ok: 200 },
  'GET /api/images/:file': {
    access: 'public',
    request: (f) => ({ url: new URL(f.imageUrl, 'http://localhost').pathname }),
    ok: 200,
  },
  'GET /api/payments/config': { access: 'public', ok: 200 },
  // PayPal's webhooks: no token, PayPal's signature instead; not configured in tests (no PAYPAL_WEBHOOK_ID)
  'POST /api/payments/webhooks/paypal': {
    access: 'public',
    request: () => ({ payload: { id: 'WH-1', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { id: 'CAPTURE-1' } } }),
    ok: 503,
  },
  'POST /api/newsletter': { access: 'public', request: () => ({ payload: { email: uniqueEmail('news') } }), ok: 200 },
  // a WebSocket: its first frame carries the token (covered by chats.ws.api.test.ts); a plain GET is refused
  'GET /api/ws': { access: 'public', ok: 404 },

  'GET /api/userData': { access: 'user', stranger: { own: 200 } },
  'GET /api/trainerData': { access: 'trainer', stranger: { own: 200 } },
  'POST /api/verify/resend': { access: 'any', stranger: { own: 200 } },
  ...settingsOf('user'),
  ...settingsOf('trainer'),
  'POST /api/images': { access: 'any', request: (f) => multipart(f.png) },

  'GET /api/trainer/availability': { access: 'trainer', stranger: { own: 200 } },
  'PUT /api/trainer/availability': {
    access: 'trainer',
    request: () => ({ payload: { timeZone: 'UTC', weekly: [{ weekday: 1, hours: [9] }] } }),
    stranger: { own: 200 },
  },
  'POST /api/bookings': {
    access: 'user',
    request: (f) => ({ payload: { trainerId: f.trainer.id, startsAt: hourFromNow(72) } }),
  },
  'GET /api/bookings': { access: 'any', stranger: { own: 200 }, strangerRoles: ['user', 'trainer'] },
  // someone else's booking does not exist for you
  'POST /api/bookings/:id/cancel': {
    access: 'any',
    request: (f) => ({ url: `/api/bookings/${f.bookingId}/cancel` }),
    stranger: 404,
    strangerRoles: ['user', 'trainer'],
  },
  // someone else's booking does not exist for you (its user may not mark a no-show: 403)
  'POST /api/bookings/:id/no-show': {
    access: 'any',
    request: (f) => ({ url: `/api/bookings/${f.bookingId}/no-show` }),
    stranger: 404,
    strangerRoles: ['user', 'trainer'],
  },
  // only a session's user disputes it (its trainer: 403); someone else's booking does not exist for you
  'POST /api/bookings/:id/dispute': {
    access: 'user',
    request: (f) => ({ url: `/api/bookings/${f.bookingId}/dispute`, payload: { reason: 'other', note: '' } }),
    stranger: 404,
  },
  // only a session's user moves it (its trainer: 403); someone else's booking does not exist for you
  'POST /api/bookings/:id/reschedule': {
    access: 'user',
    request: (f) => ({ url: `/api/bookings/${f.bookingId}/reschedule`, payload: { startsAt: hourFromNow(96) } }),
    stranger: 404,
  },
  // only a session's user releases it (every trainer: 403); someone else's booking does not exist for you
  'POST /api/bookings/:id/release': {
    access: 'user',
    request: (f) => ({ url: `/api/bookings/${f.bookingId}/release` }),
    stranger: 404,
  },
  'POST /api/waitlist': {
    access: 'user',
    request: (f) => ({ payload: { trainerId: f.trainer.id, from: hourFromNow(100), to: hourFromNow(103) } }),
  },
  'GET /api/waitlist': { access: 'user', stranger: { own: 200 } },
  // someone else's wait does not exist for you
  'DELETE /api/waitlist/:id': { access: 'user', request: (f) => ({ url: `/api/waitlist/${f.waitlistId}` }), stranger: 404 },
  'POST /api/orders': { access: 'user', request: (f) => ({ payload: { bookingId: f.bookingId } }), stranger: 403 },
  'POST /api/orders/:orderID/capture': {
    access: 'user',
    request: (f) => ({ url: `/api/orders/${encodeURIComponent(f.orderId)}/capture` }),
    stranger: 403,
  },
  'GET /api/payments': { access: 'any', stranger: { own: 200 }, strangerRoles: ['user', 'trainer'] },
  'GET /api/trainer/payout': { access: 'trainer', stranger: { own: 200 } },
  'PUT /api/trainer/payout': {
    access: 'trainer',
    request: () => ({ payload: { email: 'payouts@example.com' } }),
    stranger: { own: 200 },
  },
  'GET /api/payouts': { access: 'trainer', stranger: { own: 200 } },
  'PUT /api/trainer/packages': {
    access: 'trainer',
    request: () => ({ payload: { packages: [{ sessions: 5, price: 400, validityMonths: null }] } }),
    stranger: { own: 200 },
  },
  'GET /api/balances': { access: 'user', stranger: { own: 200 } },
  // "your balance with that trainer": a stranger has none there, and never refunds the victim's
  'POST /api/balances/:trainerId/refund': {
    access: 'user',
    request: (f) => ({ url: `/api/balances/${f.trainer.id}/refund` }),
    stranger: 404,
  },

  'POST /api/chats': {
    access: 'any',
    request: (f, role) => ({ payload: { message: 'hello', recipientId: role === 'user' ? f.trainer.id : f.user.id } }),
  },
  // a user reads only their side; a trainer only their own inbox
  'GET /api/chats/:trainerId': {
    access: 'any',
    request: (f, role) => ({ url: `/api/chats/${f.trainer.id}${role === 'user' ? `?userId=${f.user.id}` : ''}` }),
    stranger: 403,
    strangerRoles: ['user', 'trainer'],
  },
  'GET /api/conversations': { access: 'any', stranger: { own: 200 }, strangerRoles: ['user', 'trainer'] },
  // marking "the conversation with X" read marks the stranger's own, never the victim's
  'POST /api/conversations/:counterpartId/read': {
    access: 'any',
    request: (f, role) => ({ url: `/api/conversations/${role === 'user' ? f.trainer.id : f.user.id}/read` }),
    stranger: { own: 200 },
    strangerRoles: ['user', 'trainer'],
  },

  'POST /api/reviews/new': {
    access: 'user',
    request: (f) => ({ payload: { trainerId: f.trainer.id, rating: 1, comment: 'Not my review to change' } }),
    stranger: { own: 201 },
  },
  // Web Push (docs/product.md#notifications): the tests' push hosts (helper.ts) are a closed local port
  'GET /api/push/config': { access: 'public', ok: 200 },
  'GET /api/push/subscriptions': { access: 'any', stranger: { own: 200 }, strangerRoles: ['user', 'trainer'] },
  'POST /api/push/subscriptions': {
    access: 'any',
    request: () => ({ payload: pushSubscription() }),
    stranger: { own: 200 },
    strangerRoles: ['user', 'trainer'],
  },
  'DELETE /api/push/subscriptions': {
    access: 'any',
    request: () => ({ payload: { endpoint: `${TEST_PUSH_HOST}/push/${randomUUID()}` } }),
    stranger: { own: 204 },
    strangerRoles: ['user', 'trainer'],
  },
  'GET /api/favorites': { access: 'user', stranger: { own: 200 } },
  'POST /api/favorites/merge': {
    access: 'user',
    request: (f) => ({ payload: { favorites: [f.trainer2.id] } }),
    stranger: { own: 200 },
  },
  'PUT /api/favorites/:trainerId': {
    access: 'user',
    request: (f) => ({ url: `/api/favorites/${f.trainer2.id}` }),
    stranger: { own: 200 },
  },
  // removing "your" favourite never removes the victim's
  'DELETE /api/favorites/:trainerId': {
    access: 'user',
    request: (f) => ({ url: `/api/favorites/${f.trainer.id}` }),
    stranger: { own: 200 },
  },
};

export const mainRole = (e: Endpoint): Role => (e.access === 'trainer' ? 'trainer' : 'user');

/**
 * Two accounts of each role: the victims (`user`, `trainer`), with a held booking and its order,
 * an uploaded photo, a conversation unread on both sides, a review and a favourite; and their
 * strangers (`user2`, `trainer2`), whose password is another.
 */
export async function createFixture(t: TestApp): Promise<Fixture> {
  const png = await sharp({ create: { width: 24, height: 24, channels: 3, background: '#c84' } })
    .png()
    .toBuffer();
  const other = { password: 'Other123', confirmPassword: 'Other123' };
  const [user, user2, trainer, trainer2] = [
    await createAccount(t, 'user'),
    await createAccount(t, 'user', other),
    await bookableTrainer(t),
    await createAccount(t, 'trainer', other),
  ];
  const up = multipart(png);
  const uploaded = await t.app.inject({
    method: 'POST',
    url: '/api/images',
    payload: up.payload,
    headers: { ...up.headers, authorization: user.token },
  });
  expect(uploaded.statusCode).toBe(201);
  const held = await hold(t, user.token, trainer.id, SLOT);
  expect(held.statusCode).toBe(201);
  const bookingId = held.json().booking._id as string;
  const order = await createOrder(t, user.token, { bookingId });
  expect(order.statusCode).toBe(200);
  const wait = await t.app.inject({
    method: 'POST',
    url: '/api/waitlist',
    headers: { authorization: user.token },
    payload: { trainerId: trainer.id, from: hourFromNow(60), to: hourFromNow(62) },
  });
  expect(wait.statusCode).toBe(201);
  const operator = await signedInOperator(t);
  const form = certificateForm({ issuer: 'Fixture Academy', expiresOn: inDays(300) }, { data: pdf() });
  const certificate = await t.app.inject({
    method: 'POST',
    url: '/api/trainer/certificates',
    payload: form.payload,
    headers: { ...form.headers, authorization: trainer.token },
  });
  expect(certificate.statusCode, certificate.body).toBe(201);
  const f: Fixture = {
    user,
    user2,
    trainer,
    trainer2,
    operator: { token: operator.token, id: operator.id, email: operator.email },
    bookingId,
    orderId: order.json().id,
    waitlistId: wait.json().entry._id,
    imageUrl: uploaded.json().url,
    png,
    certificateId: certificate.json().certificate._id,
  };
  // the victims' conversation (unread on both sides), review and favourite
  const send = (from: Account, to: Account) =>
    t.app.inject({
      method: 'POST',
      url: '/api/chats',
      headers: { authorization: from.token },
      payload: { message: 'private words', recipientId: to.id },
    });
  expect((await send(user, trainer)).statusCode).toBe(201);
  expect((await send(trainer, user)).statusCode).toBe(201);
  const review = await t.app.inject({
    method: 'POST',
    url: '/api/reviews/new',
    headers: { authorization: user.token },
    payload: { trainerId: trainer.id, rating: 5, comment: 'Great coach' },
  });
  expect(review.statusCode).toBe(201);
  const fav = await t.app.inject({ method: 'PUT', url: `/api/favorites/${trainer.id}`, headers: { authorization: user.token } });
  expect(fav.statusCode).toBe(200);
  return f;
}
