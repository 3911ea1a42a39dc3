// `node bench/soak.mjs`: a soak test of the cluster (`npm run cluster`). N simulated people, each on
// their own account, for M minutes: browse the trainer list and profiles, log in, favourite, review,
// chat over the WebSocket and book slots. Records each endpoint's p50/p99 and 5xx, lost chat messages
// (every 201 message must arrive on the sender's socket), lost bookings (every 201 booking must be
// in GET /api/bookings afterwards) and the server processes' memory over time, and writes the
// `soak` section of docs/benchmarks.md.
//
//   npm run cluster -- --processes 3            # in one terminal
//   node bench/soak.mjs --people 200 --minutes 5 # in another
//
// The accounts are the benchmarks' (bench/lib/seed.mjs: bench-user-0… with the demo password),
// added to the cluster's database when missing, not the demo ones: the login lockout and the
// per-account limits would throttle 200 people sharing one account.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { updateDoc } from './lib/report.mjs';
import { BENCH_PASSWORD, BENCH_USERS, TRAINERS_WITH_HOURS, idOf, seedDatabase } from './lib/seed.mjs';
import { usage } from './lib/server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const serverRequire = createRequire(join(root, 'apps/server/package.json'));
const WebSocket = serverRequire('ws');
const pg = serverRequire('pg');

const { values: flags } = parseArgs({
  options: {
    people: { type: 'string', default: '200' },
    minutes: { type: 'string', default: '5' },
    url: { type: 'string', default: 'http://127.0.0.1:8080' },
    /** cluster.json written by scripts/cluster.mjs: the processes' pids, ports and the database */
    cluster: { type: 'string' },
    /** mean pause between one person's actions */
    'think-ms': { type: 'string', default: '2000' },
    'bench-trainers': { type: 'string', default: '2000' },
    'no-report': { type: 'boolean', default: false },
  },
});
const PEOPLE = Number(flags.people);
const MINUTES = Number(flags.minutes);
const THINK_MS = Number(flags['think-ms']);
const base = flags.url.replace(/\/$/, '');
if (!Number.isInteger(PEOPLE) || PEOPLE < 1 || PEOPLE > BENCH_USERS) throw new Error(`--people: 1 to ${BENCH_USERS}`);
if (!(MINUTES > 0)) throw new Error('--minutes must be positive');

const clusterFile = flags.cluster ?? join(tmpdir(), `spotter-cluster-${new URL(base).port || 80}`, 'cluster.json');
const cluster = existsSync(clusterFile) ? JSON.parse(readFileSync(clusterFile, 'utf8')) : undefined;
if (!cluster) console.warn(`No ${clusterFile}: the servers' memory is not recorded (run the cluster with npm run cluster).`);
const databaseUrl = cluster?.databaseUrl ?? process.env.DATABASE_URL;
const log = (...a) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...a);

// 1. accounts: the benchmark users and trainers, once per database
async function ensureAccounts() {
  if (!databaseUrl) throw new Error('the cluster database is unknown: pass --cluster or DATABASE_URL');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const count = async () =>
      (await client.query(`select count(*)::int as n from accounts where email like 'bench-user-%@spotter.test'`)).rows[0].n;
    const have = await count();
    if (have >= PEOPLE) return;
    if (have > 0) throw new Error(`the database has ${have} bench users, fewer than --people ${PEOPLE}`);
    log(`Adding the benchmark accounts (${BENCH_USERS} users, ${flags['bench-trainers']} trainers) to the cluster's database…`);
    const dataDir = mkdtempSync(join(tmpdir(), 'spotter-soak-'));
    try {
      await seedDatabase({ root, dataDir, url: databaseUrl, trainers: Number(flags['bench-trainers']), env: process.env });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    // the processes drop the answers they cached (the seed's own writes announce themselves too; docs/caching.md)
    await client.query(`select pg_notify('spotter_change', 'accounts')`);
  } finally {
    await client.end();
  }
}

// 2. measurements
const endpoints = new Map(); // name → { latencies, statuses }
function record(name, ms, status) {
  let e = endpoints.get(name);
  if (!e) endpoints.set(name, (e = { latencies: [], statuses: {} }));
  e.latencies.push(ms);
  e.statuses[status] = (e.statuses[status] ?? 0) + 1;
}
async function call(name, method, path, { token, body } = {}) {
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(token ? { authorization: token } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    record(name, performance.now() - t0, res.status);
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json };
  } catch (err) {
    record(name, performance.now() - t0, err.name === 'TimeoutError' ? 'timeout' : 'network');
    return { status: 0 };
  }
}

/** `pending`: sent, push not seen yet (id → when sent); `early`: pushed before the POST answered (id → when). */
const chat = { sent: 0, delivered: 0, pending: new Map(), early: new Map(), pushLatencies: [], reconnects: 0 };
const bookings = { created: 0, lost: 0, statuses: {} };
const memory = []; // { t (s), rss: MiB[] }

function delivered(latency) {
  chat.delivered++;
  chat.pushLatencies.push(latency);
}
const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];
const think = () => sleep(THINK_MS * (0.5 + Math.random()));

/** The person's chat socket through the load balancer; reopened if it closes during the run. */
function openSocket(token, isRunning) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`);
    let ready = false;
    ws.on('error', (err) => !ready && reject(err));
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === 'ready') {
        ready = true;
        return resolve(ws);
      }
      if (frame.type !== 'message') return;
      // a person's socket gets only their own conversations' messages, and in the soak only they write
      const sent = chat.pending.get(frame.message._id);
      if (sent === undefined) return void chat.early.set(frame.message._id, performance.now());
      chat.pending.delete(frame.message._id);
      delivered(performance.now() - sent);
    });
    ws.on('close', () => {
      if (!ready || !isRunning()) return;
      chat.reconnects++;
      openSocket(token, isRunning).catch(() => undefined);
    });
  });
}

async function person(i, endAt, trainerIds) {
  const me = { id: idOf('user', i), booked: [] };
  const login = await call('POST /api/users/login', 'POST', '/api/users/login', {
    body: { email: `bench-user-${i}@spotter.test`, password: BENCH_PASSWORD },
  });
  if (login.status !== 200) return me;
  const token = login.json.token;
  const running = () => performance.now() < endAt;
  const ws = await openSocket(token, running).catch(() => undefined);
  while (running()) {
    await think();
    if (!running()) break;
    const r = Math.random();
    const trainerId = pick(trainerIds);
    if (r < 0.45) {
      // browse: a page of the list, a profile from it and its reviews
      const q = pick(['', '', '&q=yoga', '&city=Cairo', '&sort=price_asc', '&minPrice=200&maxPrice=600']);
      const list = await call('GET /api/trainers', 'GET', `/api/trainers?page=${1 + Math.floor(Math.random() * 20)}${q}`);
      const id = list.json?.viewAllTrainers?.length ? pick(list.json.viewAllTrainers)._id : trainerId;
      await call('GET /api/trainerData/:id', 'GET', `/api/trainerData/${id}`);
      await call('GET /api/trainer/reviews/:id', 'GET', `/api/trainer/reviews/${id}`);
    } else if (r < 0.55) {
      await call('PUT /api/favorites/:trainerId', 'PUT', `/api/favorites/${trainerId}`, { token });
    } else if (r < 0.62) {
      await call('POST /api/reviews/new', 'POST', '/api/reviews/new', {
        token,
        body: { trainerId, rating: 1 + Math.floor(Math.random() * 5), comment: `Soak review from person ${i}` },
      });
    } else if (r < 0.85) {
      const t0 = performance.now();
      const sent = await call('POST /api/chats', 'POST', '/api/chats', {
        token,
        body: { message: `soak ${i} ${Math.random().toString(36).slice(2)}`, recipientId: trainerId },
      });
      if (sent.status === 201) {
        chat.sent++;
        const id = sent.json.message._id;
        if (chat.early.has(id)) {
          delivered(chat.early.get(id) - t0);
          chat.early.delete(id);
        } else chat.pending.set(id, t0);
      }
    } else {
      const bookable = idOf('trainer', Math.floor(Math.random() * Math.min(TRAINERS_WITH_HOURS, trainerIds.length)));
      const slots = await call('GET /api/trainers/:id/slots', 'GET', `/api/trainers/${bookable}/slots`);
      const startsAt = slots.json?.slots?.length ? pick(slots.json.slots) : undefined;
      if (!startsAt) continue;
      const made = await call('POST /api/bookings', 'POST', '/api/bookings', { token, body: { trainerId: bookable, startsAt } });
      bookings.statuses[made.status] = (bookings.statuses[made.status] ?? 0) + 1;
      if (made.status === 201) {
        bookings.created++;
        me.booked.push(made.json.booking._id);
      }
    }
  }
  return { ...me, token, ws };
}

// 3. the run
await ensureAccounts();
const health = await fetch(`${base}/api/health/ready`).catch(() => undefined);
if (!health?.ok) throw new Error(`${base}/api/health/ready does not answer 200: is the cluster running?`);
const trainerIds = Array.from({ length: Number(flags['bench-trainers']) }, (_, t) => idOf('trainer', t));

/** What the processes logged at warn or above during the run (their logs sit beside cluster.json). */
const serverLogs = (cluster?.servers ?? []).map((s) => join(dirname(clusterFile), `server-${s.port}.log`));
const logOffsets = serverLogs.map((f) => (existsSync(f) ? statSync(f).size : 0));
// a failed query's message quotes its SQL: one kind for all of them
const summary = (message) => (message.startsWith('Failed query:') ? 'Failed query: …' : message.split('\n')[0].slice(0, 80));
function loggedProblems() {
  const kinds = new Map();
  serverLogs.forEach((f, i) => {
    if (!existsSync(f)) return;
    for (const line of readFileSync(f).subarray(logOffsets[i]).toString('utf8').split('\n')) {
      if (!/^\{"level":(40|50|60)/.test(line)) continue;
      const entry = JSON.parse(line);
      const where = (entry.err?.stack ?? '').split('\n').find((l) => /apps\/server\/src/.test(l));
      const kind = `${entry.level >= 50 ? 'error' : 'warn'}: ${entry.msg} (${entry.err?.type ?? ''}${entry.err?.message ? `: ${summary(entry.err.message)}` : ''})${
        where
          ? ` ${where
              .trim()
              .replace(/^at /, 'at ')
              .replace(/\/.*\/apps\/server\//, 'apps/server/')}`
          : ''
      }`;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
  });
  return [...kinds.entries()].sort((a, b) => b[1] - a[1]);
}

log(`${PEOPLE} people for ${MINUTES} min against ${base}${cluster ? ` (${cluster.servers.length} processes)` : ''}`);
const started = performance.now();
const endAt = started + MINUTES * 60_000;
const sampleMemory = () => {
  if (cluster) memory.push({ t: (performance.now() - started) / 1000, rss: cluster.servers.map((s) => usage(s.pid).rss) });
};
sampleMemory();
const sampler = setInterval(sampleMemory, 5_000);
const progress = setInterval(() => {
  const n = [...endpoints.values()].reduce((s, e) => s + e.latencies.length, 0);
  log(`${n} requests, ${chat.sent} messages (${chat.pending.size} not yet pushed), ${bookings.created} bookings`);
}, 30_000);
const loadBefore = loadavg()[0];
// people arrive over the first 20 s (or tenth of the run), not all in the same millisecond
const ramp = Math.min(20_000, (MINUTES * 60_000) / 10);
const people = await Promise.all(
  Array.from({ length: PEOPLE }, async (_, i) => {
    await sleep((ramp * i) / PEOPLE);
    return person(i, endAt, trainerIds);
  }),
);
const loadAfter = loadavg()[0];
clearInterval(progress);

// messages still on their way get 15 s to arrive; then what is missing is lost
const waitUntil = performance.now() + 15_000;
while (chat.pending.size && performance.now() < waitUntil) await sleep(100);
const lostMessages = chat.pending.size;
sampleMemory();
clearInterval(sampler);

// every 201 booking must be listed afterwards
for (const p of people) {
  if (!p.booked.length) continue;
  const list = await call('GET /api/bookings', 'GET', '/api/bookings', { token: p.token });
  const ids = new Set((list.json?.bookings ?? []).map((b) => b._id));
  bookings.lost += p.booked.filter((id) => !ids.has(id)).length;
}
for (const p of people) p.ws?.close();

// requests per process, from each process's own /api/metrics
const perProcess = [];
for (const s of cluster?.servers ?? []) {
  const res = await fetch(`http://127.0.0.1:${s.port}/api/metrics`, {
    headers: { authorization: `Bearer ${cluster.metricsToken}` },
  }).catch(() => undefined);
  if (!res?.ok) {
    perProcess.push(undefined);
    continue;
  }
  const text = await res.text();
  perProcess.push(
    text
      .split('\n')
      .filter((l) => l.startsWith('http_requests_total{'))
      .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0),
  );
}

// 4. the report
const quantile = (xs, q) => {
  if (!xs.length) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const ms = (n) => (Number.isFinite(n) ? `${n < 10 ? n.toFixed(1) : n.toFixed(0)} ms` : 'n/a');
const rows = [...endpoints.entries()].sort(([a], [b]) => a.localeCompare(b));
const fivexx = (e) =>
  Object.entries(e.statuses)
    .filter(([s]) => /^5/.test(s) || s === 'timeout' || s === 'network')
    .reduce((n, [, c]) => n + c, 0);
const total5xx = rows.reduce((n, [, e]) => n + fivexx(e), 0);
const totalRequests = rows.reduce((n, [, e]) => n + e.latencies.length, 0);
const seconds = (performance.now() - started) / 1000;

const at = (t) => memory.reduce((best, m) => (Math.abs(m.t - t) < Math.abs(best.t - t) ? m : best), memory[0]);
const warm = memory.length ? at(Math.min(60, seconds / 3)) : undefined;
const last = memory.at(-1);
const memoryRows = (cluster?.servers ?? []).map((s, i) => {
  const series = memory.map((m) => m.rss[i]).filter(Number.isFinite);
  const growth = warm && last ? ((last.rss[i] - warm.rss[i]) / warm.rss[i]) * 100 : NaN;
  return `| ${s.port} | ${series[0]?.toFixed(0)} MiB | ${warm?.rss[i].toFixed(0)} MiB | ${Math.max(...series).toFixed(0)} MiB | ${last?.rss[i].toFixed(0)} MiB | ${growth >= 0 ? '+' : ''}${growth.toFixed(1)} % | ${perProcess[i] ?? 'n/a'} |`;
});
const problems = loggedProblems();
const minuteMarks = memory.filter((m, i) => i === 0 || Math.floor(m.t / 60) !== Math.floor(memory[i - 1].t / 60));
const date = new Date().toISOString().slice(0, 10);
const section = `## Soak: the cluster under ${PEOPLE} people (${date})

\`node bench/soak.mjs --people ${PEOPLE} --minutes ${MINUTES}\` against \`npm run cluster\` (${cluster ? `${cluster.servers.length} processes` : 'processes unknown'} behind nginx,
PostgreSQL), on the same ${cpus().length}-core machine as the client (load average ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end).
Each person logs in on their own account (\`bench-user-N\`), opens the chat socket through nginx, then every
${(THINK_MS / 1000).toFixed(1)} s on average browses (a list page, a profile, its reviews), favourites, reviews, sends a chat message
or books a slot (a person may hold only a few unpaid bookings: further tries answer 409 \`TOO_MANY_HOLDS\`).${MINUTES < 5 ? ` **A shorter run than the 5 minutes the issue asks for: ${MINUTES} min.**` : ''}

- Requests: ${totalRequests.toLocaleString('en')} in ${seconds.toFixed(0)} s; **5xx, time-outs and network errors: ${total5xx}**.
- Chat: ${chat.sent} messages sent (201), ${chat.delivered} pushed to the sender's socket, **lost: ${lostMessages}**; push p50 ${ms(quantile(chat.pushLatencies, 0.5))}, p99 ${ms(quantile(chat.pushLatencies, 0.99))}; sockets reopened after closing: ${chat.reconnects}.
- Bookings: ${bookings.created} made (201), **lost: ${bookings.lost}** (every one is in \`GET /api/bookings\` afterwards); answers ${Object.entries(
  bookings.statuses,
)
  .map(([s, n]) => `${n}× ${s}`)
  .join(', ')}.

| endpoint | requests | p50 | p99 | 5xx | answers |
| --- | --- | --- | --- | --- | --- |
${rows
  .map(
    ([name, e]) =>
      `| \`${name}\` | ${e.latencies.length} | ${ms(quantile(e.latencies, 0.5))} | ${ms(quantile(e.latencies, 0.99))} | ${fivexx(e)} | ${Object.entries(
        e.statuses,
      )
        .map(([s, n]) => `${n}× ${s}`)
        .join(', ')} |`,
  )
  .join('\n')}

Server memory (RSS from \`/proc\`, every 5 s; growth from the ${warm ? `${warm.t.toFixed(0)} s` : 'warm-up'} sample to the end; requests
each process answered, from its \`/api/metrics\`):

| process (port) | at start | after warm-up | peak | at the end | growth | requests |
| --- | --- | --- | --- | --- | --- | --- |
${memoryRows.join('\n')}

What the processes logged at warn or error level during the run:
${problems.length ? problems.map(([kind, n]) => `- ${n}× ${kind.replace(/\|/g, '/')}`).join('\n') : '- nothing'}

RSS each minute (MiB, one column per process): ${minuteMarks.map((m) => `${(m.t / 60).toFixed(0)} min: ${m.rss.map((r) => r.toFixed(0)).join('/')}`).join('; ')}.
`;
console.log(`\n${section}`);
if (!flags['no-report']) {
  const path = join(root, 'docs/benchmarks.md');
  writeFileSync(path, updateDoc(path, { soak: section }));
  // as bench/run.mjs does: the tables aligned, so `npm run format:check` passes
  spawnSync(join(root, 'node_modules/.bin/prettier'), ['--write', '--log-level', 'warn', path], { stdio: 'inherit' });
  log('docs/benchmarks.md: soak section written');
}
process.exit(total5xx || lostMessages || bookings.lost ? 1 : 0);
