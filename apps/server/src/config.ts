import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { generateVAPIDKeys } from 'web-push';
import { z } from 'zod';
import { MIN_KEY_BYTES } from './lib/tokens';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const SECRET_VARIABLES = ['JWT_SECRET', 'DATABASE_URL', 'SMTP_URL', 'REDIS_URL', 'METRICS_TOKEN', 'VAPID_PRIVATE_KEY'];
const SECRET_HINT = 'generate one with `openssl rand -base64 48`';

/** Named ranges that Fastify's trustProxy (proxy-addr) understands. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGES.includes(entry) || isIP(entry)) return true;
  const m = /^(.+)\/(\d{1,3})$/.exec(entry);
  if (!m) return false;
  const family = isIP(m[1]);
  return family !== 0 && Number(m[2]) <= (family === 4 ? 32 : 128);
}
const splitList = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must start with postgres:// or postgresql://')
    .optional(),
  JWT_SECRET: z
    .string()
    .refine((v) => Buffer.byteLength(v, 'utf8') >= MIN_KEY_BYTES, `must be at least ${MIN_KEY_BYTES} bytes (${SECRET_HINT})`)
    .optional(),
  PUBLIC_URL: z.url('must be a URL such as https://spotter.example').optional(),
  SMTP_URL: z
    .string()
    .refine((v) => /^smtps?:\/\//.test(v), 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('Spotter <no-reply@spotter.local>'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  CORS_ORIGINS: z.string().optional(),
  /** Rate-limit counters shared by every process; without it each process counts on its own. */
  REDIS_URL: z
    .string()
    .refine((v) => /^rediss?:\/\//.test(v), 'must start with redis:// or rediss://')
    .optional(),
  /** Put before every Redis key, so several apps (or tests) can share one Redis. */
  REDIS_PREFIX: z.string().default('spotter:'),
  /** The bearer token of /api/metrics' scrapers; without it the endpoint is closed in production. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  WEB_DIST: z.string().optional(),
  /** Tests and benchmarks may turn the per-IP limits up; never 0 in production. */
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(10),
  /** Addresses whose X-Forwarded-For is believed; none by default, so a client cannot pick its own IP. */
  TRUST_PROXY: z
    .string()
    .optional()
    .refine(
      (v) => /^(none|false)$/i.test(v ?? 'none') || splitList(v).every(isProxyAddress),
      'must be a comma-separated list of proxy addresses or CIDR ranges (e.g. 127.0.0.1 or 10.0.0.0/8), loopback, linklocal, uniquelocal, or none',
    ),
  /** Slow clients (docs/decisions/003-rate-limits.md): how long headers, a whole request, an idle socket may take. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  IDLE_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /** Fastify's default: longer than load balancers keep idle connections (60 s), so none reuses one just closed. */
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().positive().default(72_000),
  /** Chat sockets (/api/ws) that have not authenticated yet: per client address (an IPv6 /64), and in all. */
  WS_UNAUTHENTICATED_PER_IP: z.coerce.number().int().positive().default(20),
  WS_UNAUTHENTICATED_MAX: z.coerce.number().int().positive().default(1000),
  /** How long a chat socket may take to send its auth frame before it is closed. */
  WS_AUTH_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Pings (WebSocket control frames and `{ type: 'ping' }`) one chat socket may send a minute; the web client sends 2–3. */
  WS_PINGS_PER_MINUTE: z.coerce.number().int().positive().default(60),
  /** OpenAPI at /api/docs; on by default outside production. */
  API_DOCS: z.stringbool({ error: 'must be true or false' }).optional(),
  /** Server-Timing header on API answers; on by default outside production. */
  SERVER_TIMING: z.stringbool({ error: 'must be true or false' }).optional(),
  /** PayPal Orders v2 (docs/product.md#booking-and-payment); without a client id the built-in demo provider takes payments. */
  PAYPAL_CLIENT_ID: z.string().optional(),
  PAYPAL_CLIENT_SECRET: z.string().optional(),
  PAYPAL_API_BASE: z.url('must be a URL such as https://api-m.paypal.com').default('https://api-m.sandbox.paypal.com'),
  PAYPAL_TIMEOUT_MS: z.coerce.number().int().positive().max(120_000).default(10_000),
  /** The webhook PayPal's verify-webhook-signature call checks deliveries against; without it webhooks are refused. */
  PAYPAL_WEBHOOK_ID: z.string().min(1).max(100).optional(),
  /** Google sign-in (docs/product.md#google-sign-in): shown and accepted only with a client id. */
  GOOGLE_CLIENT_ID: z.string().trim().optional(),
  /** Where Google's signing keys are published; tests point it at their own key server. */
  GOOGLE_JWKS_URL: z
    .url('must be a URL such as https://www.googleapis.com/oauth2/v3/certs')
    .default('https://www.googleapis.com/oauth2/v3/certs'),
  /** Web Push (docs/product.md#notifications): on unless `false`; keys generated into DATA_DIR unless both are set. */
  PUSH: z.stringbool({ error: 'must be true or false' }).default(true),
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'must be the base64url P-256 public key `npx web-push generate-vapid-keys` prints')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be the base64url private key `npx web-push generate-vapid-keys` prints')
    .optional(),
  /** Who push services may contact about our messages (RFC 8292): a mailto: or https: URL. */
  VAPID_SUBJECT: z
    .string()
    .refine((v) => /^(mailto:|https:\/\/)/.test(v), 'must start with mailto: or https://')
    .optional(),
  /**
   * The push services' hosts a subscription's endpoint may be on (the server never sends a request to
   * an address a user chose). `*.` matches subdomains; `http://host:port` allows plain HTTP (tests).
   */
  PUSH_ENDPOINT_HOSTS: z.string().optional(),
  /** Tests only: a clock end-to-end tests move forward (POST /api/test/clock); refused in production. */
  TEST_CLOCK: z.stringbool({ error: 'must be true or false (1 or 0)' }).default(false),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  jwtSecret: string;
  publicUrl: string;
  smtpUrl?: string;
  mailFrom: string;
  logLevel: (typeof LOG_LEVELS)[number];
  corsOrigins: string[];
  webDist?: string;
  rateLimitMax: number;
  /** Counters shared through Redis when set; `prefix` starts every key. */
  redis: { url?: string; prefix: string };
  /** Milliseconds: headers, a whole request (body included), a socket without traffic, an idle keep-alive. */
  timeouts: { headersMs: number; requestMs: number; idleMs: number; keepAliveMs: number };
  /** Chat sockets: unauthenticated ones per client address and in all, the auth deadline, pings a minute per socket. */
  ws: { unauthenticatedPerIp: number; unauthenticatedMax: number; authTimeoutMs: number; pingsPerMinute: number };
  /** Passed to Fastify's trustProxy; empty means the socket address is the client's. */
  trustProxy: string[];
  apiDocs: boolean;
  /** Bearer token for /api/metrics (docs/decisions/021-metrics-and-cluster.md). */
  metricsToken?: string;
  serverTiming: boolean;
  paypal: { clientId?: string; clientSecret?: string; apiBase: string; timeoutMs: number; webhookId?: string };
  /** Google sign-in; off without a client id. */
  google: { clientId?: string; jwksUrl: string };
  /** Tests only: the app's clock can be moved forward (docs/testing.md#the-test-clock). */
  testClock: boolean;
  /** Web Push; `vapid` undefined when it is off (docs/product.md#notifications). */
  push: { vapid?: { publicKey: string; privateKey: string; subject: string }; endpointHosts: string[] };
};

/**
 * The push services of Chrome (Firebase Cloud Messaging), Firefox (Mozilla autopush), Edge
 * (Windows Push Notification Services) and Safari (Apple), where browsers' endpoints point.
 */
export const DEFAULT_PUSH_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.notify.windows.com',
  'web.push.apple.com',
];

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const blankToUndefined = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));

/** Reads the environment; every bad value is listed at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(blankToUndefined(env));
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      // a secret, or a URL with a password in it, is never echoed to the terminal or a log
      const shown = SECRET_VARIABLES.includes(key) ? '' : `=${JSON.stringify(env[key] ?? '')}`;
      problems.push(`${key}${shown}: ${issue.message}`);
    }
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.JWT_SECRET) {
    problems.push(`JWT_SECRET: required when NODE_ENV=production (at least ${MIN_KEY_BYTES} bytes; ${SECRET_HINT})`);
  }
  if (e.NODE_ENV === 'production' && e.TEST_CLOCK) {
    problems.push('TEST_CLOCK: tests only; a server with NODE_ENV=production never lets its clock be moved');
  }
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    problems.push(
      `HEADERS_TIMEOUT_MS=${e.HEADERS_TIMEOUT_MS}: must not be longer than REQUEST_TIMEOUT_MS (${e.REQUEST_TIMEOUT_MS})`,
    );
  }
  if (!!e.VAPID_PUBLIC_KEY !== !!e.VAPID_PRIVATE_KEY) {
    problems.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: set both, or neither (then a pair is generated into DATA_DIR)');
  }
  if (problems.length) throw new ConfigError(problems);

  const dataDir = resolve(e.DATA_DIR);
  const jwtSecret = e.JWT_SECRET ?? localSecret(dataDir);
  const isProduction = e.NODE_ENV === 'production';
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    jwtSecret,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    corsOrigins: splitList(e.CORS_ORIGINS),
    webDist: e.WEB_DIST,
    rateLimitMax: e.RATE_LIMIT_MAX,
    redis: { url: e.REDIS_URL, prefix: e.REDIS_PREFIX },
    timeouts: {
      headersMs: e.HEADERS_TIMEOUT_MS,
      requestMs: e.REQUEST_TIMEOUT_MS,
      idleMs: e.IDLE_TIMEOUT_MS,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS,
    },
    ws: {
      unauthenticatedPerIp: e.WS_UNAUTHENTICATED_PER_IP,
      unauthenticatedMax: e.WS_UNAUTHENTICATED_MAX,
      authTimeoutMs: e.WS_AUTH_TIMEOUT_MS,
      pingsPerMinute: e.WS_PINGS_PER_MINUTE,
    },
    trustProxy: /^(none|false)$/i.test(e.TRUST_PROXY ?? 'none') ? [] : splitList(e.TRUST_PROXY),
    apiDocs: e.API_DOCS ?? !isProduction,
    metricsToken: e.METRICS_TOKEN,
    serverTiming: e.SERVER_TIMING ?? !isProduction,
    paypal: {
      clientId: e.PAYPAL_CLIENT_ID,
      clientSecret: e.PAYPAL_CLIENT_SECRET,
      apiBase: e.PAYPAL_API_BASE.replace(/\/$/, ''),
      timeoutMs: e.PAYPAL_TIMEOUT_MS,
      webhookId: e.PAYPAL_WEBHOOK_ID,
    },
    google: { clientId: e.GOOGLE_CLIENT_ID || undefined, jwksUrl: e.GOOGLE_JWKS_URL },
    testClock: e.TEST_CLOCK,
    push: {
      vapid: e.PUSH
        ? {
            ...(e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
              ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
              : localVapidKeys(dataDir)),
            subject: e.VAPID_SUBJECT ?? `mailto:${/<([^>]+)>/.exec(e.MAIL_FROM)?.[1] ?? e.MAIL_FROM}`,
          }
        : undefined,
      endpointHosts: e.PUSH_ENDPOINT_HOSTS === undefined ? DEFAULT_PUSH_HOSTS : splitList(e.PUSH_ENDPOINT_HOSTS),
    },
  };
}

/**
 * The VAPID key pair (RFC 8292) of a server without VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY:
 * generated once beside the data like the token secret, readable by the owner only. Every process
 * sharing DATA_DIR signs with the same pair, so browsers' subscriptions stay valid across restarts.
 */
function localVapidKeys(dataDir: string): { publicKey: string; privateKey: string } {
  const file = join(dataDir, 'vapid-keys.json');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const pair = generateVAPIDKeys();
    try {
      writeFileSync(file, JSON.stringify(pair), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // another process wrote it first: theirs is the pair
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const pair = JSON.parse(readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
  if (typeof pair.publicKey !== 'string' || typeof pair.privateKey !== 'string') {
    throw new ConfigError([
      `${file}: not a VAPID key pair; delete it to have a new one generated (browsers then subscribe again)`,
    ]);
  }
  return { publicKey: pair.publicKey, privateKey: pair.privateKey };
}

/**
 * A development secret, generated once and kept beside the data (never in the repository),
 * readable by the owner only. A short one (edited by hand, or truncated) is refused, not used.
 */
function localSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (Buffer.byteLength(secret, 'utf8') < MIN_KEY_BYTES) {
      throw new ConfigError([
        `${file}: the secret is shorter than ${MIN_KEY_BYTES} bytes; delete the file to have a new one generated, or set JWT_SECRET (${SECRET_HINT})`,
      ]);
    }
    return secret;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}
