import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { SERVER_MSG } from '@spotter/shared';
import { AppError } from '../lib/app-error';

const MINUTE = 60_000;

/** Writes per route a minute; `RATE_LIMIT_MAX` raises them (tests and benchmarks set it high). */
export const WRITE_LIMITS = { perAccount: 60, perIp: 300 };

/**
 * How long a Redis call may take before this process counts on its own instead, and how long it
 * then keeps counting on its own before asking Redis again (so a hung Redis slows one request, not all).
 */
const REDIS_TIMEOUTS = { connectMs: 2_000, commandMs: 1_000, retryAfterFailureMs: 5_000 };
/** Counters kept in memory when Redis is not there; the oldest go first beyond this. */
const LOCAL_KEYS_MAX = 100_000;

// INCR and start the window on the first hit, as one step for every process; answers [count, ms left]
const INCR_LUA = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { current, ttl }
`;

/**
 * Whom a limit or a lockout counts for an address: an IPv4 address (also written IPv4-mapped,
 * `::ffff:1.2.3.4`) is one client; an IPv6 address counts as its /64, since one host or home
 * usually has the whole /64 to pick addresses from (an attacker in one /64 otherwise gets a fresh
 * counter per address; docs/decisions/038-platform-plugins.md). A request whose socket is already
 * gone has no address (it is answered to no one anyway).
 */
export const addressGroup = (ip: string | undefined): string => (ip ? normalizeIP(ip, 64) : 'gone');

/** Starts the name of every limit's preHandler. */
const RATE_LIMIT_HOOK_PREFIX = 'rateLimit:';

type Count = { current: number; ttl: number };
type CountCallback = (err: Error | null, result?: Count) => void;
type RedisWithLimit = Redis & { spotterRateLimit(key: string, windowMs: number): Promise<[number, number]> };

/** Fixed windows in this process: the store without Redis, and the fallback while Redis is away. */
function createLocalCounter() {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return (key: string, windowMs: number): Count => {
    const now = Date.now();
    let w = windows.get(key);
    if (!w || w.resetAt <= now) {
      if (windows.size >= LOCAL_KEYS_MAX) {
        for (const [k, v] of windows) if (v.resetAt <= now) windows.delete(k);
        // still nearly full: the oldest windows go (a Map keeps insertion order), a tenth at once
        for (const k of windows.keys()) {
          if (windows.size < LOCAL_KEYS_MAX * 0.9) break;
          windows.delete(k);
        }
      }
      windows.delete(key);
      w = { count: 0, resetAt: now + windowMs };
      windows.set(key, w);
    }
    w.count++;
    return { current: w.count, ttl: w.resetAt - now };
  };
}

/**
 * A store for @fastify/rate-limit: counts in Redis when it answers, else in this process. A Redis
 * that is down, slow or cut off costs at most the command timeout, never an error.
 */
function sharedStore(redis: RedisWithLimit | undefined, prefix: string, log: FastifyBaseLogger) {
  const local = createLocalCounter();
  let localUntil = 0;
  return class SharedStore {
    incr(key: string, cb: CountCallback, windowMs: number) {
      if (!redis || redis.status !== 'ready' || Date.now() < localUntil) {
        cb(null, local(key, windowMs));
        return;
      }
      // hashed: the keys name IPs and e-mail addresses, which need not be readable in Redis
      redis.spotterRateLimit(prefix + createHash('sha256').update(key).digest('base64url'), windowMs).then(
        ([current, ttl]) => {
          localUntil = 0;
          cb(null, { current, ttl });
        },
        (err: unknown) => {
          if (localUntil === 0) log.warn({ err }, 'rate limits: Redis did not answer; counting in this process');
          localUntil = Date.now() + REDIS_TIMEOUTS.retryAfterFailureMs;
          cb(null, local(key, windowMs));
        },
      );
    }
    child() {
      return this;
    }
  };
}

export type LimitOptions = {
  /** Names the counter; with `key`, it makes the counter's key (shared by every process). */
  name: string;
  max: number;
  windowMs: number;
  /** Whom to count, e.g. the IP or the account; `undefined` skips this limit for the request. */
  key: (req: FastifyRequest) => string | undefined;
  /** The 429's message, from the seconds until the window ends; by default "wait a minute". */
  message?: (retryAfterSeconds: number) => string;
};

export type RateLimits = {
  /** A preHandler answering 429 RATE_LIMITED with `Retry-After` once `key` passed `max` in the window. */
  limit(opts: LimitOptions): preHandlerAsyncHookHandler;
  /** Per IP, `RATE_LIMIT_MAX` a minute per route (log in, register, reset, newsletter). */
  perIp: preHandlerAsyncHookHandler;
  /** Per e-mail in the body (else per account), half of `perIp`, at least 5, a minute per route. */
  perEmail: preHandlerAsyncHookHandler;
  /** Other writes, after authentication: per account and per IP, per route (WRITE_LIMITS). */
  writes: preHandlerAsyncHookHandler[];
};

type RateLimitsOptions = { max: number; redisUrl?: string; redisPrefix: string };

/**
 * Registers @fastify/rate-limit (no global limit: each route names its limits) with counters in
 * Redis when `redisUrl` is set, shared by every process, and in this process otherwise or while
 * Redis is unreachable; decorates `app.rateLimits`. See docs/decisions/003-rate-limits.md.
 * A refused request is an AppError, answered in the one error shape by the errors plugin.
 */
export const rateLimits = fp<RateLimitsOptions>(
  async (app, opts) => {
    app.decorate('rateLimits', await createRateLimits(app, opts));
  },
  { name: 'spotter-rate-limits', fastify: '5.x', dependencies: ['spotter-errors'] },
);

async function createRateLimits(app: FastifyInstance, opts: RateLimitsOptions): Promise<RateLimits> {
  const redis = opts.redisUrl ? connectRedis(opts.redisUrl, app.log) : undefined;
  if (redis) {
    // start counting in Redis from the first request, unless it is not there: then at once in this process
    app.addHook('onReady', async () => {
      if (redis.status === 'ready') return;
      await Promise.race([
        once(redis, 'ready'),
        once(redis, 'error'),
        delay(REDIS_TIMEOUTS.connectMs, undefined, { ref: false }),
      ]).catch(() => {});
    });
    app.addHook('onClose', async () => redis.disconnect());
  }
  await app.register(fastifyRateLimit, {
    global: false,
    store: sharedStore(redis, `${opts.redisPrefix}rl:`, app.log),
    skipOnError: true,
  });

  // createRateLimit rather than route config: one route may be under several limits (IP and account)
  const limit = ({ name, max, windowMs, key, message }: LimitOptions): preHandlerAsyncHookHandler => {
    const check = app.createRateLimit({ max, timeWindow: windowMs, keyGenerator: (req) => `${name}:${key(req)}` });
    const handler: preHandlerAsyncHookHandler = async (req, reply) => {
      if (key(req) === undefined) return;
      const state = await check(req);
      if (state.isAllowed || !state.isExceeded) return;
      req.log.info({ limit: name }, 'rate limited');
      reply.header('Retry-After', state.ttlInSeconds);
      throw new AppError('RATE_LIMITED', message ? message(state.ttlInSeconds) : SERVER_MSG.tooMany);
    };
    // named, so that `printRoutes({ includeHooks: true })` shows which limits a route has
    return Object.defineProperty(handler, 'name', { value: `${RATE_LIMIT_HOOK_PREFIX}${name}` });
  };
  const route = (req: FastifyRequest) => `${req.method} ${req.routeOptions.url}`;
  // an IPv6 client counts as its /64
  const ip = (req: FastifyRequest) => addressGroup(req.ip);
  return {
    limit,
    perIp: limit({ name: 'ip', max: opts.max, windowMs: MINUTE, key: (req) => `${route(req)}|${ip(req)}` }),
    perEmail: limit({
      name: 'email',
      max: Math.max(5, Math.floor(opts.max / 2)),
      windowMs: MINUTE,
      key: (req) => {
        const email = (req.body as { email?: unknown } | undefined)?.email;
        const who = typeof email === 'string' ? email.toLowerCase() : req.caller?.id;
        return who === undefined ? undefined : `${route(req)}|${who}`;
      },
    }),
    writes: [
      limit({
        name: 'write-ip',
        max: Math.max(WRITE_LIMITS.perIp, opts.max),
        windowMs: MINUTE,
        key: (req) => `${route(req)}|${ip(req)}`,
      }),
      limit({
        name: 'write-account',
        max: Math.max(WRITE_LIMITS.perAccount, opts.max),
        windowMs: MINUTE,
        key: (req) => (req.caller ? `${route(req)}|${req.caller.id}` : undefined),
      }),
    ],
  };
}

/** Fails fast while disconnected (no offline queue) and keeps reconnecting in the background. */
function connectRedis(url: string, log: FastifyBaseLogger): RedisWithLimit {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: REDIS_TIMEOUTS.connectMs,
    commandTimeout: REDIS_TIMEOUTS.commandMs,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
  }) as RedisWithLimit;
  redis.defineCommand('spotterRateLimit', { numberOfKeys: 1, lua: INCR_LUA });
  let down = false;
  redis.on('error', (err: Error) => {
    if (!down) log.warn({ err }, 'rate limits: Redis unreachable; counting in this process until it is back');
    down = true;
  });
  redis.on('ready', () => {
    if (down) log.info('rate limits: Redis is back; counters are shared again');
    down = false;
  });
  return redis;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The limits routes put in their preHandlers (platform/rate-limits.ts). */
    rateLimits: RateLimits;
  }
}
