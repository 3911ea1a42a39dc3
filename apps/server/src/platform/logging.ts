import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';

/** An id a client or proxy may choose: short, and nothing a log or a header could be broken with. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The request id: the caller's `X-Request-Id` when it is sane, otherwise a new UUID. */
function requestIdOf(req: Pick<IncomingMessage, 'headers'>): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Fastify options for request ids (each log line's `reqId`): an incoming `X-Request-Id` from a
 * proxy or client is kept when sane, so one id follows a request across nginx and the processes;
 * otherwise each request gets a UUID, unique across processes (Fastify's own `req-1` is not).
 * Fastify's `requestIdHeader` would take any header value unchecked, hence `genReqId`.
 */
export function requestIdOptions(): Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader'> {
  return { requestIdHeader: false, genReqId: requestIdOf };
}

/**
 * Every answer carries its request id in `X-Request-Id`, the `reqId` of its log lines (see
 * `requestIdOptions`), so a person or an operator can quote it. The logger itself is Fastify's
 * constructor option (`loggerOptions`), the one part of logging a plugin cannot set.
 */
export const logging = fp(
  async (app) => {
    app.addHook('onRequest', async (req, reply) => {
      reply.header('X-Request-Id', req.id);
    });
  },
  { name: 'spotter-logging', fastify: '5.x' },
);

/** Query-string parameters whose values are secrets: a mailed link's token, above all. */
const SECRET_PARAM = /token|secret|password|passwd|key|code|signature|auth/i;
const REDACTED = '[redacted]';

/** The URL with the value of every secret-looking query parameter replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name: string;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        return `${rawName}=${REDACTED}`; // undecodable: keep nothing of it
      }
      return SECRET_PARAM.test(name) ? `${rawName}=${REDACTED}` : pair;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

type SerializedError = {
  type: string;
  message: string;
  stack?: string;
  code?: unknown;
  cause?: SerializedError;
  [key: string]: unknown;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * A failed query: drizzle's DrizzleQueryError (its message and `params` carry the values), or the
 * driver's error (PostgreSQL's and PGlite's messages and `detail` quote values, PGlite's carries
 * `query` and `params`).
 */
function isQueryError(err: Record<string, unknown>): boolean {
  return (
    'params' in err ||
    'query' in err ||
    (typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code) && typeof err.severity === 'string')
  );
}

/** Only the call stack: the first lines of `stack` repeat the message. */
const framesOnly = (stack: unknown) =>
  typeof stack === 'string'
    ? stack
        .split('\n')
        .filter((l) => /^\s+at /.test(l))
        .join('\n')
    : undefined;

/** The SQLSTATE of a query error, from the error or the driver error it wraps. */
function sqlState(err: Record<string, unknown>): unknown {
  if (typeof err.code === 'string') return err.code;
  return isObject(err.cause) ? sqlState(err.cause) : undefined;
}

const OMITTED_FIELDS = new Set([
  'message',
  'stack',
  'cause',
  'query',
  'params',
  'parameters',
  'detail',
  'where',
  'internalQuery',
  'hint',
]);

/**
 * Errors for the log: type, message, stack and plain fields, with the causes; a failed query is
 * logged by its SQLSTATE and constraint only, never its SQL text, parameters or message.
 */
export function serializeError(err: unknown, depth = 0): unknown {
  if (!isObject(err)) return err;
  const type = (err.constructor as { name?: string } | undefined)?.name ?? 'Error';
  if (isQueryError(err)) {
    const table = typeof err.table === 'string' ? err.table : undefined;
    const constraint =
      typeof err.constraint === 'string'
        ? err.constraint
        : isObject(err.cause) && typeof err.cause.constraint === 'string'
          ? err.cause.constraint
          : undefined;
    return { type, message: 'database query failed', code: sqlState(err), table, constraint, stack: framesOnly(err.stack) };
  }
  const out: SerializedError = {
    type,
    message: typeof err.message === 'string' ? err.message : String(err),
    stack: typeof err.stack === 'string' ? err.stack : undefined,
  };
  for (const [key, value] of Object.entries(err)) {
    if (OMITTED_FIELDS.has(key) || typeof value === 'function') continue;
    out[key] = key === 'url' && typeof value === 'string' ? redactUrl(value) : value;
  }
  if (err.cause !== undefined && depth < 5) out.cause = serializeError(err.cause, depth + 1) as SerializedError;
  // a wrapper often repeats a failed query's message, and its parameters would come back that way
  const leaked = queryMessages(err.cause);
  if (leaked.length) {
    for (const m of leaked) out.message = out.message.split(m).join('[query failed]');
    out.stack = framesOnly(out.stack);
  }
  return out;
}

/** The messages of the failed queries in a chain of causes. */
function queryMessages(cause: unknown, depth = 0): string[] {
  if (!isObject(cause) || depth > 5) return [];
  const own = isQueryError(cause) && typeof cause.message === 'string' && cause.message ? [cause.message] : [];
  return [...own, ...queryMessages(cause.cause, depth + 1)];
}

/**
 * Pino options for the server log: what a request carries that works as a credential (the
 * Authorization header, cookies, a link's token in the URL), a password or its hash, and a query's
 * parameters never reach it.
 */
export function loggerOptions(level: string, stream?: { write(line: string): void }): LoggerOptions {
  const options = {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'headers.cookie',
        'authorization',
        'password',
        'passwordHash',
        'token',
        'links',
        '*.password',
        '*.passwordHash',
        '*.token',
        '*.links',
      ],
      censor: REDACTED,
    },
    serializers: {
      req(req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
        return {
          method: req.method,
          url: redactUrl(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        };
      },
      err: serializeError,
      cause: serializeError,
    },
  };
  // Fastify types `err` as answering a fixed shape; a query error deliberately answers less
  return options as unknown as LoggerOptions;
}
type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;
