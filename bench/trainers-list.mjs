// The trainer list on PostgreSQL with 100,000 trainers: server time (Server-Timing) of the first
// page and page 200 of filtered, sorted lists. Needs PostgreSQL: BENCH_PG_URL or the local default.
import { fileURLToPath } from 'node:url';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const root = fileURLToPath(new URL('..', import.meta.url));
const admin = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = 'spotter_bench';
const url = admin.replace(/\/[^/]*$/, `/${dbName}`);
const TRAINERS = Number(process.env.BENCH_TRAINERS ?? 100_000);
const PORT = 3201;
const base = `http://127.0.0.1:${PORT}`;
const out = process.argv[2] ?? `${root}.tmp/bench-trainers.md`;

const psql = (sql) => spawnSync('psql', [admin, '-qAtc', sql], { encoding: 'utf8' });
if (psql('select 1').status !== 0) {
  writeFileSync(out, '## Trainer list on PostgreSQL\nNot measured: PostgreSQL was not reachable.\n');
  console.log('PostgreSQL not reachable; skipped');
  process.exit(0);
}
psql(`drop database if exists ${dbName} with (force)`);
psql(`create database ${dbName}`);
const seed = spawnSync(process.execPath, ['apps/server/dist/seed.js', '--trainers', String(TRAINERS)], {
  cwd: root,
  env: { ...process.env, DATABASE_URL: url },
  encoding: 'utf8',
});
console.log(seed.stdout.trim());
spawnSync('psql', [url, '-qc', 'vacuum analyze accounts']);

const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
  cwd: root,
  // SERVER_TIMING: the figures below come from the Server-Timing header, off in production by default
  env: {
    ...process.env,
    PORT: String(PORT),
    DATABASE_URL: url,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    SERVER_TIMING: 'true',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-1234',
  },
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

async function measure(query, n = 60) {
  const server = [];
  const wall = [];
  let body;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(`${base}/api/trainers?${query}`);
    body = await res.json();
    wall.push(performance.now() - t);
    server.push(Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? NaN));
  }
  const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  return {
    query,
    p50: q(server, 0.5),
    p95: q(server, 0.95),
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
  'q=yoga&sort=rating',
  'q=yoga&sort=rating&page=50',
];
for (const q of queries) await measure(q, 10); // warm-up
const rows = [];
for (const q of queries) rows.push(await measure(q));
server.kill();

const md = `## Trainer list on PostgreSQL 15 (${TRAINERS.toLocaleString('en')} extra trainers, \`bench/trainers-list.mjs\`)
Server time from the \`Server-Timing\` header (routing, validation, both queries, serialisation),
60 sequential requests each after a warm-up. Budget (issue 3): under 20 ms for the first page and
page 200 of a filtered, sorted list.

| query | server p50 | server p95 | wall p50 | rows | total |
| --- | --- | --- | --- | --- | --- |
${rows.map((r) => `| \`${r.query}\` | ${r.p50.toFixed(2)} ms | ${r.p95.toFixed(2)} ms | ${r.wall50.toFixed(2)} ms | ${r.rows} | ${r.total} |`).join('\n')}

Totals above 2,000 are the planner's estimate (decision 006).
`;
writeFileSync(out, md);
console.log(md);
