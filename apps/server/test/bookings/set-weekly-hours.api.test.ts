// The set-weekly-hours use case (src/modules/bookings/set-weekly-hours.ts) and the weekly hours it answers, through their routes.
import { describe, expect, it } from 'vitest';
import { BOOKING_MSG, ROLE_MSG } from '@spotter/shared';
import { createAccount, useTestApp } from '../helper';
import { auth } from '../support/bookings';

const t = await useTestApp();
const user = await createAccount(t, 'user');

const put = (token: string | undefined, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/trainer/availability', headers: auth(token), payload });
const get = (token?: string) => t.app.inject({ url: '/api/trainer/availability', headers: auth(token) });

describe('/api/trainer/availability', () => {
  const POLICY = { minNoticeHours: 12, bufferMinutes: 0, overrides: [], location: null };

  it('starts empty in Africa/Cairo, saves normalised weekly hours, and reads them back', async () => {
    const trainer = await createAccount(t, 'trainer');
    expect((await get(trainer.token)).json()).toEqual({ timeZone: 'Africa/Cairo', weekly: [], ...POLICY });
    const res = await put(trainer.token, {
      timeZone: 'america/new_york',
      weekly: [
        { weekday: 3, hours: [18, 7, 7] },
        { weekday: 1, hours: [9] },
        { weekday: 3, hours: [8] },
        { weekday: 5, hours: [] },
      ],
    });
    expect(res.statusCode).toBe(200);
    const saved = {
      timeZone: 'America/New_York',
      weekly: [
        { weekday: 1, hours: [9] },
        { weekday: 3, hours: [7, 8, 18] },
      ],
      ...POLICY,
    };
    expect(res.json()).toEqual(saved);
    expect((await get(trainer.token)).json()).toEqual(saved);
    // the zone defaults to Cairo when left out
    expect((await put(trainer.token, { weekly: [] })).json()).toEqual({ timeZone: 'Africa/Cairo', weekly: [], ...POLICY });
  });

  it.each([
    [{ timeZone: 'Mars/Olympus_Mons', weekly: [] }, 'timeZone'],
    [{ timeZone: '', weekly: [] }, 'timeZone'],
    [{ timeZone: 'UTC', weekly: [{ weekday: 7, hours: [9] }] }, 'weekly.0.weekday'],
    [{ timeZone: 'UTC', weekly: [{ weekday: 1, hours: [24] }] }, 'weekly.0.hours.0'],
    [{ timeZone: 'UTC', weekly: [{ weekday: 1, hours: [9.5] }] }, 'weekly.0.hours.0'],
    [{ timeZone: 'UTC', weekly: 'mondays' }, 'weekly'],
  ])('rejects %j (%s)', async (payload, field) => {
    const trainer = await createAccount(t, 'trainer');
    const res = await put(trainer.token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toHaveProperty([field]);
    if (field === 'timeZone') expect(res.json().errors.timeZone).toBe(BOOKING_MSG.badTimeZone);
    expect((await get(trainer.token)).json().weekly).toEqual([]);
  });

  it('is for trainers only', async () => {
    expect((await put(undefined, { weekly: [] })).statusCode).toBe(401);
    const asUser = await put(user.token, { weekly: [] });
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json().message).toBe(ROLE_MSG.loginAsTrainer);
    expect((await get(user.token)).statusCode).toBe(403);
  });
});
