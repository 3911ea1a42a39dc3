// The API under load: autocannon at 50 connections for 10 s per request, one after the other, each
// reported as requests per second, p50 and p99, errors and its ratio to GET /api/health in the same
// run, with the server's peak RSS (sampled every 200 ms) and CPU. Used by bench/run.mjs.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { ACTIVE_ACCOUNTS, BENCH_PASSWORD, BENCH_USERS, TRAINERS_WITH_HOURS, idOf } from './lib/seed.mjs';
import { JWT_SECRET, rssSampler, usage } from './lib/server.mjs';

/** Cycles through `xs` across all connections (autocannon's `requests` would start each connection at the same place). */
const cycle = (xs) => {
  let i = 0;
  return () => xs[i++ % xs.length];
};
/** A fixed shuffle (LCG), so each run asks for the same ids in the same order. */
function shuffled(n, count, seed = 12) {
  const out = [];
  let x = seed;
  for (let i = 0; i < count; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push(x % n);
  }
  return out;
}

async function tokensFor(root) {
  const serverRequire = createRequire(join(root, 'apps/server/package.json'));
  const { SignJWT } = await import(pathToFileURL(serverRequire.resolve('jose')).href);
  const key = new TextEncoder().encode(JWT_SECRET);
  // the server's claims (apps/server/src/lib/tokens.ts); tv 0 is a new account's token version
  const sign = (id, role) =>
    new SignJWT({ id, role, tv: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(id)
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(key);
  const n = ACTIVE_ACCOUNTS;
  const users = await Promise.all(Array.from({ length: n }, async (_, i) => ({ i, token: await sign(idOf('user', i), 'user') })));
  const trainers = await Promise.all(
    Array.from({ length: n }, async (_, i) => ({ i, id: idOf('trainer', i), token: await sign(idOf('trainer', i), 'trainer') })),
  );
  return { users, trainers };
}

/** The requests measured; `next()` gives each request's path, and headers or body where needed. */
function endpoints({ trainers, deepSearchPage, tokens }) {
  const active = Math.min(ACTIVE_ACCOUNTS, trainers);
  const anyTrainer = cycle(shuffled(trainers, 5000).map((i) => idOf('trainer', i)));
  const withHours = cycle(shuffled(Math.min(TRAINERS_WITH_HOURS, trainers), 2000).map((i) => idOf('trainer', i)));
  const user = cycle(tokens.users);
  const trainer = cycle(tokens.trainers.slice(0, active));
  const login = cycle(shuffled(BENCH_USERS, 5000, 7).map((i) => `bench-user-${i}@spotter.test`));
  const auth = (token) => ({ authorization: `Bearer ${token}` });
  const get = (name, path, group, extra = {}) => ({ name, group, method: 'GET', next: () => ({ path }), ...extra });
  return [
    get('GET /api/health', '/api/health', 'ceiling'),
    get('GET /api/trainers', '/api/trainers', 'trainer list'),
    get(
      'GET /api/trainers?city=Cairo&minPrice=200&maxPrice=600',
      '/api/trainers?city=Cairo&minPrice=200&maxPrice=600',
      'trainer list',
    ),
    get('GET /api/trainers?sort=price_asc', '/api/trainers?sort=price_asc', 'trainer list'),
    get('GET /api/trainers?page=200', '/api/trainers?page=200', 'trainer list'),
    get('GET /api/trainers?q=yoga', '/api/trainers?q=yoga', 'trainer list'),
    get(`GET /api/trainers?q=yoga&page=${deepSearchPage}`, `/api/trainers?q=yoga&page=${deepSearchPage}`, 'trainer list'),
    {
      name: 'GET /api/trainerData/:id',
      group: 'profile',
      method: 'GET',
      next: () => ({ path: `/api/trainerData/${anyTrainer()}` }),
    },
    {
      name: 'GET /api/trainer/reviews/:id',
      group: 'profile',
      method: 'GET',
      next: () => ({ path: `/api/trainer/reviews/${anyTrainer()}` }),
    },
    {
      name: 'GET /api/conversations (user)',
      group: 'chat',
      method: 'GET',
      next: () => ({ path: '/api/conversations', headers: auth(user().token) }),
    },
    {
      name: 'GET /api/conversations (trainer)',
      group: 'chat',
      method: 'GET',
      next: () => ({ path: '/api/conversations', headers: auth(trainer().token) }),
    },
    {
      name: 'GET /api/chats/:trainerId (user, one conversation)',
      group: 'chat',
      method: 'GET',
      next: () => {
        const u = user();
        // a trainer this user has written to (bench/lib/seed.mjs: trainer (u * 7 + c * 13) mod active)
        const t = (u.i * 7 + (u.i % 5) * 13) % active;
        return { path: `/api/chats/${idOf('trainer', t)}`, headers: auth(u.token) };
      },
    },
    {
      name: 'GET /api/chats/:trainerId (trainer, whole inbox)',
      group: 'chat',
      method: 'GET',
      next: () => {
        const t = trainer();
        return { path: `/api/chats/${t.id}`, headers: auth(t.token) };
      },
    },
    {
      name: 'GET /api/bookings (user)',
      group: 'booking',
      method: 'GET',
      next: () => ({ path: '/api/bookings', headers: auth(user().token) }),
    },
    {
      name: 'GET /api/bookings (trainer)',
      group: 'booking',
      method: 'GET',
      next: () => ({ path: '/api/bookings', headers: auth(trainer().token) }),
    },
    {
      name: 'GET /api/trainers/:id/slots',
      group: 'booking',
      method: 'GET',
      next: () => ({ path: `/api/trainers/${withHours()}/slots` }),
    },
    {
      name: 'GET /api/trainer/availability (trainer)',
      group: 'booking',
      method: 'GET',
      next: () => ({ path: '/api/trainer/availability', headers: auth(trainer().token) }),
    },
    {
      name: 'POST /api/users/login',
      group: 'accounts',
      method: 'POST',
      next: () => ({
        path: '/api/users/login',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: login(), password: BENCH_PASSWORD }),
      }),
    },
    // a visitor's first request for a page: rendered on the server from the API's answers
    // (docs/decisions/031-server-rendered-first-page.md); after the API's rows, whose memory figures stay those of the API alone
    {
      name: 'GET /trainers (page, rendered)',
      group: 'pages',
      method: 'GET',
      next: () => ({ path: '/trainers', headers: { 'accept-encoding': 'br, gzip' } }),
    },
    {
      name: 'GET /trainer/profile/:id (page, rendered)',
      group: 'pages',
      method: 'GET',
      next: () => ({ path: `/trainer/profile/${anyTrainer()}`, headers: { 'accept-encoding': 'br, gzip' } }),
    },
    get('GET /api/health (again, last)', '/api/health', 'ceiling'),
  ];
}

/** Waits until the server is idle again (under 10 % of a core over 250 ms), at most 20 s: requests cut off at the end of a run are still being answered. */
async function settle(pid) {
  const started = performance.now();
  while (performance.now() - started < 20_000) {
    const before = usage(pid).cpu;
    await sleep(250);
    if (!((usage(pid).cpu - before) / 0.25 > 0.1)) return;
  }
}

async function once(base, e) {
  const r = e.next();
  const res = await fetch(`${base}${r.path}`, { method: e.method, headers: r.headers, body: r.body });
  const text = await res.text();
  return { status: res.status, text };
}

function cannon({ base, e, connections, duration }) {
  return autocannon({
    url: base,
    connections,
    duration,
    requests: [
      {
        method: e.method,
        setupRequest: (req) => {
          const r = e.next();
          return { ...req, method: e.method, path: r.path, headers: { ...r.headers }, body: r.body };
        },
      },
    ],
  });
}

/**
 * Runs every request against the server at `base` (process `pid`, seeded by bench/lib/seed.mjs with
 * `trainers` trainers). Answers the rows and the server's peak RSS over the whole phase.
 */
export async function runApi({ root, base, pid, trainers, duration, connections, log = console.log }) {
  const idleRss = usage(pid).rss;
  const loadBefore = loadavg()[0];
  const tokens = await tokensFor(root);
  // the deepest page of the `q` search up to page 50 (issue 3's deep page; fewer pages exist at small sizes)
  const first = await fetch(`${base}/api/trainers?q=yoga`).then((r) => r.json());
  const pages = Math.max(1, Math.ceil((first.total ?? 0) / (first.viewAllTrainers?.length || 24)));
  const deepSearchPage = Math.min(50, pages);
  const list = endpoints({ trainers, deepSearchPage, tokens });

  // one answer each before the load: what is not a 2xx here is reported, not silently measured
  const checks = {};
  for (const e of list) {
    const r = await once(base, e);
    checks[e.name] = r.status;
    if (r.status >= 300) log(`  ! ${e.name} answered ${r.status}: ${r.text.slice(0, 300)}`);
  }
  // warm-up: a few sequential requests each (JIT, the database's caches)
  for (const e of list) for (let i = 0; i < (e.method === 'POST' ? 3 : 20); i++) await once(base, e);

  const sampler = rssSampler(pid);
  const rows = [];
  try {
    for (const e of list) {
      sampler.mark();
      const before = usage(pid);
      const t0 = performance.now();
      const result = await cannon({ base, e, connections, duration });
      const seconds = (performance.now() - t0) / 1000;
      const after = usage(pid);
      const peak = sampler.mark();
      const codes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
      const row = {
        name: e.name,
        group: e.group,
        requests: result.requests.total,
        rps: result.requests.total / result.duration,
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max,
        errors: result.errors,
        timeouts: result.timeouts,
        non2xx: result.non2xx,
        statusCodes: codes,
        firstStatus: checks[e.name],
        serverCpu: ((after.cpu - before.cpu) / seconds) * 100,
        peakRss: peak,
      };
      rows.push(row);
      log(
        `  ${e.name}: ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, errors ${row.errors + row.timeouts}, non-2xx ${row.non2xx}, server CPU ${row.serverCpu.toFixed(0)} %, RSS ${peak.toFixed(0)} MiB`,
      );
      await settle(pid);
    }
  } finally {
    sampler.stop();
  }
  // the ceiling: health at the start and at the end, as the machine's load drifts
  const health = rows.filter((r) => r.group === 'ceiling');
  const ceiling = health.reduce((n, r) => n + r.rps, 0) / health.length;
  for (const r of rows) r.ratio = r.rps / ceiling;
  return {
    rows,
    ceiling,
    idleRss,
    load: [loadBefore, loadavg()[0]],
    deepSearchPage,
    searchTotal: first.total,
    // the API's own peak (the issue's goal), and the rendered pages' after it
    peakRss: Math.max(...rows.filter((r) => r.group !== 'pages').map((r) => r.peakRss)),
    pagesPeakRss: Math.max(0, ...rows.filter((r) => r.group === 'pages').map((r) => r.peakRss)),
    connections,
    duration,
  };
}
