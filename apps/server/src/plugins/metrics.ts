import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { SERVER_MSG } from '@spotter/shared';
import type { Database } from '../db/client';
import { AppError } from '../lib/app-error';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Seconds; an API answer takes milliseconds, a slow one under load up to seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type MetricsOptions = {
  /** `production` keeps the endpoint closed unless `token` is set. */
  env?: string;
  /** The bearer token scrapers send (config's METRICS_TOKEN). */
  token?: string;
  /** PostgreSQL's pool is reported when given (PGlite has none). */
  database?: Pick<Database, 'kind' | 'db'>;
};

/**
 * The process's own metrics (memory, CPU, event-loop lag, GC) are the same whatever app asks, and
 * prom-client's collectors add observers that are never removed: one registry per process, made on
 * the first scrape, whereas each app has its own registry for what it counts (tests build many).
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();

/**
 * Prometheus metrics at GET /api/metrics (docs/decisions/021-metrics-and-cluster.md): requests by
 * method, route pattern and status class, open WebSockets, PostgreSQL's pool and the process. They
 * reveal internals: in production they answer only `Authorization: Bearer <METRICS_TOKEN>`, and
 * without METRICS_TOKEN the route does not exist (404). Outside production they answer anyone.
 */
type Metrics = {
  /** A module with WebSockets says how to count its open ones. */
  countSockets(count: () => number): void;
  /** The money module's reconciliation says how many differences its last check found. */
  ledgerDifferences(count: number): void;
  /** The money module's payouts: a batch the payment provider refused. */
  payoutBatchRefused(): void;
};

export function registerMetrics(app: FastifyInstance, options: MetricsOptions = {}): Metrics {
  const { env, token } = options;
  // closed in production unless configured: no route at all, so it answers like any unknown address
  if (env === 'production' && !token)
    return { countSockets: () => {}, ledgerDifferences: () => {}, payoutBatchRefused: () => {} };
  const register = new Registry();

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    registers: [register],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: DURATION_BUCKETS,
    registers: [register],
  });
  app.addHook('onResponse', async (req, reply) => {
    const labels = {
      method: METHODS.has(req.method) ? req.method : 'OTHER',
      // the pattern (`/api/trainers/:id`), never the URL: one series per route, whatever clients send
      route: req.routeOptions.url ?? 'unmatched',
      status_class: `${Math.floor(reply.statusCode / 100)}xx`,
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });

  // the chat module says how to count its sockets (countSockets, below)
  const socketCounts: (() => number)[] = [];
  new Gauge({
    name: 'spotter_websockets_open',
    help: 'WebSocket connections open on this process (chat pushes)',
    registers: [register],
    collect() {
      this.set(socketCounts.reduce((sum, count) => sum + count(), 0));
    },
  });

  // set by the daily ledger check (modules/money/ledger-check.ts, docs/decisions/042-money-ledger.md)
  const ledgerDifferences = new Gauge({
    name: 'spotter_ledger_differences',
    help: 'Differences between the ledger, the payments and the provider found by the last ledger check on this process',
    registers: [register],
  });

  const payoutBatchesRefused = new Counter({
    name: 'spotter_payout_batches_refused_total',
    help: 'Payout batches the payment provider refused on this process (their payouts went back to the payable balances)',
    registers: [register],
  });

  const pool = options.database?.kind === 'postgres' ? (options.database.db as { $client?: unknown }).$client : undefined;
  if (pool instanceof pg.Pool) {
    new Gauge({
      name: 'spotter_db_pool_connections',
      help: 'PostgreSQL pool connections by state (idle ones are part of total)',
      labelNames: ['state'] as const,
      registers: [register],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new Gauge({
      name: 'spotter_db_pool_waiting',
      help: 'Queries waiting for a PostgreSQL pool connection',
      registers: [register],
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  const expected = env === 'production' && token ? sha256(`Bearer ${token}`) : undefined;
  function allow(req: FastifyRequest) {
    if (!expected) return;
    const given = req.headers.authorization;
    // compared as digests: equal lengths, and no early exit that times how much of it matched
    if (!given || !timingSafeEqual(sha256(given), expected)) throw new AppError('UNAUTHENTICATED', SERVER_MSG.noToken);
  }

  app.get('/api/metrics', { schema: { hide: true } }, async (req: FastifyRequest, reply: FastifyReply) => {
    allow(req);
    const text = (await register.metrics()) + (await processMetrics().metrics());
    return reply.header('Cache-Control', 'no-store').type(register.contentType).send(text);
  });
  return {
    countSockets: (count) => void socketCounts.push(count),
    ledgerDifferences: (count) => ledgerDifferences.set(count),
    payoutBatchRefused: () => payoutBatchesRefused.inc(),
  };
}
