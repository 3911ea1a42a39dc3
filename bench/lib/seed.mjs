// Seeding for the benchmarks: the built server's own migrations and demo data (apps/server/dist/seed.js),
// then N trainers with reviews, users, availability, conversations and bookings, made by the database
// itself with generate_series. Runs before the server starts (PGlite allows one process per data dir).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Accounts that log in (bench users share the demo user's Argon2id hash, so its password). */
export const BENCH_PASSWORD = 'Demo1234';
export const BENCH_USERS = 2000;
/** Users and trainers with conversations and bookings (bench-user-0…, bench-trainer-0…). */
export const ACTIVE_ACCOUNTS = 200;
/** Trainers with weekly hours (bench-trainer-0…). */
export const TRAINERS_WITH_HOURS = 1000;
const CONVERSATIONS_PER_USER = 5;
const MESSAGES_PER_CONVERSATION = 20;
const BOOKINGS_PER_USER = 5;
const BATCH = 25_000;

/** The same uuid as PostgreSQL's md5('bench-<kind>-<i>')::uuid. */
export const idOf = (kind, i) => {
  const h = createHash('md5').update(`bench-${kind}-${i}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

const CITIES = ['Cairo', 'Giza', 'Alexandria', 'Mansoura', 'Tanta', 'Zagazig', 'Port Said', 'Suez', 'Ismailia', 'Luxor'];
const TITLES = [
  'Strength coach',
  'Yoga teacher',
  'Boxing coach',
  'Running coach',
  'CrossFit coach',
  'Pilates instructor',
  'Weight-loss coach',
  'Calisthenics coach',
  'Mobility specialist',
  'Powerlifting coach',
  'Swim coach',
  'Prenatal fitness',
  'Kettlebell coach',
  'HIIT trainer',
  'Rehab trainer',
  'Bodybuilding coach',
];
const arr = (xs) => `array[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]`;
const FIRST = arr(['Omar', 'Nadia', 'Karim', 'Salma', 'Youssef', 'Laila', 'Tarek', 'Hana']);
const LAST = arr(['Farouk', 'Hassan', 'Samir', 'Mansour', 'Fathy', 'Zaki']);

/** The rating of review `j` of trainer `t` (the SQL below computes the same). */
const ratingOf = (t, j) => Math.min(5, 2 + ((t * 7 + j * 3) % 4) + (t % 2));
const RATING_SQL = (t, j) => `least(5, 2 + (${t} * 7 + ${j} * 3) % 4 + ${t} % 2)`;

/**
 * The statements, in order. A trainer's rating (average, count and the Bayesian score of
 * apps/server/src/db/rating-score.ts, C = 5 reviews at the site's mean) is written with the row:
 * updating 100,000 rows afterwards would rewrite every index of the table. `demo` is the sum and
 * count of the demo data's reviews, which the site's mean includes.
 */
function statements(trainers, demo) {
  const C = Math.min(ACTIVE_ACCOUNTS, trainers);
  const withHours = Math.min(TRAINERS_WITH_HOURS, trainers);
  let sum = demo.sum;
  let count = demo.count;
  for (let t = 0; t < trainers; t++)
    for (let j = 0; j < t % 13; j++) {
      sum += ratingOf(t, j);
      count++;
    }
  const mean = count ? sum / count : 0;
  const hash = `(select password_hash from accounts where role = 'user' and email = 'user@spotter.test')`;
  const out = [
    `insert into accounts (id, role, email, password_hash, first_name, last_name, phone, gender, age, height, weight,
                           city, country, email_verified_at, created_at)
     select md5('bench-user-' || g)::uuid, 'user', 'bench-user-' || g || '@spotter.test', ${hash},
            (${FIRST})[1 + g % 8], (${LAST})[1 + g % 6], '0101' || lpad(g::text, 7, '0'),
            case when g % 2 = 0 then 'male' else 'female' end, 20 + g % 40, 150 + g % 50, 50 + g % 60,
            (${arr(CITIES)})[1 + g % ${CITIES.length}], 'Egypt', now(), now() - (g || ' minutes')::interval
     from generate_series(0, ${BENCH_USERS - 1}) g`,
  ];
  for (let start = 0; start < trainers; start += BATCH) {
    const end = Math.min(trainers, start + BATCH) - 1;
    out.push(
      `insert into accounts (id, role, email, password_hash, first_name, last_name, phone, gender, age, height, weight,
                             title, description, city, country, picture, price_cents, rating_avg, rating_count, rating_score,
                             email_verified_at, created_at)
       select md5('bench-trainer-' || g)::uuid, 'trainer', 'bench-trainer-' || g || '@spotter.test', ${hash},
              (${FIRST})[1 + g % 8], (${LAST})[1 + g % 6], '0112' || lpad(g::text, 7, '0'),
              case when g % 2 = 0 then 'male' else 'female' end, 20 + g % 40, 150 + g % 50, 50 + g % 60,
              (${arr(TITLES)})[1 + g % ${TITLES.length}],
              'Coach number ' || g || '. ' || (${arr(TITLES)})[1 + g % ${TITLES.length}] || ' sessions for every level, in person or online.',
              (${arr(CITIES)})[1 + (g * 7) % ${CITIES.length}], 'Egypt', '/api/avatars/bench-' || (g % 500) || '.svg',
              (100 + (g * 37) % 801) * 100, r.avg, r.n,
              case when r.n = 0 then 0 else round((5 * ${mean.toFixed(8)} + r.avg * r.n) / (5 + r.n), 4) end,
              now(), now() - (g || ' minutes')::interval
       from generate_series(${start}, ${end}) g
       cross join lateral (select coalesce(round(avg(${RATING_SQL('g', 'j')}), 2), 0) as avg, count(j)::int as n
                           from generate_series(0, g % 13 - 1) j) r`,
      // 0 to 12 reviews a trainer (6 on average), each from a different user
      `insert into reviews (trainer_id, user_id, rating, comment, created_at, updated_at)
       select md5('bench-trainer-' || t)::uuid, md5('bench-user-' || ((t * 31 + j * 97) % ${BENCH_USERS}))::uuid,
              ${RATING_SQL('t', 'j')},
              (array['Great coach, clear plans.','Good sessions and always on time.','Helpful, pushed me just enough.',
                     'Friendly, but the sessions felt rushed.','Changed how I train. Recommended.'])[1 + (t + j) % 5],
              now() - ((t * 13 + j * 29) % 8760) * interval '1 hour', now() - ((t * 13 + j * 29) % 8760) * interval '1 hour'
       from generate_series(${start}, ${end}) t, generate_series(0, 11) j
       where j < t % 13`,
    );
  }
  const weekly = JSON.stringify(
    Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: [8, 9, 10, 11, 12, 14, 15, 16, 17, 18] })),
  );
  out.push(
    // the demo trainers' scores, against the new mean
    `update accounts set rating_score = case when rating_count = 0 then 0
       else round((5 * m.mean + rating_avg * rating_count) / (5 + rating_count), 4) end
     from (select coalesce(avg(rating), 0) as mean from reviews) m
     where role = 'trainer' and email not like 'bench-trainer-%'`,
    `insert into availability (trainer_id, time_zone, weekly)
     select md5('bench-trainer-' || g)::uuid, 'Africa/Cairo', '${weekly}'::jsonb from generate_series(0, ${withHours - 1}) g`,
    // conversations: each active user with 5 of the active trainers, 20 messages each, the last 2 unread
    `insert into messages (user_id, trainer_id, sender_role, body, created_at, read_at)
     select md5('bench-user-' || u)::uuid, md5('bench-trainer-' || ((u * 7 + c * 13) % ${C}))::uuid,
            case when k % 2 = 0 then 'user' else 'trainer' end,
            'Message ' || k || ': about the next session, the plan and the time.',
            now() - (${MESSAGES_PER_CONVERSATION} - k) * interval '10 minutes' - (u * ${CONVERSATIONS_PER_USER} + c) * interval '1 minute',
            case when k < ${MESSAGES_PER_CONVERSATION - 2} then now() end
     from generate_series(0, ${ACTIVE_ACCOUNTS - 1}) u, generate_series(0, ${CONVERSATIONS_PER_USER - 1}) c,
          generate_series(0, ${MESSAGES_PER_CONVERSATION - 1}) k
     order by 5`,
    // bookings: each active user 5 one-hour sessions, half in the past (completed), half to come (confirmed)
    `insert into bookings (trainer_id, user_id, starts_at, ends_at, status, price_cents, currency, provider, created_at, updated_at)
     select md5('bench-trainer-' || ((u * 7 + b * 13) % ${C}))::uuid, md5('bench-user-' || u)::uuid,
            date_trunc('hour', now()) + (u * ${BOOKINGS_PER_USER} + b - ${(ACTIVE_ACCOUNTS * BOOKINGS_PER_USER) / 2}) * interval '1 hour',
            date_trunc('hour', now()) + (u * ${BOOKINGS_PER_USER} + b - ${(ACTIVE_ACCOUNTS * BOOKINGS_PER_USER) / 2} + 1) * interval '1 hour',
            case when u * ${BOOKINGS_PER_USER} + b < ${(ACTIVE_ACCOUNTS * BOOKINGS_PER_USER) / 2} then 'completed' else 'confirmed' end,
            20000, 'USD', 'demo', now() - interval '30 days', now() - interval '30 days'
     from generate_series(0, ${ACTIVE_ACCOUNTS - 1}) u, generate_series(0, ${BOOKINGS_PER_USER - 1}) b`,
  );
  return out;
}

/**
 * Migrates and seeds a fresh database: `dataDir` (PGlite) or `url` (PostgreSQL). Answers what it
 * made, counted by the database.
 */
export async function seedDatabase({ root, dataDir, url, trainers, env, log = () => undefined }) {
  const started = performance.now();
  const demo = spawnSync(process.execPath, ['apps/server/dist/seed.js'], {
    cwd: root,
    env: { ...env, DATA_DIR: dataDir, DATABASE_URL: url ?? '', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (demo.status !== 0) throw new Error(`apps/server/dist/seed.js failed: ${demo.stderr || demo.stdout}`);
  const migrated = performance.now();
  log(`  migrations and demo data (apps/server/dist/seed.js): ${((migrated - started) / 1000).toFixed(1)} s`);

  const serverRequire = createRequire(join(root, 'apps/server/package.json'));
  let exec;
  let close;
  if (url) {
    const pg = serverRequire('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    exec = async (sql) => (await client.query(sql)).rows;
    close = () => client.end();
  } else {
    const load = (name) => import(pathToFileURL(serverRequire.resolve(name)).href);
    const { PGlite } = await load('@electric-sql/pglite');
    const { pg_trgm } = await load('@electric-sql/pglite/contrib/pg_trgm');
    const client = new PGlite({ dataDir: join(dataDir, 'db'), extensions: { pg_trgm } });
    await client.waitReady;
    exec = async (sql) => (await client.query(sql)).rows;
    close = () => client.close();
  }
  try {
    const [demo] = await exec('select coalesce(sum(rating), 0)::float8 as sum, count(*)::int as count from reviews');
    await exec('begin');
    for (const statement of statements(trainers, demo)) {
      const t = performance.now();
      await exec(statement);
      log(`  ${((performance.now() - t) / 1000).toFixed(1)} s: ${statement.trim().split('\n')[0].slice(0, 60)}`);
    }
    await exec('commit');
    const t = performance.now();
    await exec('vacuum analyze');
    log(`  ${((performance.now() - t) / 1000).toFixed(1)} s: vacuum analyze`);
    const [counts] = await exec(`select
      (select count(*)::int from accounts where role = 'trainer') as trainers,
      (select count(*)::int from accounts where role = 'user') as users,
      (select count(*)::int from reviews) as reviews,
      (select count(*)::int from messages) as messages,
      (select count(*)::int from bookings) as bookings`);
    return { ...counts, seconds: (performance.now() - started) / 1000, demoSeconds: (migrated - started) / 1000 };
  } finally {
    await close();
  }
}
