// `npm run bench`: builds, seeds, starts the built server and measures it; rewrites its sections of
// docs/benchmarks.md and writes the raw figures to docs/benchmarks/<date>.json.
// Figures from one run on one machine; compare ratios, not absolute times (the machine is shared).
//
//   npm run bench                                  10,000 trainers, 10 s a request, everything
//   npm run bench -- --trainers 100000             the large run
//   npm run bench -- --duration 2 --trainers 2000 --no-lighthouse   a quick look
//   npm run bench -- --only api                    only the API (also: pages, startup; comma-separated)
//   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench   PostgreSQL too
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SERVER_NODE_ARGS, staleBuilds } from '../scripts/lib/build.mjs';
import { runApi } from './api.mjs';
import { lighthousePages } from './lib/lighthouse.mjs';
import { apiSection, lighthouseSection, runSection, startupSection, updateDoc, weightSection } from './lib/report.mjs';
import { idOf, seedDatabase } from './lib/seed.mjs';
import { serverEnv, spawnServer, waitReady } from './lib/server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: flags } = parseArgs({
  options: {
    trainers: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
    'no-lighthouse': { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    'trainers-list': { type: 'boolean', default: false },
  },
});
const TRAINERS = Number(flags.trainers);
const DURATION = Number(flags.duration);
const CONNECTIONS = Number(flags.connections);
if (!Number.isInteger(TRAINERS) || TRAINERS < 1 || !(DURATION > 0) || !Number.isInteger(CONNECTIONS) || CONNECTIONS < 1) {
  console.error('--trainers and --connections must be whole numbers of at least 1, --duration a positive number of seconds');
  process.exit(1);
}
const PHASES = ['api', 'pages', 'startup'];
const only = flags.only ? flags.only.split(',').map((s) => s.trim()) : PHASES;
if (only.some((p) => !PHASES.includes(p))) {
  console.error(`--only takes ${PHASES.join(', ')} (comma-separated)`);
  process.exit(1);
}
const PG_URL = process.env.BENCH_PG_URL || process.env.DATABASE_URL || '';
const PORT = Number(process.env.BENCH_PORT ?? 3210);
const base = `http://127.0.0.1:${PORT}`;
const now = new Date();
const date = now.toISOString().slice(0, 10);
const log = (...args) => console.log(...args);

const servers = new Set();
const dirs = new Set();
const cleanup = () => {
  for (const s of servers) s.child.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
};
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    cleanup();
    process.exit(130);
  });
const tempDir = (name) => {
  const d = mkdtempSync(join(tmpdir(), `spotter-bench-${name}-`));
  dirs.add(d);
  return d;
};

async function startServer({ dataDir, url }) {
  const server = spawnServer(root, [...SERVER_NODE_ARGS, 'apps/server/dist/main.js'], serverEnv({ port: PORT, dataDir, url }));
  servers.add(server);
  const ready = await waitReady(base, 120_000);
  if (ready === null) {
    await server.stop();
    throw new Error(`the server did not become ready: ${server.errors.join('\n') || 'no error logged'}`);
  }
  return {
    ...server,
    async stop() {
      await server.stop();
      servers.delete(server);
    },
  };
}

// 1. build
if (!flags['no-build'] || !existsSync(join(root, 'apps/server/dist/main.js'))) {
  log('▶ build');
  if (spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);
}

const sections = {};
const raw = { date, startedAt: now.toISOString(), trainers: TRAINERS, duration: DURATION, connections: CONNECTIONS };
const seeds = {};
const apiResults = {};
const serverErrors = {};

// 2. page weight
if (only.includes('pages')) {
  log('▶ page weight');
  const text = spawnSync(process.execPath, ['scripts/check-bundle.mjs'], { cwd: root, encoding: 'utf8' });
  const bundle = JSON.parse(
    spawnSync(process.execPath, ['scripts/check-bundle.mjs', '--json'], { cwd: root, encoding: 'utf8' }).stdout,
  );
  log(text.stdout.trim());
  if (text.status !== 0) log(`  over budget: ${text.stderr.trim()}`);
  sections.weight = weightSection({ date, text: `${text.stdout}${text.stderr}`, bundle });
  raw.bundle = bundle;
}

// 3. PGlite: API, Lighthouse, start-up on one seeded data directory
const lighthouse = only.includes('pages') && !flags['no-lighthouse'];
if (only.includes('api') || lighthouse || only.includes('startup')) {
  const dataDir = tempDir('pglite');
  log(`▶ seeding PGlite with ${TRAINERS.toLocaleString('en')} trainers`);
  seeds.pglite = await seedDatabase({ root, dataDir, trainers: TRAINERS, env: serverEnv({ port: PORT, dataDir }), log });

  if (only.includes('api') || lighthouse) {
    const server = await startServer({ dataDir });
    try {
      if (only.includes('api')) {
        log(`▶ API on PGlite (${CONNECTIONS} connections, ${DURATION} s each)`);
        apiResults.pglite = await runApi({
          root,
          base,
          pid: server.child.pid,
          trainers: TRAINERS,
          duration: DURATION,
          connections: CONNECTIONS,
          log,
        });
        serverErrors.pglite = [...server.errors];
      }
      if (lighthouse) {
        log('▶ Lighthouse (mobile, median of 3)');
        const profilePath = `/trainer/profile/${idOf('trainer', 12)}`;
        const paths = ['/', '/trainers', profilePath, '/BMI', '/users/login'];
        const pages = await lighthousePages(base, paths, { log });
        const chromium = spawnSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).stdout?.trim() || 'Chromium';
        sections.lighthouse = lighthouseSection({ date, pages, chromium, profilePath });
        raw.lighthouse = { chromium, profilePath, pages };
      }
    } finally {
      await server.stop();
    }
  }

  // start-up on this (existing, seeded) data directory
  if (only.includes('startup')) {
    log('▶ start-up');
    const env = serverEnv({ port: PORT, dataDir });
    const time = async (args) => {
      const times = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const s = spawnServer(root, args, env);
        servers.add(s);
        times.push(await waitReady(base, 60_000, started));
        await s.stop();
        servers.delete(s);
      }
      return times;
    };
    const runs = [{ command: 'node apps/server/dist/main.js', times: await time(['apps/server/dist/main.js']) }];
    // npm start (scripts/start.mjs) installs and builds first when it finds them stale; it is timed only when it will not
    const stale = startWouldInstallOrBuild();
    runs.push(
      stale
        ? { command: 'node scripts/start.mjs', skipped: stale }
        : { command: 'node scripts/start.mjs', times: await time(['scripts/start.mjs']) },
    );
    for (const r of runs)
      log(`  ${r.command}: ${r.skipped ?? r.times.map((t) => (t === null ? 'timeout' : `${t.toFixed(0)} ms`)).join(', ')}`);
    sections.startup = startupSection({ date, trainers: TRAINERS, runs });
    raw.startup = runs;
  }
}

// 4. PostgreSQL: the same API table on a dedicated database
if (only.includes('api')) {
  if (!PG_URL) {
    seeds.postgres = {
      skipped:
        '_Not measured: set `DATABASE_URL` or `BENCH_PG_URL` (any database on the server; `spotter_bench_api` is created beside it)._',
    };
  } else {
    const serverRequire = createRequire(join(root, 'apps/server/package.json'));
    const pg = serverRequire('pg');
    const benchUrl = (() => {
      const u = new URL(PG_URL);
      u.pathname = '/spotter_bench_api';
      return u.toString();
    })();
    const admin = new pg.Client({ connectionString: PG_URL });
    let reachable = true;
    try {
      await admin.connect();
      await admin.query('drop database if exists spotter_bench_api with (force)');
      await admin.query('create database spotter_bench_api');
    } catch (err) {
      reachable = false;
      seeds.postgres = { skipped: `_Not measured: PostgreSQL at the given URL failed: ${err.message}._` };
      log(`  PostgreSQL: ${err.message}`);
    }
    if (reachable) {
      try {
        const version = (await admin.query('show server_version')).rows[0].server_version;
        const dataDir = tempDir('pg');
        log(`▶ seeding PostgreSQL ${version} with ${TRAINERS.toLocaleString('en')} trainers`);
        seeds.postgres = {
          ...(await seedDatabase({
            root,
            dataDir,
            url: benchUrl,
            trainers: TRAINERS,
            env: serverEnv({ port: PORT, dataDir, url: benchUrl }),
            log,
          })),
          version,
        };
        const server = await startServer({ dataDir, url: benchUrl });
        try {
          log(`▶ API on PostgreSQL (${CONNECTIONS} connections, ${DURATION} s each)`);
          apiResults.postgres = await runApi({
            root,
            base,
            pid: server.child.pid,
            trainers: TRAINERS,
            duration: DURATION,
            connections: CONNECTIONS,
            log,
          });
          serverErrors.postgres = [...server.errors];
        } finally {
          await server.stop();
        }
      } finally {
        await admin.query('drop database if exists spotter_bench_api with (force)').catch(() => undefined);
        await admin.end();
      }
    }
  }
  sections.api = apiSection({
    date,
    trainers: TRAINERS,
    duration: DURATION,
    connections: CONNECTIONS,
    results: apiResults,
    seeds,
    serverErrors,
  });
  raw.api = { seeds, results: apiResults, serverErrors };
}

// 5. the trainer list on PostgreSQL with 100,000 trainers (bench/trainers-list.mjs), when asked for
if (flags['trainers-list']) {
  log('▶ trainer list on PostgreSQL (bench/trainers-list.mjs)');
  const out = join(root, '.tmp/bench-trainers.md');
  mkdirSync(join(root, '.tmp'), { recursive: true });
  spawnSync(process.execPath, ['bench/trainers-list.mjs', out], { cwd: root, stdio: 'inherit' });
  if (existsSync(out)) sections['trainers-list'] = readFileSync(out, 'utf8');
}

// 6. the report
const machine = `${cpus().length} × ${cpus()[0]?.model?.trim() ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout?.trim();
raw.machine = machine;
raw.commit = commit;
sections.run = runSection({
  date,
  time: now.toISOString().slice(11, 16),
  machine: `${machine}${commit ? `, commit ${commit} (with uncommitted changes, if any)` : ''}`,
  flags: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
});
const docPath = join(root, 'docs/benchmarks.md');
writeFileSync(docPath, updateDoc(docPath, sections));
const jsonDir = join(root, 'docs/benchmarks');
mkdirSync(jsonDir, { recursive: true });
const jsonPath = join(jsonDir, `${date}.json`);
// runs of one day are merged: a later `--only api` keeps the same day's pages
const previous = existsSync(jsonPath) ? JSON.parse(readFileSync(jsonPath, 'utf8')) : {};
writeFileSync(jsonPath, `${JSON.stringify({ ...previous, ...raw }, null, 2)}\n`);
spawnSync(join(root, 'node_modules/.bin/prettier'), ['--write', '--log-level', 'warn', docPath, jsonPath], {
  cwd: root,
  stdio: 'inherit',
});

for (const name of ['weight', 'lighthouse', 'api', 'startup']) if (sections[name]) log(`\n${sections[name]}`);
log(`\nWrote docs/benchmarks.md and docs/benchmarks/${date}.json`);
process.exit(0);

/** Why `npm start` would install or build first (scripts/start.mjs's own checks), or '' when it would not. */
function startWouldInstallOrBuild() {
  const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);
  const lock = join(root, 'package-lock.json');
  if (
    !existsSync(join(root, 'node_modules/.package-lock.json')) ||
    mtime(lock) > mtime(join(root, 'node_modules/.package-lock.json'))
  )
    return 'it would install dependencies first (package-lock.json is newer than node_modules)';
  const stale = staleBuilds(root);
  if (stale.web) return 'it would build the web app first (sources newer than apps/web/dist or dist-ssr)';
  if (stale.server) return 'it would build the server first (sources newer than apps/server/dist)';
  return '';
}
