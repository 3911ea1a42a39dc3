// Chat delivery under load: N WebSockets on one server process, messages posted at a steady rate,
// and the time from the POST to each push arriving. Not part of any test run.
//
//   node bench/chat.mjs                      10,000 sockets, 200 messages/s for 60 s, PGlite
//   BENCH_SOCKETS=2000 BENCH_RATE=100 BENCH_SECONDS=20 node bench/chat.mjs
//   BENCH_CPU_PROF=/tmp/prof node bench/chat.mjs   (a CPU profile of the server)
//   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/spotter_chat_bench node bench/chat.mjs   (the database is recreated)
//
// Accounts are inserted directly and their tokens signed with the server's secret, so no Argon2
// runs; each message goes from a user to a trainer, and both have 8 sockets open (two people on
// four devices each, as it were), so one message is 16 pushes.
import { fileURLToPath } from 'node:url';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const root = fileURLToPath(new URL('..', import.meta.url));
const serverRequire = createRequire(join(root, 'apps/server/package.json'));
const WebSocket = serverRequire('ws');
const { SignJWT } = await import(serverRequire.resolve('jose'));

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const PER_ACCOUNT = 8;
const PG_URL = process.env.BENCH_PG_URL;
const PORT = Number(process.env.BENCH_PORT ?? 3202);
const base = `http://127.0.0.1:${PORT}`;
const SECRET = 'bench-secret-bench-secret-bench-secret-1234';

const accountsNeeded = Math.ceil(SOCKETS / PER_ACCOUNT);
const TRAINERS = Math.max(1, Math.ceil(accountsNeeded / 10));
const USERS = Math.max(1, accountsNeeded - TRAINERS);
/** The same uuid as PostgreSQL's md5(text)::uuid. */
const idOf = (kind, i) => {
  const h = createHash('md5').update(`bench-${kind}-${i}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

// 1. a fresh database with the accounts, written before the server holds the PGlite lock
const dataDir = mkdtempSync(join(tmpdir(), 'spotter-chat-bench-'));
if (PG_URL) {
  const admin = PG_URL.replace(/\/[^/]*$/, '/postgres');
  const name = new URL(PG_URL).pathname.slice(1);
  spawnSync('psql', [admin, '-qc', `drop database if exists ${name} with (force)`]);
  if (spawnSync('psql', [admin, '-qc', `create database ${name}`]).status !== 0)
    throw new Error('cannot create the bench database');
}
const seedSql = `
insert into accounts (id, role, email, password_hash, first_name, last_name, gender, age, height, weight, price_cents, email_verified_at)
select md5('bench-user-' || i)::uuid, 'user', 'bench-user-' || i || '@example.com', '!', 'User', 'N' || i, 'male', 30, 180, 80, null, now()
from generate_series(0, ${USERS - 1}) i;
insert into accounts (id, role, email, password_hash, first_name, last_name, gender, age, height, weight, price_cents, email_verified_at)
select md5('bench-trainer-' || i)::uuid, 'trainer', 'bench-trainer-' || i || '@example.com', '!', 'Coach', 'N' || i, 'female', 30, 170, 60, 20000, now()
from generate_series(0, ${TRAINERS - 1}) i;`;
const seedScript = `
import { openDatabase } from ${JSON.stringify(join(root, 'apps/server/src/db/client.ts'))};
import { migrate } from ${JSON.stringify(join(root, 'apps/server/src/db/migrate.ts'))};
const database = await openDatabase(${JSON.stringify(PG_URL ? { url: PG_URL } : { dataDir })});
await migrate(database);
await database.withLock(1, (exec) => exec(${JSON.stringify(seedSql)}));
await database.close();`;
const seeded = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', seedScript], {
  cwd: root,
  encoding: 'utf8',
});
if (seeded.status !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);

const METRICS_TOKEN = 'bench-metrics-token';
// 2. the server, one process: the built one, as `npm start` runs it (built first if missing or stale)
const { buildIfStale, SERVER_NODE_ARGS, serverEnv } = await import('../scripts/lib/build.mjs');
const { serverOut } = buildIfStale(root, (what, cmd, args) => {
  if (spawnSync(cmd, args, { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error(`${what} failed`);
});
// BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops (open it in Chrome's DevTools)
const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
// BENCH_NODE_ARGS: extra node options for the server (say `--max-old-space-size=256`), to compare
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const server = spawn(process.execPath, [...SERVER_NODE_ARGS, ...nodeArgs, ...profile, serverOut], {
  cwd: root,
  env: serverEnv({
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ...(PG_URL ? { DATABASE_URL: PG_URL } : { DATABASE_URL: '' }),
    LOG_LEVEL: 'warn',
    NODE_ENV: process.env.BENCH_NODE_ENV ?? 'production',
    JWT_SECRET: SECRET,
    RATE_LIMIT_MAX: '10000000',
    // 10,000 sockets from 127.0.0.1, 200 handshakes at once
    WS_UNAUTHENTICATED_PER_IP: '100000',
    WS_UNAUTHENTICATED_MAX: '100000',
    METRICS_TOKEN,
  }),
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stop = () => {
  server.kill();
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', stop);
for (let i = 0; i < 300; i++) {
  if (
    await fetch(`${base}/api/health/ready`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await sleep(200);
}

/** Server RSS (MiB) and CPU seconds so far, from /proc. */
const usage = () => {
  const stat = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]);
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) / 1024;
  return { rss, cpu: ticks / 100 };
};
/** The server's JavaScript heap in use and its memory outside the heap (buffers, wasm), MiB, from /api/metrics. */
const heap = async () => {
  const text = await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).then((r) =>
    r.text(),
  );
  const read = (name) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
  return {
    used: read('nodejs_heap_size_used_bytes'),
    total: read('nodejs_heap_size_total_bytes'),
    external: read('nodejs_external_memory_bytes'),
  };
};
const idle = { ...usage(), ...(await heap()) };

// 3. tokens and sockets
const key = new TextEncoder().encode(SECRET);
const sign = (id, role) =>
  new SignJWT({ id, role, tv: 0 })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(id)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(key);
const users = await Promise.all(
  Array.from({ length: USERS }, async (_, i) => ({ id: idOf('user', i), token: await sign(idOf('user', i), 'user') })),
);
const trainers = await Promise.all(
  Array.from({ length: TRAINERS }, async (_, i) => ({
    id: idOf('trainer', i),
    token: await sign(idOf('trainer', i), 'trainer'),
  })),
);

const sentAt = new Map(); // message text → POST start
const latencies = [];
/** The slowest push of the messages posted in each second of the run: shows whether the tail is a few stalls or spread out. */
const worstBySecond = [];
let started = 0;
let pushes = 0;
let unexpected = 0;
function open(token) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/api/ws`);
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
    ws.on('close', (code) => code !== 1000 && code !== 1005 && unexpected++);
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === 'ready') return resolve(ws);
      if (frame.type !== 'message') return;
      const t0 = sentAt.get(frame.message.message);
      if (t0 === undefined) return;
      pushes++;
      const now = performance.now();
      latencies.push(now - t0);
      const second = Math.floor((t0 - started) / 1000);
      worstBySecond[second] = Math.max(worstBySecond[second] ?? 0, now - t0);
    });
  });
}
const connectStarted = performance.now();
const owners = [...trainers, ...users];
const sockets = [];
for (let i = 0; i < SOCKETS; i += 200) {
  const batch = [];
  for (let j = i; j < Math.min(SOCKETS, i + 200); j++)
    batch.push(open(owners[Math.floor(j / PER_ACCOUNT) % owners.length].token));
  sockets.push(...(await Promise.all(batch)));
}
const connectSeconds = (performance.now() - connectStarted) / 1000;
const connected = { ...usage(), ...(await heap()) };

// 4. a steady rate of messages from users to trainers, over a fixed pool of keep-alive connections
// (as a load balancer in front of the process would hold), so the figures are the server's and not
// the cost of opening a connection per request
const HTTP_CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 32);
const agent = new http.Agent({ keepAlive: true, maxSockets: HTTP_CONNECTIONS });
const post = (token, body) =>
  new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/api/chats`,
      {
        method: 'POST',
        agent,
        timeout: 30_000,
        headers: { authorization: token, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', reject);
    req.end(body);
  });
const postLatencies = [];
let failed = 0;
const statuses = {};
// the bench's own event-loop delay: when it is high, the client, not the server, is the bottleneck
const { monitorEventLoopDelay } = await import('node:perf_hooks');
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
let n = 0;
started = performance.now();
const before = usage();
const inflight = new Set();
while (performance.now() - started < SECONDS * 1000) {
  const due = Math.floor(((performance.now() - started) / 1000) * RATE);
  while (n < due) {
    const i = n++;
    const from = users[i % users.length];
    // each user writes to the trainers whose sockets exist: the first ones in `owners`
    const to = trainers[i % trainers.length];
    const text = `bench ${i}`;
    const t0 = performance.now();
    sentAt.set(text, t0);
    const p = post(from.token, JSON.stringify({ message: text, recipientId: to.id }))
      .then((res) => {
        if (res.status !== 201) {
          failed++;
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        }
        postLatencies.push(performance.now() - t0);
      })
      .catch((err) => {
        failed++;
        const why = err.code ?? err.name;
        statuses[why] = (statuses[why] ?? 0) + 1;
      })
      .finally(() => inflight.delete(p));
    inflight.add(p);
  }
  await sleep(5);
}
await Promise.all(inflight);
const expectedPushes = (() => {
  // pushes per message: the sockets of its user and of its trainer
  let total = 0;
  const socketsOf = (idx) => Math.max(0, Math.min(PER_ACCOUNT, SOCKETS - idx * PER_ACCOUNT));
  for (let i = 0; i < n; i++) total += socketsOf(TRAINERS + (i % users.length)) + socketsOf(i % trainers.length);
  return total;
})();
for (let i = 0; i < 100 && pushes < expectedPushes; i++) await sleep(100);
const after = { ...usage(), ...(await heap()) };
const elapsed = (performance.now() - started) / 1000;
for (const ws of sockets) ws.terminate();
stop();

const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
};
const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
console.log(`## Chat delivery (\`bench/chat.mjs\`, ${PG_URL ? 'PostgreSQL' : 'PGlite'}, one process)

${SOCKETS.toLocaleString('en')} sockets (${owners.length} accounts, ${PER_ACCOUNT} sockets each), ${RATE} messages/s for ${SECONDS} s, posted over ${HTTP_CONNECTIONS} keep-alive connections;
each message is pushed to the 2 × ${PER_ACCOUNT} sockets of its user and trainer. Latency: from the POST's start to the
push arriving at a socket, client and server on the same 2-core machine.

| figure | value |
| --- | --- |
| sockets connected and authenticated | ${sockets.length.toLocaleString('en')} in ${f(connectSeconds)} s |
| messages posted / failed | ${n.toLocaleString('en')} / ${failed} (${f(n / elapsed)} per s achieved)${failed ? ` ${JSON.stringify(statuses)}` : ''} |
| POST latency p50 / p99 | ${f(q(postLatencies, 0.5))} / ${f(q(postLatencies, 0.99))} ms |
| pushes received / expected | ${pushes.toLocaleString('en')} / ${expectedPushes.toLocaleString('en')} |
| delivery latency p50 / p99 / max | ${f(q(latencies, 0.5))} / ${f(q(latencies, 0.99))} / ${f(q(latencies, 1))} ms |
| server RSS idle / with sockets / after sending | ${f(idle.rss, 0)} / ${f(connected.rss, 0)} / ${f(after.rss, 0)} MiB |
| server JS heap used / allocated, idle | ${f(idle.used, 0)} / ${f(idle.total, 0)} MiB |
| server JS heap used / allocated, with sockets | ${f(connected.used, 0)} / ${f(connected.total, 0)} MiB |
| server JS heap used / allocated, after sending | ${f(after.used, 0)} / ${f(after.total, 0)} MiB |
| server memory outside the JS heap (external), idle / with sockets / after | ${f(idle.external, 0)} / ${f(connected.external, 0)} / ${f(after.external, 0)} MiB |
| server CPU while sending | ${f(((after.cpu - before.cpu) / elapsed) * 100, 0)} % of one core |
| sockets closed unexpectedly | ${unexpected} |
| bench client event-loop delay p99 / max | ${f(loopDelay.percentile(99) / 1e6)} / ${f(loopDelay.max / 1e6)} ms |
| seconds whose slowest push took over 50 ms | ${worstBySecond.filter((x) => x > 50).length} of ${worstBySecond.length}: ${worstBySecond
  .map((x, s) => [s, x])
  .filter(([, x]) => x > 50)
  .map(([s, x]) => `${s} s: ${f(x, 0)} ms`)
  .join(', ')} |
`);
process.exit(0);
