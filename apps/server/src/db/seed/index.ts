import { sql } from 'drizzle-orm';
import { CITY_SUGGESTIONS } from '@spotter/shared';
import type { Db } from '../client';
import { accounts, availability, reviews } from '../schema';
import { hashPassword } from '../../lib/passwords';
import { avatarUrl } from '../../lib/avatar-url';
import { toCents } from '../../lib/money';
import { refreshRatingScores } from '../rating-score';
import { demoDescription, FEMALE_NAMES, LAST_NAMES, MALE_NAMES, REVIEW_COMMENTS, TITLES, YEARS } from './demo-data';

const DEMO_PASSWORD = 'Demo1234';
export const DEMO_LOGINS = [
  { role: 'user' as const, email: 'user@spotter.test', password: DEMO_PASSWORD },
  { role: 'trainer' as const, email: 'trainer@spotter.test', password: DEMO_PASSWORD },
];
const DEMO_TRAINERS = 60;
const DEMO_REVIEWERS = 12;
type SeedAccount = Omit<typeof accounts.$inferInsert, 'passwordHash'>;

/** mulberry32: a small seeded generator, so the demo data is the same on every machine. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Demo data for an empty database. Every row is keyed, so running it twice changes nothing. */
export async function seedIfEmpty(db: Db): Promise<boolean> {
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(accounts);
  if (n > 0) return false;
  await seedDemo(db);
  return true;
}

/**
 * The demo users and trainers, the same on every run (a pure function of a fixed seed). The
 * trainers' avatars and descriptions are tested for variety (test/demo-variety.test.ts).
 */
export function buildDemoAccounts() {
  const rand = rng(2010);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const verified = new Date('2026-01-01T00:00:00Z');
  const day = 24 * 60 * 60 * 1000;

  const users: SeedAccount[] = [
    {
      role: 'user',
      email: 'user@spotter.test',
      firstName: 'Mariam',
      lastName: 'Hassan',
      phone: '01012345678',
      gender: 'female',
      age: 29,
      height: 165,
      weight: 62,
      city: 'Cairo',
    },
  ];
  for (let i = 1; i < DEMO_REVIEWERS; i++) {
    const gender = i % 2 ? 'male' : 'female';
    users.push({
      role: 'user',
      email: `member${String(i).padStart(2, '0')}@spotter.test`,
      firstName: pick(gender === 'male' ? MALE_NAMES : FEMALE_NAMES),
      lastName: pick(LAST_NAMES),
      phone: `0101000${String(1000 + i).slice(-4)}`,
      gender,
      age: 20 + Math.floor(rand() * 30),
      height: 155 + Math.floor(rand() * 35),
      weight: 55 + Math.floor(rand() * 40),
      city: pick(CITY_SUGGESTIONS),
    });
  }

  const trainers: Array<SeedAccount & { gender: 'male' | 'female'; avatarSeed: string }> = [];
  for (let i = 0; i < DEMO_TRAINERS; i++) {
    const gender = i === 0 ? 'male' : rand() < 0.5 ? 'male' : 'female';
    const title = i === 0 ? 'Strength coach' : pick(TITLES);
    const firstName = i === 0 ? 'Omar' : pick(gender === 'male' ? MALE_NAMES : FEMALE_NAMES);
    const seed = `trainer-${String(i).padStart(3, '0')}`;
    trainers.push({
      role: 'trainer',
      email: i === 0 ? 'trainer@spotter.test' : `${seed}@spotter.test`,
      firstName,
      lastName: i === 0 ? 'Farouk' : pick(LAST_NAMES),
      phone: `0111000${String(1000 + i).slice(-4)}`,
      gender,
      age: 24 + Math.floor(rand() * 25),
      height: 155 + Math.floor(rand() * 40),
      weight: 52 + Math.floor(rand() * 45),
      title,
      description: demoDescription(i, title, pick(YEARS)),
      city: i === 0 ? 'Alexandria' : pick(CITY_SUGGESTIONS),
      priceCents: toCents(i === 0 ? 250 : 100 + Math.floor(rand() * 81) * 10),
      picture: avatarUrl(seed, gender),
      avatarSeed: seed,
      createdAt: new Date(verified.getTime() - (DEMO_TRAINERS - i) * 3 * day),
    });
  }
  return { users, trainers, verified };
}

type DemoHours = Omit<typeof availability.$inferInsert, 'trainerId' | 'updatedAt'>;
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
/** Weekly patterns (weekdays 0 = Sunday): mornings, evenings, split days, long weekends. */
const WEEK_PATTERNS: Array<(shift: number) => Array<{ weekday: number; hours: number[] }>> = [
  // weekday mornings and evenings
  (s) => [0, 1, 2, 3, 4].map((weekday) => ({ weekday, hours: [...range(7 + s, 10 + s), ...range(18, 21)] })),
  // evenings only
  (s) => [0, 1, 2, 3, 4, 6].map((weekday) => ({ weekday, hours: range(17 + (s % 2), 21 + (s % 2)) })),
  // mornings only
  (s) => [6, 0, 1, 2, 3].map((weekday) => ({ weekday, hours: range(6 + s, 11 + s) })),
  // long weekends and a few weekday afternoons
  (s) => [
    { weekday: 5, hours: range(9 + s, 17) },
    { weekday: 6, hours: range(9, 16 - s) },
    { weekday: 1, hours: range(13, 16) },
    { weekday: 3, hours: range(13 + s, 17) },
  ],
  // every day, around noon
  (s) => range(0, 7).map((weekday) => ({ weekday, hours: range(10 + s, 14 + s) })),
];
const DEMO_ZONES = ['Africa/Cairo', 'Africa/Cairo', 'Africa/Cairo', 'Africa/Cairo', 'Asia/Dubai', 'Europe/London'] as const;

/**
 * The demo trainers' weekly hours, each different (days, hours, zone, minimum notice of 2 to 12
 * hours, some with a buffer, a place of each kind), so that every demo trainer can be booked: the
 * first of the list from a fresh start too (test/seed.api.test.ts).
 */
function demoAvailability(count: number, cities: Array<string | null | undefined>): DemoHours[] {
  const rand = rng(2029);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  return Array.from({ length: count }, (_, i) => {
    const weekly = WEEK_PATTERNS[i % WEEK_PATTERNS.length](Math.floor(rand() * 3));
    // one day of the week off now and then
    if (weekly.length > 4 && rand() < 0.4) weekly.splice(Math.floor(rand() * weekly.length), 1);
    const city = cities[i] ?? 'Cairo';
    const kind = (['address', 'client', 'online'] as const)[i % 3];
    const text =
      kind === 'address'
        ? `${pick(['Gold’s Gym', 'Samia Allouba Studio', 'Club Sporting', 'Iron Yard', 'Fit Hub'])}, ${city}`
        : kind === 'client'
          ? `At your home in ${city}`
          : `https://meet.spotter.test/${i.toString(36)}-demo`;
    return {
      timeZone: i === 0 ? 'Africa/Cairo' : pick(DEMO_ZONES),
      weekly,
      minNoticeHours: i === 0 ? 2 : pick([2, 3, 4, 6, 8, 12]),
      bufferMinutes: i === 0 ? 0 : pick([0, 0, 15, 30]),
      overrides: [],
      location: { kind, text },
    };
  });
}

export async function seedDemo(db: Db) {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const { users, trainers: withSeeds, verified } = buildDemoAccounts();
  const trainers: SeedAccount[] = withSeeds.map(({ avatarSeed: _seed, ...t }) => t);
  // reviews draw from their own sequence, so changing the accounts does not reshuffle them
  const rand = rng(2011);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const day = 24 * 60 * 60 * 1000;

  await db.transaction(async (tx) => {
    await tx
      .insert(accounts)
      .values([...users, ...trainers].map((a) => ({ ...a, passwordHash, country: 'Egypt', emailVerifiedAt: verified })))
      .onConflictDoNothing();
    const ids = await tx.select({ id: accounts.id, email: accounts.email, role: accounts.role }).from(accounts);
    const idOf = new Map(ids.map((r) => [`${r.role}:${r.email}`, r.id]));
    const reviewRows: (typeof reviews.$inferInsert)[] = [];
    trainers.forEach((t, i) => {
      const quality = 2.5 + rand() * 2.5; // each trainer has a typical rating
      const count = i % 7 === 6 ? 0 : 1 + Math.floor(rand() * DEMO_REVIEWERS);
      const reviewers = [...users].sort(() => rand() - 0.5).slice(0, count);
      for (const u of reviewers) {
        const rating = Math.max(1, Math.min(5, Math.round(quality + (rand() - 0.5) * 2)));
        const at = new Date(verified.getTime() + Math.floor(rand() * 300) * day);
        reviewRows.push({
          trainerId: idOf.get(`trainer:${t.email}`)!,
          userId: idOf.get(`user:${u.email}`)!,
          rating,
          comment: pick(REVIEW_COMMENTS[rating]),
          createdAt: at,
          updatedAt: at,
        });
      }
    });
    if (reviewRows.length) await tx.insert(reviews).values(reviewRows).onConflictDoNothing();
    // weekly hours, so that every demo trainer is bookable from a fresh start
    const hours = demoAvailability(
      trainers.length,
      trainers.map((t) => t.city),
    );
    await tx
      .insert(availability)
      .values(trainers.map((t, i) => ({ trainerId: idOf.get(`trainer:${t.email}`)!, ...hours[i] })))
      .onConflictDoNothing();
    await tx.execute(sql`
      update accounts a set
        rating_avg = coalesce((select round(avg(r.rating), 2) from reviews r where r.trainer_id = a.id), 0),
        rating_count = (select count(*)::int from reviews r where r.trainer_id = a.id)
      where a.role = 'trainer'`);
    await tx.execute(refreshRatingScores());
    // the weight chart starts from the sign-up weight, as it does for accounts made by signing up
    await tx.execute(sql`
      insert into weight_entries (account_id, weight, recorded_at)
      select a.id, a.weight, a.created_at from accounts a
      where a.weight > 0 and a.deleted_at is null
        and not exists (select 1 from weight_entries w where w.account_id = a.id)`);
  });
}

/**
 * `npm run seed -- --trainers N`: N more verified trainers for benchmarks, made by the database
 * itself in one statement per 50,000 rows. Their e-mails are keyed, so a rerun adds nothing twice.
 */
export async function seedBulkTrainers(db: Db, count: number) {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const cities = `array[${CITY_SUGGESTIONS.map((c) => `'${c.replace(/'/g, "''")}'`).join(',')}]`;
  const titles = `array[${TITLES.map((c) => `'${c}'`).join(',')}]`;
  for (let start = 1; start <= count; start += 50_000) {
    const end = Math.min(count, start + 49_999);
    await db.execute(sql`
      insert into accounts (role, email, password_hash, first_name, last_name, phone, gender, age, height, weight,
                            title, description, city, country, picture, price_cents, rating_avg, rating_count,
                            email_verified_at, created_at)
      select 'trainer', 'bulk-' || g || '@spotter.test', ${passwordHash},
             (array['Omar','Nadia','Karim','Salma','Youssef','Laila','Tarek','Hana'])[1 + g % 8],
             (array['Farouk','Hassan','Samir','Mansour','Fathy','Zaki'])[1 + g % 6],
             '0112' || lpad((g % 10000000)::text, 7, '0'),
             case when g % 2 = 0 then 'male' else 'female' end,
             20 + g % 40, 150 + g % 50, 50 + g % 60,
             (${sql.raw(titles)})[1 + g % ${sql.raw(String(TITLES.length))}],
             'Coach number ' || g || '. Personal sessions for every level.',
             (${sql.raw(cities)})[1 + (g * 7) % ${sql.raw(String(CITY_SUGGESTIONS.length))}],
             'Egypt', '/api/avatars/bulk-' || (g % 500) || '.svg',
             (100 + (g * 37) % 801) * 100,
             round(((g * 13) % 401)::numeric / 100 + 1, 2),
             (g * 7) % 60,
             now(), now() - (g || ' minutes')::interval
      from generate_series(${start}::int, ${end}::int) as g
      on conflict do nothing`);
  }
  await db.execute(refreshRatingScores(sql`email like 'bulk-%@spotter.test'`));
  // weekly hours for each (the list's availability filters and soonest order have slots to find):
  // three to five days, a morning, an evening or a midday block, some trainers in another zone
  await db.execute(sql`
    insert into availability (trainer_id, time_zone, weekly, min_notice_hours, buffer_minutes)
    select a.id,
           (array['Africa/Cairo','Africa/Cairo','Africa/Cairo','Asia/Dubai','Europe/London'])[1 + n % 5],
           (select jsonb_agg(jsonb_build_object('weekday', d, 'hours',
                     (select jsonb_agg(h) from generate_series(b, b + 2 + n % 3) h)))
              from generate_series(0, 6) d where (d + n) % 7 < 3 + n % 3),
           (array[2, 4, 6, 12])[1 + n % 4],
           (array[0, 15, 30])[1 + n % 3]
    from (select id, split_part(split_part(email, '@', 1), '-', 2)::int as n,
                 (array[6, 10, 13, 17, 18])[1 + split_part(split_part(email, '@', 1), '-', 2)::int % 5] as b
          from accounts where email like 'bulk-%@spotter.test') a
    on conflict do nothing`);
  await db.execute(sql`analyze accounts`);
}
