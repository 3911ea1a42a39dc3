// A trainer's booking policy (docs/product.md#booking-and-payment): the minimum notice, the buffer between
// sessions and date overrides decide which slots are offered (free-slots.ts) and held (hold-slot.ts);
// PUT /api/trainer/availability keeps what it is not sent (set-weekly-hours.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { BOOKING_MSG } from '@spotter/shared';
import { createAccount, useTestApp } from '../helper';
import { auth, bookableTrainer, buildClockApp } from '../support/bookings';

const t = await useTestApp();
// a Monday, on the hour
const MONDAY_8 = new Date('2027-01-04T08:00:00.000Z');
const clock = await buildClockApp(t.database, t.config.jwtSecret, MONDAY_8);
afterAll(() => clock.app.close());

const slotsAt = async (trainerId: string, now: Date) => {
  clock.setNow(now);
  return (await clock.app.inject(`/api/trainers/${trainerId}/slots`)).json().slots as string[];
};
const holdAt = (token: string, trainerId: string, startsAt: string) =>
  clock.app.inject({ method: 'POST', url: '/api/bookings', headers: auth(token), payload: { trainerId, startsAt } });
const at = (iso: string) => new Date(iso).toISOString();

describe('minimum notice', () => {
  it('offers a slot only when it starts more than the notice after now: exactly at the boundary it is not', async () => {
    const trainer = await bookableTrainer(t, { minNoticeHours: 2 });
    const user = await createAccount(t, 'user');
    // 10:00 is exactly 2 hours after 08:00: not offered; a millisecond earlier it still is
    expect((await slotsAt(trainer.id, new Date(MONDAY_8.getTime() - 1)))[0]).toBe(at('2027-01-04T10:00:00Z'));
    expect((await slotsAt(trainer.id, MONDAY_8))[0]).toBe(at('2027-01-04T11:00:00Z'));
    const refused = await holdAt(user.token, trainer.id, at('2027-01-04T10:00:00Z'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: BOOKING_MSG.notASlot, errors: { startsAt: BOOKING_MSG.notASlot } });
    expect((await holdAt(user.token, trainer.id, at('2027-01-04T11:00:00Z'))).statusCode).toBe(201);
  });

  it('is 12 hours for a trainer who never chose one', async () => {
    const trainer = await createAccount(t, 'trainer', { price: 100 });
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/trainer/availability',
      headers: auth(trainer.token),
      payload: { timeZone: 'UTC', weekly: Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: [9, 20, 21] })) },
    });
    expect(put.json().minNoticeHours).toBe(12);
    // 20:00 is exactly 12 hours after 08:00
    expect((await slotsAt(trainer.id, MONDAY_8)).slice(0, 2)).toEqual([at('2027-01-04T21:00:00Z'), at('2027-01-05T09:00:00Z')]);
  });
});

describe('buffer between sessions', () => {
  it('with 15 minutes, the slots right before and after a held one are not offered nor held; with 0 they are', async () => {
    const buffered = await bookableTrainer(t, { bufferMinutes: 15 });
    const tight = await bookableTrainer(t, { bufferMinutes: 0 });
    const [first, second] = [await createAccount(t, 'user'), await createAccount(t, 'user')];
    for (const trainer of [buffered, tight]) {
      clock.setNow(MONDAY_8);
      expect((await holdAt(first.token, trainer.id, at('2027-01-04T12:00:00Z'))).statusCode).toBe(201);
    }
    const bufferedSlots = await slotsAt(buffered.id, MONDAY_8);
    expect(bufferedSlots).not.toContain(at('2027-01-04T11:00:00Z'));
    expect(bufferedSlots).not.toContain(at('2027-01-04T12:00:00Z'));
    expect(bufferedSlots).not.toContain(at('2027-01-04T13:00:00Z'));
    expect(bufferedSlots).toContain(at('2027-01-04T10:00:00Z'));
    expect(bufferedSlots).toContain(at('2027-01-04T14:00:00Z'));
    const refused = await holdAt(second.token, buffered.id, at('2027-01-04T13:00:00Z'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(BOOKING_MSG.notASlot);

    const tightSlots = await slotsAt(tight.id, MONDAY_8);
    expect(tightSlots).toContain(at('2027-01-04T11:00:00Z'));
    expect(tightSlots).not.toContain(at('2027-01-04T12:00:00Z'));
    expect(tightSlots).toContain(at('2027-01-04T13:00:00Z'));
    expect((await holdAt(second.token, tight.id, at('2027-01-04T13:00:00Z'))).statusCode).toBe(201);
  });

  it('frees the neighbours again when the hold runs out', async () => {
    const trainer = await bookableTrainer(t, { bufferMinutes: 30 });
    const user = await createAccount(t, 'user');
    clock.setNow(MONDAY_8);
    expect((await holdAt(user.token, trainer.id, at('2027-01-04T15:00:00Z'))).statusCode).toBe(201);
    expect(await slotsAt(trainer.id, MONDAY_8)).not.toContain(at('2027-01-04T16:00:00Z'));
    // the 10-minute hold has run out
    expect(await slotsAt(trainer.id, new Date(MONDAY_8.getTime() + 11 * 60_000))).toContain(at('2027-01-04T16:00:00Z'));
  });
});

describe('date overrides', () => {
  it("a day off has no slots; a date's own hours replace its weekday's", async () => {
    const trainer = await bookableTrainer(t, {
      weekly: Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: [9, 10] })),
      overrides: [
        { date: '2027-01-05', hours: [] },
        { date: '2027-01-06', hours: [18, 19] },
      ],
    });
    const user = await createAccount(t, 'user');
    const slots = await slotsAt(trainer.id, MONDAY_8);
    expect(slots.slice(0, 5)).toEqual([
      // 09:00 is within the 1-hour notice
      at('2027-01-04T10:00:00Z'),
      // Tuesday 5 January: a day off
      at('2027-01-06T18:00:00Z'),
      at('2027-01-06T19:00:00Z'),
      at('2027-01-07T09:00:00Z'),
      at('2027-01-07T10:00:00Z'),
    ]);
    expect((await holdAt(user.token, trainer.id, at('2027-01-05T09:00:00Z'))).statusCode).toBe(400);
    expect((await holdAt(user.token, trainer.id, at('2027-01-06T09:00:00Z'))).statusCode).toBe(400);
    expect((await holdAt(user.token, trainer.id, at('2027-01-06T18:00:00Z'))).statusCode).toBe(201);
  });

  it("leaves a date out of the answer once it is past in the trainer's zone", async () => {
    const trainer = await bookableTrainer(t, {
      timeZone: 'Asia/Tokyo',
      overrides: [
        { date: '2027-01-04', hours: [] },
        { date: '2027-01-05', hours: [] },
      ],
    });
    const overridesAt = async (now: string) => {
      clock.setNow(new Date(now));
      return (await clock.app.inject({ url: '/api/trainer/availability', headers: auth(trainer.token) })).json().overrides;
    };
    // 14:59 UTC is 23:59 on 4 January in Tokyo; 15:00 UTC is midnight there
    expect(await overridesAt('2027-01-04T14:59:00Z')).toHaveLength(2);
    expect(await overridesAt('2027-01-04T15:00:00Z')).toEqual([{ date: '2027-01-05', hours: [] }]);
  });

  it('extra hours on a date of a weekday without hours', async () => {
    const trainer = await bookableTrainer(t, { weekly: [], overrides: [{ date: '2027-01-09', hours: [7] }] });
    expect(await slotsAt(trainer.id, MONDAY_8)).toEqual([at('2027-01-09T07:00:00Z')]);
  });
});

describe('PUT /api/trainer/availability: the policy', () => {
  const put = (token: string, payload: object) =>
    t.app.inject({ method: 'PUT', url: '/api/trainer/availability', headers: auth(token), payload });
  const get = async (token: string) => (await t.app.inject({ url: '/api/trainer/availability', headers: auth(token) })).json();
  const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

  it('stores notice, buffer, overrides (one per date, the last wins, past dates dropped) and the place; keeps what is left out', async () => {
    const trainer = await createAccount(t, 'trainer');
    const [soon, later] = [dayFromToday(3), dayFromToday(5)];
    const weekly = [{ weekday: 1, hours: [9] }];
    const res = await put(trainer.token, {
      timeZone: 'UTC',
      weekly,
      minNoticeHours: 4,
      bufferMinutes: 15,
      overrides: [
        { date: later, hours: [] },
        { date: soon, hours: [9, 8, 9] },
        { date: '2020-01-01', hours: [9] },
        { date: soon, hours: [11, 10, 10] },
      ],
      location: { kind: 'address', text: '  12 Nile St, Zamalek ' },
    });
    expect(res.statusCode).toBe(200);
    const saved = {
      timeZone: 'UTC',
      weekly,
      minNoticeHours: 4,
      bufferMinutes: 15,
      overrides: [
        { date: soon, hours: [10, 11] },
        { date: later, hours: [] },
      ],
      location: { kind: 'address', text: '12 Nile St, Zamalek' },
    };
    expect(res.json()).toEqual(saved);
    expect(await get(trainer.token)).toEqual(saved);
    // a client that knows only the hours changes nothing else
    expect((await put(trainer.token, { timeZone: 'UTC', weekly: [] })).json()).toEqual({ ...saved, weekly: [] });
    // null removes the place; the rest stays
    expect((await put(trainer.token, { timeZone: 'UTC', weekly, location: null })).json()).toEqual({ ...saved, location: null });
    expect((await put(trainer.token, { timeZone: 'UTC', weekly, overrides: [] })).json()).toEqual({
      ...saved,
      location: null,
      overrides: [],
    });
  });

  it.each([
    [{ minNoticeHours: 0 }, 'minNoticeHours', 'Choose a minimum notice from 1 to 72 hours'],
    [{ minNoticeHours: 73 }, 'minNoticeHours', 'Choose a minimum notice from 1 to 72 hours'],
    [{ minNoticeHours: 1.5 }, 'minNoticeHours', 'Choose a minimum notice from 1 to 72 hours'],
    [{ bufferMinutes: 10 }, 'bufferMinutes', 'Choose a buffer of 0, 15 or 30 minutes'],
    [{ overrides: [{ date: '2027-02-30', hours: [9] }] }, 'overrides.0.date', 'Choose a date as YYYY-MM-DD'],
    [{ overrides: [{ date: '2027-02-03', hours: [24] }] }, 'overrides.0.hours.0', undefined],
    [
      { location: { kind: 'online', text: 'http://meet.example.com/x' } },
      'location.text',
      'Enter the meeting link, starting with https://',
    ],
    [{ location: { kind: 'address', text: ' ' } }, 'location.text', 'Enter the address'],
    [
      { location: { kind: 'garden', text: 'x' } },
      'location.kind',
      'Choose where sessions take place: an address, the client’s home or online',
    ],
  ])('refuses %j with 400 in the product’s words, and changes nothing', async (policy, field, message) => {
    const trainer = await bookableTrainer(t, { minNoticeHours: 6 });
    const before = await get(trainer.token);
    const res = await put(trainer.token, { timeZone: 'UTC', weekly: [{ weekday: 2, hours: [7] }], ...policy });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toHaveProperty([field]);
    if (message) expect(res.json().errors[field]).toBe(message);
    expect(await get(trainer.token)).toEqual(before);
  });
});
