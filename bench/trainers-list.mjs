// The trainer list on PostgreSQL with 100,000 trainers: server time (Server-Timing) of the first
// page and page 200 of filtered, sorted lists, and of searches. Needs PostgreSQL: BENCH_PG_ADMIN_URL
// or the local default. Runs the built server (apps/server/dist: `npm run build -w @spotter/server`).
//
//   node bench/trainers-list.mjs [out.md] [--trainers 100000] [--db spotter_bench] [--dist apps/server/dist]
//                                [--runs 60] [--reuse] [--cached]
//
// --trainers (or BENCH_TRAINERS): how many trainers to add to the demo data.
// --reuse: keep the database when it already has that many (the server applies newer migrations
//   as it starts), so that two builds can be measured on the same data; otherwise it is made afresh.
// --cached: let the server's read cache answer repeats (docs/decisions/019-read-cache.md). By default
//   every request is a miss: the bench announces a catalogue change before each one, as a write
//   does, so the figures are the queries' and not the cache's.
import { fileURLToPath } from 'node:url';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { serverEnv } from '../scripts/lib/build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    trainers: { type: 'string', default: process.env.BENCH_TRAINERS ?? '100000' },
    db: { type: 'string', default: 'spotter_bench' },
    dist: { type: 'string', default: join(root, 'apps/server/dist') },
    runs: { type: 'string', default: '60' },
    reuse: { type: 'boolean', default: false },
    cached: { type: 'boolean', default: false },
  },
});
const TRAINERS = Number(opt.trainers);
const RUNS = Number(opt.runs);
if (!Number.isInteger(TRAINERS) || TRAINERS < 0 || !Number.isInteger(RUNS) || RUNS < 1) {
  console.error('--trainers and --runs take whole numbers');
  process.exit(1);
}
const dbName = opt.db;
if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) {
  console.error(`--db takes a plain lower-case name, not ${dbName}`);
  process.exit(1);
}
const admin = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const url = admin.replace(/\/[^/]*$/, `/${dbName}`);
const dist = resolve(opt.dist);
const PORT = 3201;
const base = `http://127.0.0.1:${PORT}`;
const out = positionals[0] ?? `${root}.tmp/bench-trainers.md`;

const psql = (sql, db = admin) => spawnSync('psql', [db, '-qAtc', sql], { encoding: 'utf8' });
if (psql('select 1').status !== 0) {
  writeFileSync(out, '## Trainer list on PostgreSQL\nNot measured: PostgreSQL was not reachable.\n');
  console.log('PostgreSQL not reachable; skipped');
  process.exit(0);
}
const seeded = () => Number(psql("select count(*) from accounts where email like 'bulk-%'", url).stdout) || 0;
if (!opt.reuse || seeded() < TRAINERS) {
  psql(`drop database if exists ${dbName} with (force)`);
  psql(`create database ${dbName}`);
  const seed = spawnSync(process.execPath, [join(dist, 'seed.js'), '--trainers', String(TRAINERS)], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url },
    encoding: 'utf8',
  });
  console.log(seed.stdout.trim());
  if (seed.status !== 0) {
    console.error(seed.stderr);
    process.exit(1);
  }
}
spawnSync('psql', [url, '-qc', 'vacuum analyze accounts']);

const server = spawn(process.execPath, [join(dist, 'main.js')], {
  cwd: root,
  // SERVER_TIMING: the figures below come from the Server-Timing header, off in production by default
  env: serverEnv({
    ...process.env,
    PORT: String(PORT),
    DATABASE_URL: url,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    SERVER_TIMING: 'true',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-1234',
  }),
  stdio: ['ignore', 'ignore', 'inherit'],
});
process.on('exit', () => server.kill());
for (let i = 0; i < 100; i++) {
  const up = await fetch(`${base}/api/health/ready`).then(
    (r) => r.ok,
    () => false,
  );
  if (up) break;
  await sleep(200);
}

// what a change to the ratings does to the read cache: every process drops its public answers
// (docs/caching.md), and nothing else is recomputed (an `accounts` change without ids would also
// send the free slots' sweep looking for trainers never computed: docs/decisions/040-finding-free-trainers.md)
const pg = createRequire(join(root, 'apps/server/package.json'))('pg');
const announcer = new pg.Client({ connectionString: url });
await announcer.connect();
async function forgetCachedAnswers() {
  if (opt.cached) return;
  await announcer.query("notify spotter_change, 'ratings'");
  await sleep(30); // the server's listener drops its answers when the notification arrives
}

async function measure(query, n = RUNS) {
  const server = [];
  const wall = [];
  let body;
  for (let i = 0; i < n; i++) {
    let t, res, dur;
    // an answer in under a millisecond came from the cache (two queries take longer): asked again
    for (let attempt = 0; attempt === 0 || (!opt.cached && !(dur >= 1) && attempt < 5); attempt++) {
      await forgetCachedAnswers();
      t = performance.now();
      res = await fetch(`${base}/api/trainers?${query}`);
      body = await res.json();
      dur = Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? NaN);
    }
    wall.push(performance.now() - t);
    server.push(dur);
  }
  const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  return {
    query,
    p50: q(server, 0.5),
    p95: q(server, 0.95),
    min: Math.min(...server),
    wall50: q(wall, 0.5),
    rows: body.viewAllTrainers?.length,
    total: body.total,
  };
}

const queries = [
  'sort=rating',
  'sort=rating&page=200',
  'minPrice=200&maxPrice=600&sort=rating',
  'minPrice=200&maxPrice=600&sort=rating&page=200',
  'gender=female&minRating=3&sort=price_asc',
  'gender=female&minRating=3&sort=price_asc&page=200',
  'city=Cairo&sort=price_desc',
  'city=Cairo&sort=price_desc&page=200',
  'sort=newest&page=200',
  // searches (issue 12): a title word (6% of trainers) on several pages and orders, a name (4%),
  // a word in every description, a rare one
  'q=yoga&sort=rating',
  'q=yoga&sort=rating&page=50',
  'q=yoga&sort=rating&page=200',
  'q=yoga&sort=price_asc&page=50',
  'q=yoga&sort=newest&page=50',
  'q=yoga&city=Cairo&sort=rating&page=10',
  'q=omar%20farouk&sort=rating&page=50',
  'q=coach&sort=rating&page=200',
  'q=number%20123&sort=rating',
  // by the next free slot, and trainers free in the next 7 days (issue 29), from the stored free slots
  'sort=soonest',
  'sort=soonest&page=200',
  'available=week&sort=rating',
  'available=week&sort=rating&page=200',
  'available=evenings&sort=soonest',
  `availableOn=${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)}&sort=price_asc`,
];
// the server computes every trainer's free slots as it starts: the first answer waits for them
{
  const started = performance.now();
  // (at 100,000 trainers this takes minutes, longer than a fetch waits: the database is asked instead)
  const listed = `select count(*) from accounts where role = 'trainer' and deleted_at is null
    and email_verified_at is not null and price_cents is not null`;
  const missing = () => Number(psql(`select (${listed}) - (select count(*) from trainer_slot_refreshes)`, url).stdout) || 0;
  while (missing() > 0) await sleep(1000);
  await fetch(`${base}/api/trainers?sort=soonest`).then((r) => r.json());
  const stored = psql('select count(*) from trainer_free_slots', url).stdout.trim();
  console.log(`free slots of every trainer computed in ${((performance.now() - started) / 1000).toFixed(1)} s (${stored} slots)`);
  spawnSync('psql', [url, '-qc', 'vacuum analyze trainer_free_slots']);
}
const loadBefore = loadavg()[0];
for (const q of queries) await measure(q, 10); // warm-up
const rows = [];
for (const q of queries) rows.push(await measure(q));
const loadAfter = loadavg()[0];
server.kill();
await announcer.end();

const version = psql('show server_version').stdout.trim().split(' ')[0];
const md = `## Trainer list on PostgreSQL ${version} (${TRAINERS.toLocaleString('en')} extra trainers, \`bench/trainers-list.mjs\`)
Server time from the \`Server-Timing\` header (routing, validation, both queries, serialisation),
${RUNS} sequential requests each after a warm-up, ${opt.cached ? 'repeats answered by the read cache' : 'each one a miss of the read cache'}; load average
${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after. Budgets: under 20 ms for the first page and page 200 of a
filtered, sorted list (issue 3), and for every page of a search (issue 12).

| query | server p50 | server p95 | server min | wall p50 | rows | total |
| --- | --- | --- | --- | --- | --- | --- |
${rows.map((r) => `| \`${r.query}\` | ${r.p50.toFixed(2)} ms | ${r.p95.toFixed(2)} ms | ${r.min.toFixed(2)} ms | ${r.wall50.toFixed(2)} ms | ${r.rows} | ${r.total} |`).join('\n')}

Totals above 2,000 are the planner's estimate ([decision 006](decisions/006-trainer-list-speed.md)).
`;
writeFileSync(out, md);
console.log(md);
