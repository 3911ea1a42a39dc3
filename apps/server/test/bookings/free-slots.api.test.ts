// The free-slots use case (src/modules/bookings/free-slots.ts) and the slot arithmetic under it (slots.ts), through its route.
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@spotter/shared';
import { localHourToUtc, weeklySlots } from '../../src/modules/bookings/slots';
import { createAccount, insertTrainer, useTestApp } from '../helper';
import { auth, bookableTrainer, buildClockApp, hold, hourFromNow, slotsOf } from '../support/bookings';

const t = await useTestApp();
const user = await createAccount(t, 'user');

/** Weekday (0 = Sunday), hour and minute of an instant on the clocks of a zone. */
function localParts(iso: string, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return {
    weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
  };
}

describe('GET /api/trainers/:id/slots', () => {
  it('is public; 404 for an unknown, unlisted or malformed trainer id; empty without weekly hours', async () => {
    const hidden = await insertTrainer(t, { emailVerifiedAt: null });
    for (const id of [hidden.id, user.id, '6f1c2b9e-0000-4000-8000-000000000000', 'nope']) {
      const res = await t.app.inject(`/api/trainers/${id}/slots`);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(SERVER_MSG.trainerNotFound);
    }
    const bare = await insertTrainer(t);
    expect((await t.app.inject(`/api/trainers/${bare.id}/slots`)).json()).toEqual({ slots: [], timeZone: 'Africa/Cairo' });
  });

  it.each([
    ['America/New_York', 'west of UTC'],
    ['Asia/Tokyo', 'east of UTC'],
    ['Asia/Kolkata', 'a half-hour offset'],
  ])('in %s (%s) the slots are the local weekly hours, in UTC, over the next 14 days', async (timeZone) => {
    const weekly = [
      { weekday: 1, hours: [6, 18] },
      { weekday: 6, hours: [0, 23] },
    ];
    const trainer = await bookableTrainer(t, { timeZone, weekly });
    const before = Date.now();
    const res = (await t.app.inject(`/api/trainers/${trainer.id}/slots`)).json();
    expect(res.timeZone).toBe(timeZone);
    // two of each weekly hour fit in 14 days (no clock change in these zones in the window), less one
    // that starts within the trainer's 1-hour notice
    const expected = weeklySlots({ weekly, timeZone, now: new Date(before), days: 14 }).filter((s) => s > before + 3600_000);
    expect(expected.length).toBeGreaterThanOrEqual(7);
    expect(res.slots).toEqual(expected.map((s) => new Date(s).toISOString()));
    expect([...res.slots].sort()).toEqual(res.slots);
    for (const slot of res.slots) {
      expect(slot).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/);
      const local = localParts(slot, timeZone);
      expect(local.minute).toBe(0);
      expect(weekly.find((w) => w.weekday === local.weekday)?.hours).toContain(local.hour);
      expect(Date.parse(slot)).toBeGreaterThan(before);
      expect(Date.parse(slot)).toBeLessThanOrEqual(Date.now() + 14 * 24 * 3600_000);
    }
  });

  it('leaves out held and booked slots, and gives a released one back', async () => {
    const trainer = await bookableTrainer(t);
    const startsAt = hourFromNow(30);
    const slots = await slotsOf(t, trainer.id);
    // the first whole hour past the trainer's 1-hour notice
    expect(slots[0]).toBe(hourFromNow(1));
    expect(slots).toContain(startsAt);
    const held = await hold(t, user.token, trainer.id, startsAt);
    expect(await slotsOf(t, trainer.id)).not.toContain(startsAt);
    await t.app.inject({ method: 'POST', url: `/api/bookings/${held.json().booking._id}/cancel`, headers: auth(user.token) });
    expect(await slotsOf(t, trainer.id)).toContain(startsAt);
  });

  it('many trainers asked for at the same time each get their own slots, less their own holds', async () => {
    // requests that miss the cache together are read in shared statements (platform/batch-loader.ts)
    const zones = ['UTC', 'Asia/Tokyo', 'Asia/Kolkata', 'Africa/Nairobi']; // no clock changes
    const plans = Array.from({ length: 14 }, (_, i) => ({
      timeZone: zones[i % zones.length],
      weekly: [{ weekday: i % 7, hours: [i, 12 + (i % 5)] }],
    }));
    const trainers = await Promise.all(plans.map((plan) => bookableTrainer(t, plan)));
    // every third trainer has a slot held by a user of its own
    const heldSlots = new Map<string, string>();
    for (const [i, trainer] of trainers.entries()) {
      if (i % 3) continue;
      // a slot that cannot start (and leave the window) while the test runs
      const first = (await slotsOf(t, trainer.id)).find((slot) => Date.parse(slot) > Date.now() + 3600_000)!;
      const holder = await createAccount(t, 'user');
      expect((await hold(t, holder.token, trainer.id, first)).statusCode).toBe(201);
      heldSlots.set(trainer.id, first);
    }
    const before = Date.now();
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    const answers = await Promise.all(
      [...trainers.map((tr, i) => (i % 2 ? tr.id.toUpperCase() : tr.id)), unknown].map((id) =>
        t.app.inject(`/api/trainers/${id}/slots`),
      ),
    );
    for (const [i, trainer] of trainers.entries()) {
      const { timeZone, slots } = answers[i].json();
      expect(timeZone).toBe(plans[i].timeZone);
      // two weeks of two weekly hours, less one within the 1-hour notice, less the held one
      const scheduled = weeklySlots({ ...plans[i], now: new Date(before), days: 14 }).filter((s) => s > before + 3600_000);
      expect(slots).toHaveLength(scheduled.length - (heldSlots.has(trainer.id) ? 1 : 0));
      expect(scheduled.length).toBeGreaterThanOrEqual(3);
      if (heldSlots.has(trainer.id)) expect(slots).not.toContain(heldSlots.get(trainer.id));
      for (const slot of slots) {
        const local = localParts(slot, timeZone);
        expect(local.weekday).toBe(plans[i].weekly[0].weekday);
        expect(plans[i].weekly[0].hours).toContain(local.hour);
      }
    }
    expect(answers[trainers.length].statusCode).toBe(404);
    expect(answers[trainers.length].json().message).toBe(SERVER_MSG.trainerNotFound);
  });
});

const clock = await buildClockApp(t.database, t.config.jwtSecret, new Date('2026-03-05T12:00:00Z'));
afterAll(() => clock.app.close());
const dstTrainer = await bookableTrainer(t, { timeZone: 'America/New_York', weekly: [{ weekday: 0, hours: [1, 2, 3, 9] }] });

describe('slots around daylight saving changes (America/New_York)', () => {
  const trainer = dstTrainer;
  const slotsAt = async (now: string) => {
    clock.setNow(new Date(now));
    return (await clock.app.inject(`/api/trainers/${trainer.id}/slots`)).json().slots;
  };

  it('spring forward: 2 AM does not exist on 8 March, and 9 AM moves from 14:00Z to 13:00Z', async () => {
    expect(await slotsAt('2026-03-05T12:00:00Z')).toEqual([
      '2026-03-08T06:00:00.000Z', // 1 AM EST
      '2026-03-08T07:00:00.000Z', // 3 AM EDT (2 AM skipped)
      '2026-03-08T13:00:00.000Z', // 9 AM EDT
      '2026-03-15T05:00:00.000Z',
      '2026-03-15T06:00:00.000Z',
      '2026-03-15T07:00:00.000Z',
      '2026-03-15T13:00:00.000Z',
    ]);
    // the week before, still EST
    expect((await slotsAt('2026-02-27T12:00:00Z')).slice(0, 4)).toEqual([
      '2026-03-01T06:00:00.000Z',
      '2026-03-01T07:00:00.000Z',
      '2026-03-01T08:00:00.000Z',
      '2026-03-01T14:00:00.000Z',
    ]);
  });

  it('fall back: 1 AM on 1 November happens twice and is offered once', async () => {
    expect(await slotsAt('2026-10-29T12:00:00Z')).toEqual([
      '2026-11-01T05:00:00.000Z', // 1 AM EDT (first of the two)
      '2026-11-01T07:00:00.000Z', // 2 AM EST
      '2026-11-01T08:00:00.000Z', // 3 AM EST
      '2026-11-01T14:00:00.000Z', // 9 AM EST
      '2026-11-08T06:00:00.000Z',
      '2026-11-08T07:00:00.000Z',
      '2026-11-08T08:00:00.000Z',
      '2026-11-08T14:00:00.000Z',
    ]);
  });

  it('a booking on the DST day is checked against the same slots', async () => {
    clock.setNow(new Date('2026-03-05T12:00:00Z'));
    const me = await createAccount(t, 'user');
    const book = (startsAt: string) =>
      clock.app.inject({
        method: 'POST',
        url: '/api/bookings',
        headers: auth(me.token),
        payload: { trainerId: trainer.id, startsAt },
      });
    expect((await book('2026-03-08T08:00:00.000Z')).statusCode).toBe(400); // would be 3 AM EST: no such slot
    expect((await book('2026-03-08T07:00:00.000Z')).statusCode).toBe(201);
    expect(await slotsAt('2026-03-05T12:01:00Z')).not.toContain('2026-03-08T07:00:00.000Z');
  });

  it('localHourToUtc and weeklySlots agree with the zone database', () => {
    expect(localHourToUtc(2026, 3, 8, 2, 'America/New_York')).toBeUndefined();
    // London jumps from 01:00 GMT to 02:00 BST on 29 March 2026
    expect(new Date(localHourToUtc(2026, 3, 29, 0, 'Europe/London')!).toISOString()).toBe('2026-03-29T00:00:00.000Z');
    expect(localHourToUtc(2026, 3, 29, 1, 'Europe/London')).toBeUndefined();
    expect(new Date(localHourToUtc(2026, 3, 29, 2, 'Europe/London')!).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    // a zone far east: Monday 00:00 in Kiritimati (+14) is Sunday 10:00 UTC
    const kiribati = weeklySlots({
      weekly: [{ weekday: 1, hours: [0] }],
      timeZone: 'Pacific/Kiritimati',
      now: new Date('2026-03-05T12:00:00Z'),
      days: 14,
    });
    expect(kiribati.map((s) => new Date(s).toISOString())).toEqual(['2026-03-08T10:00:00.000Z', '2026-03-15T10:00:00.000Z']);
  });
});
