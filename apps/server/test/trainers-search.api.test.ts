import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../src/db/schema';
import { countTrainers, findTrainers } from '../src/modules/trainers/trainers.repo';
import { buildTestApp, createFreshPgDatabase, type TestApp } from './helper';

/**
 * The list as the repo builds it (a stored lower-cased search_text that the indexes INCLUDE, a
 * deferred join; docs/decisions/006-trainer-list-speed.md) answers exactly what the plain query it
 * replaced answers: ILIKE over the concatenated text, one ORDER BY, LIMIT and OFFSET. Every
 * filter, sort and search, on a database of its own (PGlite, or a fresh PostgreSQL database when
 * TEST_DATABASE_URL is set), so no other test's trainers change a page between the two queries.
 */

type Sort = 'rating' | 'price_asc' | 'price_desc' | 'newest';
type Filters = {
  q?: string;
  minPrice?: number;
  maxPrice?: number;
  minRating?: number;
  gender?: 'male' | 'female';
  city?: string;
  ids?: string[];
};

/** The straightforward query: what `GET /api/trainers` meant before migration 0010. */
async function reference(t: TestApp, f: Filters, sort: Sort, limit: number, offset: number): Promise<string[]> {
  const where: SQL[] = [
    sql`role = 'trainer' and deleted_at is null and email_verified_at is not null and price_cents is not null`,
  ];
  if (f.q !== undefined) {
    const pattern = `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(sql`(first_name || ' ' || last_name || ' ' || title || ' ' || description) ilike ${pattern}`);
  }
  if (f.minPrice !== undefined) where.push(sql`price_cents >= ${Math.round(f.minPrice * 100)}`);
  if (f.maxPrice !== undefined) where.push(sql`price_cents <= ${Math.round(f.maxPrice * 100)}`);
  if (f.minRating !== undefined) where.push(sql`rating_avg >= ${f.minRating}`);
  if (f.gender) where.push(sql`gender = ${f.gender}`);
  if (f.city) where.push(sql`lower(city) = lower(${f.city})`);
  if (f.ids) where.push(sql`id::text = any(string_to_array(${f.ids.join(',')}, ','))`);
  const order = {
    rating: 'rating_score desc nulls last, id',
    price_asc: 'price_cents, id',
    price_desc: 'price_cents desc, id desc',
    newest: 'created_at desc nulls last, id',
  }[sort];
  const result = await t.database.db.execute(
    sql`select id from accounts where ${sql.join(where, sql` and `)} order by ${sql.raw(order)} limit ${limit} offset ${offset}`,
  );
  return (result as unknown as { rows: Array<{ id: string }> }).rows.map((r) => r.id);
}

/** mulberry32, so the data is the same on every run. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

// Text that lower() and ILIKE treat alike or not: accents, dotted I, sharp s, Greek, Arabic, and
// LIKE's own characters, which a search must take literally.
const FIRST = ['Nadia', 'Omar', 'ÉLODIE', 'İpek', 'Straße', 'ΣΟΦΊΑ', 'أحمد', 'Zoë', "O'Brien", '50%_off', 'Back\\slash', 'yOgA'];
const LAST = ['Kamel', 'Zaki', 'YOGA', 'Müller', 'DÜRER', 'Fouad'];
const TITLES = ['Yoga teacher', 'Boxing coach', 'Running coach', '', 'Pilates & yoga', 'HIIT_trainer', 'ÉCOLE du sport'];
const DESCRIPTIONS = ['Vinyasa flows', 'Squat 100% better_now', 'Your first 5K', '', 'Ünïcödé text', 'two  spaces', 'élan'];
const CITIES = ['Cairo', 'Giza', 'Alexandria', 'CAIRO', 'Giza '];
// few distinct sort keys, so that ties (broken by id) are everywhere
const PRICES = [10000, 15000, 20000, 45000, 90000];
const RATINGS = [0, 3.1, 4.2, 4.8, 5];
const day = 24 * 60 * 60 * 1000;

const SEARCHES = [
  undefined,
  'yoga',
  'YOGA',
  'Yoga teacher',
  'élodie',
  'ÉCOLE',
  'İpek',
  'straße',
  'σοφία',
  'أحمد',
  '100%',
  'better_now',
  'b_tter',
  '\\',
  "o'brien",
  '50%_',
  'e',
  'two  spaces',
  'nobody-like-this',
];
const FILTERS: Filters[] = [
  {},
  { city: 'cairo' },
  { city: 'Giza ' },
  { gender: 'female' },
  { minRating: 4 },
  { minPrice: 150, maxPrice: 450 },
  { city: 'Giza', gender: 'male', minRating: 3, minPrice: 100 },
];
const SORTS: Sort[] = ['rating', 'price_asc', 'price_desc', 'newest'];

let t: TestApp;
let drop: (() => Promise<void>) | undefined;
let someIds: string[] = [];

beforeAll(async () => {
  const fresh = await createFreshPgDatabase();
  drop = fresh?.drop;
  // PGlite in memory, or the fresh PostgreSQL database
  t = await buildTestApp({}, { databaseUrl: fresh?.url });
  const random = rng(12);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const base = Date.now();
  const rows: Array<typeof accounts.$inferInsert> = [];
  for (let i = 0; i < 360; i++) {
    const rating = pick(RATINGS);
    rows.push({
      role: 'trainer',
      email: `search-${i}@example.com`,
      passwordHash: 'not-a-login',
      firstName: pick(FIRST),
      lastName: pick(LAST),
      gender: random() < 0.5 ? 'male' : 'female',
      age: 30,
      height: 175,
      weight: 70,
      title: pick(TITLES),
      description: pick(DESCRIPTIONS),
      city: pick(CITIES),
      priceCents: random() < 0.05 ? null : pick(PRICES),
      ratingAvg: rating,
      ratingCount: rating ? 3 : 0,
      ratingScore: rating ? Math.round(rating * 900) / 1000 : 0,
      emailVerifiedAt: random() < 0.05 ? null : new Date(base),
      deletedAt: random() < 0.05 ? new Date(base) : null,
      createdAt: new Date(base - Math.floor(random() * 6) * day),
    });
  }
  // people who are not trainers never show, whatever their name
  for (let i = 0; i < 20; i++)
    rows.push({
      role: 'user',
      email: `search-user-${i}@example.com`,
      passwordHash: 'not-a-login',
      firstName: pick(FIRST),
      lastName: 'Yoga',
      gender: 'female',
      age: 30,
      height: 170,
      weight: 60,
      emailVerifiedAt: new Date(base),
    });
  await t.database.db.insert(accounts).values(rows);
  await t.database.db.execute(sql`analyze accounts`);
  someIds = (await reference(t, {}, 'newest', 500, 0)).filter((_, i) => i % 5 === 0);
});

afterAll(async () => {
  await t?.close();
  await drop?.();
});

const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

describe('the list answers what the plain query answers', () => {
  // every search with every sort, and every filter with every sort, with and without a search
  const combinations: Filters[] = [
    ...SEARCHES.map((q) => ({ q })),
    ...[...FILTERS, { ids: [] }].flatMap((f) => [undefined, 'yoga', 'e'].map((q) => ({ ...f, q }))),
  ];

  it('for every search, filter and sort: the same trainers in the same order', async () => {
    let nonEmpty = 0;
    for (const combination of combinations)
      for (const sort of SORTS) {
        const f = combination.ids ? { ...combination, ids: someIds } : combination;
        const got = ids(await findTrainers(t.database.db, { filters: f, sort, limit: 500, offset: 0 }));
        const want = await reference(t, f, sort, 500, 0);
        expect(got, JSON.stringify({ f, sort })).toEqual(want);
        if (want.length) nonEmpty++;
      }
    // the data really exercises the searches: most combinations find someone
    expect(nonEmpty).toBeGreaterThan((combinations.length * SORTS.length) / 2);
  });

  it('page by page, as `page` and `limit` ask', async () => {
    for (const q of [undefined, 'yoga', 'e'])
      for (const sort of SORTS)
        for (const [limit, offset] of [
          [7, 0],
          [7, 7],
          [7, 63],
          [24, 24],
          [24, 2400],
        ]) {
          const got = ids(await findTrainers(t.database.db, { filters: { q }, sort, limit, offset }));
          expect(got, JSON.stringify({ q, sort, limit, offset })).toEqual(await reference(t, { q }, sort, limit, offset));
        }
  });

  it('counts exactly what the plain query finds, up to the cap', async () => {
    for (const f of combinations) {
      if (f.ids) continue;
      const want = (await reference(t, f, 'rating', 1000, 0)).length;
      expect(await countTrainers(t.database.db, f, 2_000), JSON.stringify(f)).toBe(want);
    }
  });

  it('through the API as well, with the search typed in any case', async () => {
    const res = await t.app.inject('/api/trainers?q=%C3%89LODIE&sort=price_asc&limit=100');
    expect(res.statusCode).toBe(200);
    const want = await reference(t, { q: 'ÉLODIE' }, 'price_asc', 100, 0);
    expect(want.length).toBeGreaterThan(0);
    expect(res.json().viewAllTrainers.map((x: { _id: string }) => x._id)).toEqual(want);
    expect(res.json().total).toBe(want.length);
  });

  it('finds a trainer by what they wrote after an edit (the database keeps search_text up to date)', async () => {
    const [row] = await t.database.db
      .insert(accounts)
      .values({
        role: 'trainer',
        email: 'search-edit@example.com',
        passwordHash: 'not-a-login',
        firstName: 'Edited',
        lastName: 'Later',
        gender: 'male',
        age: 30,
        height: 180,
        weight: 80,
        priceCents: 20000,
        emailVerifiedAt: new Date(),
      })
      .returning({ id: accounts.id });
    const search = async (q: string) =>
      ids(await findTrainers(t.database.db, { filters: { q }, sort: 'rating', limit: 5, offset: 0 }));
    expect(await search('Kettlebell Queen')).toEqual([]);
    await t.database.db
      .update(accounts)
      .set({ title: 'Kettlebell QUEEN' })
      .where(sql`${accounts.id} = ${row.id}`);
    expect(await search('kettlebell queen')).toEqual([row.id]);
    await t.database.db
      .update(accounts)
      .set({ firstName: 'Renamed' })
      .where(sql`${accounts.id} = ${row.id}`);
    expect(await search('edited')).toEqual([]);
    expect(await search('RENAMED later')).toEqual([row.id]);
  });
});
