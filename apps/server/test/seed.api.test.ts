import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { seedDemo, seedIfEmpty } from '../src/db/seed';
import { buildTestApp, createFreshPgDatabase } from './helper';

describe('demo seed', () => {
  it('fills an empty database with verified trainers and varied ratings, and changes nothing when run again', async () => {
    // on PostgreSQL the shared test database is not empty: seed a database of this test's own
    const fresh = await createFreshPgDatabase();
    const t = await buildTestApp({}, fresh ? { databaseUrl: fresh.url } : {});
    try {
      expect(await seedIfEmpty(t.database.db)).toBe(true);
      const count = async () =>
        (await t.database.db.execute(sql`select
          (select count(*)::int from accounts where role = 'trainer' and email_verified_at is not null) trainers,
          (select count(distinct user_id)::int from reviews) reviewers,
          (select count(*)::int from reviews) reviews,
          (select count(distinct rating_avg)::int from accounts where role = 'trainer') ratings,
          (select min(price_cents)::int from accounts where role = 'trainer') min_price,
          (select max(price_cents)::int from accounts where role = 'trainer') max_price,
          (select count(distinct city)::int from accounts where role = 'trainer') cities,
          (select count(distinct gender)::int from accounts where role = 'trainer') genders,
          (select count(*)::int from accounts a where a.weight > 0 and (select array_agg(w.weight) from weight_entries w
            where w.account_id = a.id) is distinct from array[a.weight]) without_first_weight`)) as unknown as {
          rows: Array<Record<string, number>>;
        };
      const first = (await count()).rows[0];
      expect(first.trainers).toBeGreaterThanOrEqual(48);
      expect(first.reviewers).toBeGreaterThanOrEqual(10);
      expect(first.ratings).toBeGreaterThan(10);
      expect(first.min_price).toBeGreaterThanOrEqual(10000);
      expect(first.max_price).toBeLessThanOrEqual(90000);
      expect(first.cities).toBeGreaterThan(5);
      expect(first.genders).toBe(2);
      // every demo account's weight chart starts from its sign-up weight, once
      expect(first.without_first_weight).toBe(0);
      expect(await seedIfEmpty(t.database.db)).toBe(false);
      await seedDemo(t.database.db);
      expect((await count()).rows[0]).toEqual(first);
      const list = (await t.app.inject('/api/trainers?limit=100')).json();
      expect(list.total).toBe(first.trainers);
      // stored as a path, answered as an absolute URL on PUBLIC_URL
      expect(list.viewAllTrainers[0].picture.startsWith(`${t.config.publicUrl}/api/avatars/`)).toBe(true);
      // every demo trainer has weekly hours; the first of the default list can be booked at once
      const hours = (await t.database.db.execute(sql`select
          (select count(*)::int from availability v join accounts a on a.id = v.trainer_id where a.role = 'trainer') trainers,
          (select count(distinct weekly)::int from availability) patterns,
          (select count(distinct time_zone)::int from availability) zones,
          (select count(distinct location->>'kind')::int from availability) places,
          (select count(*)::int from availability where buffer_minutes > 0) buffered,
          (select min(min_notice_hours)::int from availability) min_notice,
          (select max(min_notice_hours)::int from availability) max_notice`)) as unknown as {
        rows: Array<Record<string, number>>;
      };
      expect(hours.rows[0]).toMatchObject({ trainers: first.trainers, zones: 3, places: 3, min_notice: 2, max_notice: 12 });
      expect(hours.rows[0].patterns).toBeGreaterThan(10);
      expect(hours.rows[0].buffered).toBeGreaterThan(5);
      const top = (await t.app.inject('/api/trainers')).json().viewAllTrainers[0];
      const [{ notice }] = (
        (await t.database.db.execute(
          sql`select min_notice_hours::int as notice from availability where trainer_id = ${top._id}`,
        )) as unknown as { rows: Array<{ notice: number }> }
      ).rows;
      // the slots outside the trainer's minimum notice (the booking dialog's, once free-slots.ts applies it)
      const slots = ((await t.app.inject(`/api/trainers/${top._id}/slots`)).json().slots as string[]).filter(
        (s) => Date.parse(s) > Date.now() + notice * 3600_000,
      );
      expect(slots.length).toBeGreaterThan(10);
      expect(top.nextFreeAt).toBe(slots[0]);
      const profile = (await t.app.inject(`/api/trainerData/${top._id}`)).json().trainerData;
      expect(profile.nextFreeAt).toBe(slots[0]);
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/trainers/login',
        payload: { email: 'trainer@spotter.test', password: 'Demo1234' },
      });
      expect(login.statusCode).toBe(200);
    } finally {
      await t.close();
      await fresh?.drop();
    }
  });
});
