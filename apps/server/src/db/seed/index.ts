import { sql } from 'drizzle-orm';
import { CITY_SUGGESTIONS } from '@spotter/shared';
import type { Db } from '../client';
import { accounts, reviews } from '../schema';
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
  await db.execute(sql`analyze accounts`);
}
