// The trainer list's `nextFreeAt`, availability filters and `soonest` order agree with the slots the
// booking dialog offers (GET /api/trainers/:id/slots), in each trainer's zone, and follow a booking
// at once (docs/decisions/040-finding-free-trainers.md).
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createAccount, useTestApp } from './helper';
import { bookableTrainer, hold, slotsOf } from './support/bookings';
import { until } from './support/until';

const t = await useTestApp();
const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** The trainer's minimum notice in hours (12 unless set). */
async function noticeOf(trainerId: string): Promise<number> {
  const result = (await t.database.db.execute(
    sql`select min_notice_hours::int as n from availability where trainer_id = ${trainerId}`,
  )) as unknown as { rows: Array<{ n: number }> };
  return result.rows[0]?.n ?? 0;
}

/**
 * The slots the booking dialog offers: GET /slots, outside the minimum notice (free-slots.ts leaves
 * those out itself once it applies the notice; then the filter changes nothing).
 */
async function offered(trainerId: string): Promise<string[]> {
  const notice = await noticeOf(trainerId);
  return (await slotsOf(t, trainerId)).filter((s) => Date.parse(s) > Date.now() + notice * HOUR);
}

async function list(query: string) {
  const res = await t.app.inject(`/api/trainers?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().viewAllTrainers as Array<{ _id: string; nextFreeAt: string | null }>;
}
const idsOf = async (query: string) => (await list(query)).map((x) => x._id);

/** The local date (YYYY-MM-DD) and hour of an instant in a zone. */
function local(iso: string, timeZone: string) {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
    })
      .formatToParts(new Date(iso))
      .map((x) => [x.type, x.value]),
  );
  return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour) };
}
const everyDay = (hours: number[]) => Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours }));
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

// evenings only (UTC), mornings only (UTC), mornings in Tokyo (late evening in UTC), no hours
const evenings = await bookableTrainer(t, { weekly: everyDay([18, 19, 20]) });
const mornings = await bookableTrainer(t, { weekly: everyDay([7, 8, 9]) });
const tokyo = await bookableTrainer(t, { timeZone: 'Asia/Tokyo', weekly: everyDay([7, 8]) });
const none = await createAccount(t, 'trainer');
// one weekday only, three days ahead (UTC): two slots in the 14 days, both well outside the notice
const inThreeDays = Date.now() + 3 * DAY;
const oneDay = await bookableTrainer(t, { weekly: [{ weekday: new Date(inThreeDays).getUTCDay(), hours: [10] }] });
const zones = new Map([
  [evenings.id, 'UTC'],
  [mornings.id, 'UTC'],
  [tokyo.id, 'Asia/Tokyo'],
  [none.id, 'UTC'],
  [oneDay.id, 'UTC'],
]);
const all = [...zones.keys()];
const ids = `ids=${all.join(',')}`;

describe('nextFreeAt', () => {
  it('is the first slot the booking dialog offers, on the list and the profile; null without hours', async () => {
    const items = await list(ids);
    expect(items.map((x) => x._id).sort()).toEqual([...all].sort());
    for (const item of items) {
      const first = (await offered(item._id))[0] ?? null;
      expect(item.nextFreeAt).toBe(first);
      const profile = (await t.app.inject(`/api/trainerData/${item._id}`)).json().trainerData;
      expect(profile.nextFreeAt).toBe(first);
    }
    expect(items.find((x) => x._id === none.id)?.nextFreeAt).toBeNull();
    expect(items.find((x) => x._id === evenings.id)?.nextFreeAt).not.toBeNull();
  });
});

describe('available and availableOn', () => {
  it('each filter keeps exactly the trainers with an offered slot it asks for, in their own zone', async () => {
    const slotsBy = new Map<string, string[]>();
    for (const id of all) slotsBy.set(id, await offered(id));
    const now = Date.now();
    const expected = (test: (slot: string, zone: string) => boolean) =>
      all.filter((id) => slotsBy.get(id)!.some((s) => test(s, zones.get(id)!))).sort();
    const todayIn = (zone: string) => local(new Date(now).toISOString(), zone).date;
    const cases: Array<[string, (slot: string, zone: string) => boolean]> = [
      ['available=mornings', (s, z) => local(s, z).hour >= 6 && local(s, z).hour < 12],
      ['available=evenings', (s, z) => local(s, z).hour >= 17 && local(s, z).hour < 22],
      ['available=week', (s) => Date.parse(s) <= now + 7 * DAY],
      ['available=today', (s, z) => local(s, z).date === todayIn(z)],
    ];
    for (let d = 0; d < 15; d += 2) {
      const date = utcDate(now + d * DAY);
      cases.push([`availableOn=${date}`, (s, z) => local(s, z).date === date]);
      cases.push([
        `availableOn=${date}&available=evenings`,
        (s, z) => local(s, z).date === date && local(s, z).hour >= 17 && local(s, z).hour < 22,
      ]);
    }
    for (const [query, test] of cases) {
      expect((await idsOf(`${ids}&${query}`)).sort(), query).toEqual(expected(test));
    }
    // the same from the slots themselves, when the per-trainer summaries have run out (a slot passed
    // since): a different page size, as the cache keeps the answers above (this write announces nothing)
    await t.database.db.execute(
      sql`update trainer_slot_refreshes set valid_until = '-infinity' where trainer_id = any(${`{${all.join(',')}}`}::uuid[])`,
    );
    for (const [query, test] of cases) {
      expect((await idsOf(`${ids}&${query}&limit=99`)).sort(), query).toEqual(expected(test));
    }
    const soonest = await list(`${ids}&sort=soonest&limit=98`);
    for (const item of soonest) expect(item.nextFreeAt).toBe(slotsBy.get(item._id)![0] ?? null);
    // the plain cases, spelled out
    expect(await idsOf(`${ids}&available=evenings`)).toContain(evenings.id);
    expect(await idsOf(`${ids}&available=evenings`)).not.toContain(mornings.id);
    expect(await idsOf(`${ids}&available=mornings`)).toEqual(expect.arrayContaining([mornings.id, tokyo.id]));
    expect(await idsOf(`${ids}&available=mornings`)).not.toContain(evenings.id);
    // a day off: the day before the one weekday excludes that trainer, the weekday itself keeps them
    expect(await idsOf(`${ids}&availableOn=${utcDate(inThreeDays - DAY)}`)).not.toContain(oneDay.id);
    expect(await idsOf(`${ids}&availableOn=${utcDate(inThreeDays)}`)).toContain(oneDay.id);
    expect(await idsOf(`${ids}&available=week`)).not.toContain(none.id);
  });

  it('answers 400 in the product’s words for a bad value', async () => {
    for (const [query, field, message] of [
      ['available=noon', 'available', 'available must be one of today, week, mornings, evenings'],
      ['availableOn=2026-02-30', 'availableOn', 'Choose a date as YYYY-MM-DD'],
      ['availableOn=tomorrow', 'availableOn', 'Choose a date as YYYY-MM-DD'],
    ]) {
      const res = await t.app.inject(`/api/trainers?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errors[field], query).toBe(message);
    }
  });
});

describe('sort=soonest', () => {
  it('orders by the next offered slot, trainers with none last, ties by id', async () => {
    const firsts = new Map<string, string | null>();
    for (const id of all) firsts.set(id, (await offered(id))[0] ?? null);
    const expected = [...all].sort((a, b) => {
      const x = firsts.get(a);
      const y = firsts.get(b);
      if (x !== y) return x === null ? 1 : y === null ? -1 : Date.parse(x!) - Date.parse(y!);
      return a < b ? -1 : 1;
    });
    expect(await idsOf(`${ids}&sort=soonest`)).toEqual(expected);
    expect(expected.at(-1)).toBe(none.id);
  });
});

describe('after a booking', () => {
  it('the next answer follows a hold that takes a trainer’s slots, the filters and order too', async () => {
    const [first, second] = await offered(oneDay.id);
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    const one = (await list(`ids=${oneDay.id}`))[0];
    expect(one.nextFreeAt).toBe(first);
    const day = `availableOn=${utcDate(Date.parse(first))}`;
    expect(await idsOf(`ids=${oneDay.id}&${day}`)).toEqual([oneDay.id]);

    const a = await createAccount(t, 'user');
    expect((await hold(t, a.token, oneDay.id, first)).statusCode).toBe(201);
    expect((await list(`ids=${oneDay.id}`))[0].nextFreeAt).toBe(second);
    expect((await t.app.inject(`/api/trainerData/${oneDay.id}`)).json().trainerData.nextFreeAt).toBe(second);
    expect(await idsOf(`ids=${oneDay.id}&${day}`)).toEqual([]);

    const b = await createAccount(t, 'user');
    expect((await hold(t, b.token, oneDay.id, second)).statusCode).toBe(201);
    expect(await offered(oneDay.id)).toEqual([]);
    expect((await list(`ids=${oneDay.id}`))[0].nextFreeAt).toBeNull();
    expect(await idsOf(`ids=${oneDay.id}&available=week`)).toEqual([]);
    expect((await idsOf(`ids=${oneDay.id},${evenings.id}&sort=soonest`))[0]).toBe(evenings.id);
  });

  it('new weekly hours show in the next answer', async () => {
    const trainer = await bookableTrainer(t, { weekly: everyDay([18]) });
    expect(await idsOf(`ids=${trainer.id}&available=mornings`)).toEqual([]);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/trainer/availability',
      headers: { authorization: trainer.token },
      payload: { timeZone: 'UTC', weekly: everyDay([8]) },
    });
    expect(res.statusCode).toBe(200);
    expect(await idsOf(`ids=${trainer.id}&available=mornings`)).toEqual([trainer.id]);
    expect((await list(`ids=${trainer.id}`))[0].nextFreeAt).toBe((await offered(trainer.id))[0]);
  });

  it('a change written by hand in SQL (as another process would) shows within a second', async () => {
    const trainer = await bookableTrainer(t, { weekly: everyDay([19]) });
    expect(await idsOf(`ids=${trainer.id}&available=mornings`)).toEqual([]);
    await t.database.db.execute(
      sql`update availability set weekly = ${JSON.stringify(everyDay([9]))}::jsonb where trainer_id = ${trainer.id}`,
    );
    // PGlite: the next answer; PostgreSQL: once the notification arrives (docs/caching.md)
    await until(async () => (await idsOf(`ids=${trainer.id}&available=mornings`)).length === 1, 'the morning hours', 1000);
    expect((await list(`ids=${trainer.id}`))[0].nextFreeAt).toBe((await offered(trainer.id))[0]);
  });
});
