import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, createAccount, createFreshPgDatabase, insertTrainer, type TestApp } from './helper';
import { auth } from './support/bookings';
import { until } from './support/until';

/**
 * Invalidation comes from the database (docs/caching.md, docs/decisions/036-invalidation-by-the-database.md):
 * an UPDATE typed in plain SQL, outside any server, shows in the next answers of every server
 * within a second. On PostgreSQL: two servers on a database of this file's own, and the SQL from a
 * client of its own; on PGlite: the one server, and the SQL on its one connection.
 */
const fresh = await createFreshPgDatabase();
const a = await buildTestApp({}, { databaseUrl: fresh?.url });
// the same signing secret, as processes behind one load balancer have
const b = fresh ? await buildTestApp({ JWT_SECRET: a.config.jwtSecret }, { databaseUrl: fresh.url }) : undefined;
const outsider = fresh ? new pg.Client({ connectionString: fresh.url }) : undefined;
await outsider?.connect();
afterAll(async () => {
  await outsider?.end();
  await b?.close();
  await a.close();
  await fresh?.drop();
});

const servers: Array<[string, TestApp]> = b
  ? [
      ['A', a],
      ['B', b],
    ]
  : [['A', a]];
/** Plain SQL from outside the servers (ids and values are the test's own, quoted by it). */
const outside = async (text: string) => {
  if (outsider) await outsider.query(text);
  else await a.database.db.execute(sql.raw(text));
};
const get = async (t: TestApp, url: string, token?: string) => {
  const res = await t.app.inject({ url, headers: auth(token) });
  expect(res.statusCode).toBe(200);
  return res.json();
};
/** Every server shows `expected` within a second of the change. */
async function seenEverywhere(read: (t: TestApp) => Promise<unknown>, expected: unknown, what: string) {
  for (const [name, t] of servers) {
    await until(async () => JSON.stringify(await read(t)) === JSON.stringify(expected), `${what} on ${name}`, 1000);
  }
}
/** Every server has the answer cached: asked twice, answered from memory the second time. */
async function cachedEverywhere(read: (t: TestApp) => Promise<unknown>, expected: unknown) {
  for (const [, t] of servers) {
    expect(await read(t)).toEqual(expected);
    expect(await read(t)).toEqual(expected);
  }
}
let cities = 0;
const newCity = () => `Trigtown${Date.now().toString(36)}${++cities}`;

describe('a change made with plain SQL shows in the next answers', () => {
  it("a trainer's price and title: the list and the profile", async () => {
    const city = newCity();
    const tr = await insertTrainer(a, { city, title: 'Kettlebells', priceCents: 20_000 });
    const listed = async (t: TestApp) => {
      const [row] = (await get(t, `/api/trainers?city=${city}`)).viewAllTrainers as Array<{ title: string; price: number }>;
      return { title: row.title, price: row.price };
    };
    const profile = async (t: TestApp) => {
      const { title, price } = (await get(t, `/api/trainerData/${tr.id}`)).trainerData as { title: string; price: number };
      return { title, price };
    };
    await cachedEverywhere(listed, { title: 'Kettlebells', price: 200 });
    await cachedEverywhere(profile, { title: 'Kettlebells', price: 200 });

    await outside(`update accounts set price_cents = 35000 where id = '${tr.id}'`);
    await seenEverywhere(listed, { title: 'Kettlebells', price: 350 }, 'the new price in the list');
    await seenEverywhere(profile, { title: 'Kettlebells', price: 350 }, 'the new price on the profile');

    await outside(`update accounts set title = 'Olympic lifts' where id = '${tr.id}'`);
    await seenEverywhere(listed, { title: 'Olympic lifts', price: 350 }, 'the new title in the list');
    await seenEverywhere(profile, { title: 'Olympic lifts', price: 350 }, 'the new title on the profile');
  });

  it("a review's rating: the trainer's reviews", async () => {
    const tr = await insertTrainer(a, { city: newCity() });
    const u = await createAccount(a, 'user');
    await outside(`insert into reviews (trainer_id, user_id, rating, comment) values ('${tr.id}', '${u.id}', 4, 'Typed in SQL')`);
    const ratings = async (t: TestApp) =>
      ((await get(t, `/api/trainer/reviews/${tr.id}`)).allReviews as Array<{ rating: number }>).map((r) => r.rating);
    await seenEverywhere(ratings, [4], 'the inserted review');
    await cachedEverywhere(ratings, [4]);

    await outside(`update reviews set rating = 2 where trainer_id = '${tr.id}'`);
    await seenEverywhere(ratings, [2], 'the new rating');
  });

  it("a trainer's weekly hours: their own answer, kept per account", async () => {
    const tr = await createAccount(a, 'trainer');
    const hours = async (t: TestApp) => (await get(t, '/api/trainer/availability', tr.token)).weekly as unknown;
    const before = await hours(a);
    await cachedEverywhere(hours, before);

    await outside(
      `insert into availability (trainer_id, time_zone, weekly) values ('${tr.id}', 'UTC', '[{"weekday":1,"hours":[9,10]}]')
       on conflict (trainer_id) do update set weekly = excluded.weekly`,
    );
    await seenEverywhere(hours, [{ weekday: 1, hours: [9, 10] }], 'the new weekly hours');
  });

  it('a bulk write sends one notification, not one per row', async () => {
    const heard: string[] = [];
    const stop = await a.database.listen('spotter_change', (payload) => void heard.push(payload));
    try {
      const city = newCity();
      for (let i = 0; i < 3; i++) await insertTrainer(a, { city });
      await until(() => heard.length >= 3, 'the three inserts');
      heard.length = 0;
      await outside(`update accounts set title = 'Bulk ' || id where city = '${city}'`);
      await outside(`update accounts set rating_score = rating_score where role = 'trainer'`);
      await outside(`select pg_notify('spotter_change', 'marker')`);
      await until(() => heard.includes('marker'), 'the marker');
      expect(heard).toHaveLength(2);
      expect(heard[0]).toMatch(/^accounts:[0-9a-f-]{36},[0-9a-f-]{36},[0-9a-f-]{36}$/);
    } finally {
      await stop();
    }
  });
});
