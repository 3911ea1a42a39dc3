import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_STATUS, SERVER_MSG, SETTINGS_MSG, ZErrorResponse, type ErrorCode } from '@spotter/shared';
import { createAccount, insertTrainer, useTestApp, validSignUp } from './helper';
import { auth, bookableTrainer, bookAndPay, hourFromNow, hold } from './support/bookings';

const t = await useTestApp({ RATE_LIMIT_MAX: '30' });

/** The answer has the one shape, the given code, and the status that code goes with. */
function expectCode(res: { statusCode: number; json(): unknown }, code: ErrorCode) {
  const body = ZErrorResponse.parse(res.json());
  expect(body.code).toBe(code);
  expect(res.statusCode).toBe(ERROR_STATUS[code]);
  expect(body.statusCode).toBe(ERROR_STATUS[code]);
  return body;
}

describe('the code list', () => {
  it('is SCREAMING_SNAKE, each code with one error status', () => {
    for (const code of ERROR_CODES) {
      expect(code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
      expect(ERROR_STATUS[code]).toBeLessThan(600);
    }
  });
});

describe('every error answer carries its code', () => {
  it('validation: VALIDATION_FAILED with field errors', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/users/register', payload: validSignUp({ phone: '123' }) });
    expect(expectCode(res, 'VALIDATION_FAILED').errors).toHaveProperty('phone');
  });

  it('framework: MALFORMED_JSON, UNSUPPORTED_MEDIA_TYPE, PAYLOAD_TOO_LARGE, NOT_FOUND and METHOD_NOT_ALLOWED', async () => {
    const json = { 'content-type': 'application/json' };
    expectCode(
      await t.app.inject({ method: 'POST', url: '/api/newsletter', headers: json, payload: '{"email":' }),
      'MALFORMED_JSON',
    );
    expectCode(
      await t.app.inject({
        method: 'POST',
        url: '/api/newsletter',
        headers: { 'content-type': 'application/xml' },
        payload: '<a/>',
      }),
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectCode(
      await t.app.inject({
        method: 'POST',
        url: '/api/newsletter',
        headers: json,
        payload: JSON.stringify({ email: 'x'.repeat(200 * 1024) }),
      }),
      'PAYLOAD_TOO_LARGE',
    );
    expectCode(await t.app.inject('/api/no-such-thing'), 'NOT_FOUND');
    expectCode(await t.app.inject({ method: 'DELETE', url: '/api/trainers' }), 'METHOD_NOT_ALLOWED');
  });

  it('ids: a malformed id in the path is NOT_FOUND with the answer an unknown id gets', async () => {
    const malformed = expectCode(await t.app.inject('/api/trainerData/not-an-id'), 'NOT_FOUND');
    const unknown = expectCode(await t.app.inject('/api/trainerData/3f1c2b9e-0000-4000-8000-000000000000'), 'NOT_FOUND');
    expect(malformed.message).toBe(SERVER_MSG.trainerNotFound);
    expect(unknown.message).toBe(SERVER_MSG.trainerNotFound);
    expect(malformed).not.toHaveProperty('errors');
    // a path parameter that is not an id keeps its 400
    expectCode(await t.app.inject({ method: 'POST', url: `/api/orders/${'x'.repeat(65)}/capture` }), 'VALIDATION_FAILED');
  });

  it('auth: UNAUTHENTICATED, TOKEN_INVALID, INVALID_CREDENTIALS, FORBIDDEN_ROLE, EMAIL_NOT_VERIFIED', async () => {
    expectCode(await t.app.inject('/api/userData'), 'UNAUTHENTICATED');
    expectCode(await t.app.inject({ url: '/api/userData', headers: auth('not.a.token') }), 'TOKEN_INVALID');
    expectCode(
      await t.app.inject({
        method: 'POST',
        url: '/api/users/login',
        payload: { email: 'nobody@example.com', password: 'Wrong123' },
      }),
      'INVALID_CREDENTIALS',
    );
    const trainer = await createAccount(t, 'trainer');
    expectCode(await t.app.inject({ url: '/api/userData', headers: auth(trainer.token) }), 'FORBIDDEN_ROLE');
    const unverified = await createAccount(t, 'user', {}, { verify: false });
    const listed = await insertTrainer(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/reviews/new',
      headers: auth(unverified.token),
      payload: { trainerId: listed.id, rating: 5, comment: 'Hi' },
    });
    expect(expectCode(res, 'EMAIL_NOT_VERIFIED').message).toBe(SERVER_MSG.verifyToReview);
  });

  it('conflicts and rules: EMAIL_TAKEN, WRONG_PASSWORD, SLOT_TAKEN', async () => {
    const taken = validSignUp();
    await t.app.inject({ method: 'POST', url: '/api/users/register', payload: taken });
    expectCode(await t.app.inject({ method: 'POST', url: '/api/users/register', payload: taken }), 'EMAIL_TAKEN');

    const u = await createAccount(t, 'user');
    const wrong = await t.app.inject({
      method: 'DELETE',
      url: '/api/user',
      headers: auth(u.token),
      payload: { password: 'Wrong123' },
    });
    expect(expectCode(wrong, 'WRONG_PASSWORD').errors).toEqual({ password: SETTINGS_MSG.wrongPassword });

    const trainer = await bookableTrainer(t);
    const startsAt = hourFromNow(30);
    await bookAndPay(t, u.token, trainer.id, startsAt);
    const other = await createAccount(t, 'user');
    expectCode(await hold(t, other.token, trainer.id, startsAt), 'SLOT_TAKEN');
  });

  it('limits: RATE_LIMITED', async () => {
    let last;
    for (let i = 0; i < 32; i++) {
      last = await t.app.inject({
        method: 'POST',
        url: '/api/users/login',
        remoteAddress: '10.9.9.9',
        payload: { email: `n${i}@example.com`, password: 'Wrong123' },
      });
    }
    expectCode(last!, 'RATE_LIMITED');
  });
});
