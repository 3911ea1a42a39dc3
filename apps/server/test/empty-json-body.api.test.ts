import { describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@spotter/shared';
import { createAccount, useTestApp } from './helper';
import { auth, bookableTrainer, createOrder, hold, hourFromNow } from './support/bookings';

/**
 * `Content-Type: application/json` with an empty body is read as no body
 * (docs/decisions/034-socket-and-sign-in-limits.md).
 */
const t = await useTestApp();
const JSON_TYPE = { 'content-type': 'application/json' };
const post = (url: string, token: string | undefined, payload: string, method: 'POST' | 'PUT' | 'PATCH' = 'POST') =>
  t.app.inject({ method, url, headers: { ...auth(token), ...JSON_TYPE }, payload });

describe('an empty JSON body', () => {
  it('is no body: a spec client captures its order with Content-Type: application/json and nothing after it', async () => {
    const user = await createAccount(t, 'user');
    const trainer = await bookableTrainer(t);
    const held = await hold(t, user.token, trainer.id, hourFromNow(40));
    expect(held.statusCode).toBe(201);
    const bookingId = held.json().booking._id as string;
    const order = await createOrder(t, user.token, { bookingId });
    expect(order.statusCode).toBe(200);
    const captured = await post(`/api/orders/${order.json().id}/capture`, user.token, '');
    expect(captured.statusCode, captured.body).toBe(200);
    const bookings = (await t.app.inject({ url: '/api/bookings', headers: auth(user.token) })).json().bookings as Array<{
      _id: string;
      status: string;
    }>;
    expect(bookings.find((b) => b._id === bookingId)?.status).toBe('confirmed');
  });

  it('still answers a route that needs a body with its validation 400, as without a Content-Type and as {}', async () => {
    const user = await createAccount(t, 'user');
    const empty = await post('/api/orders', user.token, '');
    const none = await t.app.inject({ method: 'POST', url: '/api/orders', headers: auth(user.token) });
    const object = await post('/api/orders', user.token, '{}');
    for (const res of [empty, none, object]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: 'Choose a booking to pay for',
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        errors: { bookingId: 'Choose a booking to pay for' },
      });
    }
    const login = await post('/api/users/login', undefined, '');
    expect(login.statusCode).toBe(400);
    expect(login.json().errors).toEqual({ email: 'Email is required', password: 'Password is required' });
  });

  it('does not reset what a body of defaults would: a trainer sending no weekly hours keeps them', async () => {
    const trainer = await bookableTrainer(t);
    const before = (await t.app.inject({ url: '/api/trainer/availability', headers: auth(trainer.token) })).json();
    const res = await post('/api/trainer/availability', trainer.token, '', 'PUT');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: SERVER_MSG.bodyMissing, statusCode: 400, code: 'VALIDATION_FAILED' });
    const after = (await t.app.inject({ url: '/api/trainer/availability', headers: auth(trainer.token) })).json();
    expect(after).toEqual(before);
    expect(after.weekly.length).toBeGreaterThan(0);
  });

  it('parses every other body as before: malformed JSON, a poisoned prototype', async () => {
    const bad = await post('/api/newsletter', undefined, '{"email":');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('MALFORMED_JSON');
    const poisoned = await post('/api/newsletter', undefined, '{"email":"a@b.co","__proto__":{"admin":true}}');
    expect(poisoned.statusCode).toBe(400);
    const spaces = await post('/api/newsletter', undefined, '  ');
    expect(spaces.json().code).toBe('MALFORMED_JSON');
  });
});
