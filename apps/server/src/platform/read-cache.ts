import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { COMPRESS_FROM_BYTES, acceptedCoding, compressBody, etagMatches, type Coding } from './compression';

const JSON_TYPE = 'application/json; charset=utf-8';
/** What an entry costs beyond its bytes (the map slot, the object, the hash). */
const ENTRY_OVERHEAD = 256;

type Entry = {
  key: string;
  /** The scopes (account ids) whose writes drop this entry. */
  scopes: readonly string[];
  /** From when until when the answer holds by the route's clock: it changes by itself (a hold runs out, a session ends). */
  validFrom?: number;
  validUntil?: number;
  body: Buffer;
  /** Hex hash of `body`; the ETag is it, with the content coding appended for a coded body. */
  hash: string;
  storedAt: number;
  bytes: number;
  coded: Partial<Record<Coding, Promise<Buffer>>>;
};

/** How a request that went through `serve` is answered in the route's onSend hook. */
type Pending = {
  key: string;
  generation: number;
  /** The generations of `scopes` when the read started. */
  stamp: string;
  scopes: readonly string[];
  validFrom?: number;
  validUntil?: number;
  entry?: Entry;
  private: boolean;
  vary?: string;
};

/** How `serve` keeps an answer. */
type ServeOptions<T> = {
  /** The answer depends on the caller (its key must too). */
  private?: boolean;
  /** A request header the answer depends on. */
  vary?: string;
  /** Changes to any of these accounts (`bumpScopes`) drop the answer. */
  scopes?: readonly string[];
  /** The route's clock, in ms (tests move it); `validUntil` is read on it. */
  clock?: () => number;
  /**
   * When the answer read at `readAt` (on `clock`, just before the read started) will change
   * without a write; undefined: only a write changes it.
   */
  validUntil?: (value: T, readAt: number) => number | undefined;
};

/** At most this many scopes' generations are kept; beyond, everything is dropped and they start again. */
const MAX_SCOPES = 100_000;

type ReadCacheOptions = {
  /** At most this many answers are kept (least recently used go first). */
  maxEntries?: number;
  /** At most this many bytes of answers, compressed copies and keys included. */
  maxBytes?: number;
  /** A larger answer is served but not kept. */
  maxEntryBytes?: number;
  /**
   * A kept answer is recomputed after this long even when the database announced no change: a
   * bound on staleness while a listening connection is down, or from what changes with time alone
   * (the moment a session ends), not the way writes are seen.
   */
  maxAgeMs?: number;
  now?: () => number;
};

/**
 * An in-process cache of serialised public answers (docs/decisions/019-read-cache.md). The
 * answer is captured as it leaves the route's response schema, so what is cached is exactly what
 * the uncached route sends; it is kept with a strong ETag (If-None-Match answers 304) and, on
 * first request, its brotli/gzip/deflate forms.
 *
 * The database announces every committed change these answers are built from (triggers,
 * docs/caching.md); the caches plugin (platform/caches.ts) then calls `bump()` (everything goes)
 * or `bumpScopes(ids)` (the answers of those accounts go). A read remembers the generation it
 * started at and is kept only if that is still the current one, so a read that raced a write
 * never stores the old answer.
 */
export function createReadCache({
  maxEntries = 2_000,
  maxBytes = 8 * 1024 * 1024,
  maxEntryBytes = 2 * 1024 * 1024,
  maxAgeMs = 60_000,
  now = Date.now,
}: ReadCacheOptions = {}) {
  let generation = 0;
  // least recently used first out past `maxEntries` or `maxBytes`; the age limit is checked on read
  // with the same clock as the entries' `storedAt` (lru-cache's `ttl` would read its own)
  const entries = new LRUCache<string, Entry>({
    max: maxEntries,
    maxSize: maxBytes,
    maxEntrySize: maxEntryBytes,
    sizeCalculation: (entry) => entry.bytes,
    dispose: (entry, key, reason) => {
      if (reason === 'evict') counters.evictions++;
      // `bump` clears the scopes with everything at once
      if (!clearing) unlinkScopes(entry, key);
    },
  });
  let clearing = false;
  const flights = new Map<string, { generation: number; stamp: string; readAt?: number; promise: Promise<unknown> }>();
  // per scope: its generation (bumped by each write announced for it) and the keys of its entries
  const scopeGenerations = new Map<string, number>();
  const scopeKeys = new Map<string, Set<string>>();
  const stampOf = (scopes: readonly string[]) => scopes.map((s) => scopeGenerations.get(s) ?? 0).join(',');
  const pending = new WeakMap<FastifyRequest, Pending>();
  const counters = { hits: 0, misses: 0, stores: 0, evictions: 0, bumps: 0, scopeBumps: 0 };

  function unlinkScopes(entry: Entry, key: string) {
    for (const scope of entry.scopes) {
      const keys = scopeKeys.get(scope);
      keys?.delete(key);
      if (keys?.size === 0) scopeKeys.delete(scope);
    }
  }

  const drop = (key: string) => entries.delete(key);

  /** The live entry of `key`, marked most recently used; undefined when absent, too old or past its `validUntil`. */
  function lookup(key: string, clock?: () => number): Entry | undefined {
    const entry = entries.peek(key);
    if (!entry) return undefined;
    const at = entry.validFrom !== undefined || entry.validUntil !== undefined ? (clock ?? now)() : 0;
    // a clock set back (tests move theirs) is before the answer was read, as much as one past its end
    const expired =
      (entry.validUntil !== undefined && at >= entry.validUntil) || (entry.validFrom !== undefined && at < entry.validFrom);
    if (now() - entry.storedAt > maxAgeMs || expired) {
      drop(key);
      return undefined;
    }
    // marked most recently used
    entries.get(key);
    return entry;
  }

  /** An entry for `body`; kept only while the generations its read started at are still current. */
  function store(p: Pending, body: Buffer): Entry {
    const { key, scopes } = p;
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 32);
    const current = entries.peek(key);
    if (current && current.hash === hash && current.validFrom === p.validFrom && current.validUntil === p.validUntil)
      return current;
    const entry: Entry = {
      key,
      scopes,
      validFrom: p.validFrom,
      validUntil: p.validUntil,
      body,
      hash,
      storedAt: now(),
      bytes: body.length + key.length * 2 + ENTRY_OVERHEAD,
      coded: {},
    };
    if (p.generation !== generation || p.stamp !== stampOf(scopes) || entry.bytes > maxEntryBytes) return entry;
    drop(key);
    for (const scope of scopes) {
      let keys = scopeKeys.get(scope);
      if (!keys) scopeKeys.set(scope, (keys = new Set()));
      keys.add(key);
    }
    // set last: storing may evict others (or, past maxBytes, this one), which unlinks their scopes
    entries.set(key, entry);
    counters.stores++;
    return entry;
  }

  /** The body in `coding`, compressed once per entry; its size counts while the entry is kept. */
  function coded(entry: Entry, coding: Coding): Promise<Buffer> {
    return (entry.coded[coding] ??= compressBody[coding](entry.body).then(
      (out) => {
        if (entries.peek(entry.key) === entry) {
          entry.bytes += out.length;
          // stored again at its new size, which may evict the least recently used
          entries.set(entry.key, entry);
        }
        return out;
      },
      (err: unknown) => {
        // the next request tries again rather than failing for the entry's lifetime
        delete entry.coded[coding];
        throw err;
      },
    ));
  }

  function bump() {
    generation++;
    counters.bumps++;
    clearing = true;
    entries.clear();
    clearing = false;
    flights.clear();
    scopeGenerations.clear();
    scopeKeys.clear();
  }

  /** Drops the answers of these scopes (account ids), and keeps reads under way from storing theirs. */
  function bumpScopes(scopes: readonly string[]) {
    if (scopeGenerations.size + scopes.length > MAX_SCOPES) return bump();
    counters.scopeBumps++;
    for (const scope of scopes) {
      scopeGenerations.set(scope, (scopeGenerations.get(scope) ?? 0) + 1);
      for (const key of scopeKeys.get(scope) ?? []) {
        drop(key);
        flights.delete(key);
      }
    }
  }

  /**
   * The route's onSend hook: keeps the serialised answer of a miss, then answers with the ETag,
   * a 304 when the client has it, or the body in the best coding the client accepts.
   */
  async function onSend(req: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const p = pending.get(req);
    if (!p) return payload;
    pending.delete(req);
    let entry = p.entry;
    if (!entry) {
      if (reply.statusCode !== 200) return payload;
      const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : undefined;
      if (!body) return payload;
      entry = store(p, body);
    }
    reply.header('Cache-Control', p.private ? 'private, no-cache' : 'no-cache');
    addVary(reply, p.vary ? ['Accept-Encoding', p.vary] : ['Accept-Encoding']);
    const coding = entry.body.length >= COMPRESS_FROM_BYTES ? acceptedCoding(req) : undefined;
    reply.header('ETag', `"${entry.hash}${coding ? `-${coding}` : ''}"`);
    if (etagMatches(req.headers['if-none-match'], entry.hash)) {
      reply.code(304);
      reply.removeHeader('Content-Type');
      reply.removeHeader('Content-Length');
      return null;
    }
    if (!coding) return entry.body;
    const body = await coded(entry, coding);
    // @fastify/compress leaves an answer alone once it has a Content-Encoding
    reply.header('Content-Encoding', coding);
    reply.header('Content-Length', body.length);
    return body;
  }

  return {
    /**
     * Answers from the cache under `key`, or runs `load` (once for every request that misses the
     * same key at the same time) and returns its result for the route's response schema to
     * serialise; the route must have `onSend` among its hooks, where the serialised answer is kept.
     */
    async serve<T>(
      req: FastifyRequest,
      reply: FastifyReply,
      key: string,
      load: () => Promise<T>,
      opts: ServeOptions<T> = {},
    ): Promise<T | FastifyReply> {
      const scopes = opts.scopes ?? [];
      const base = { key, scopes, private: !!opts.private, vary: opts.vary };
      const entry = lookup(key, opts.clock);
      if (entry) {
        counters.hits++;
        pending.set(req, { ...base, generation, stamp: '', entry });
        return reply.header('Content-Type', JSON_TYPE).send(entry.body);
      }
      counters.misses++;
      const p: Pending = { ...base, generation, stamp: stampOf(scopes) };
      pending.set(req, p);
      let flight = flights.get(key);
      if (!flight || flight.generation !== p.generation || flight.stamp !== p.stamp) {
        const mine = { generation: p.generation, stamp: p.stamp, readAt: opts.clock?.(), promise: load() as Promise<unknown> };
        const done = () => {
          if (flights.get(key) === mine) flights.delete(key);
        };
        mine.promise.then(done, done);
        flights.set(key, mine);
        flight = mine;
      }
      const { readAt } = flight;
      const value = (await flight.promise) as T;
      // the answer holds from when its read started (the flight's, if this request joined one)
      p.validFrom = readAt;
      p.validUntil = readAt === undefined ? undefined : opts.validUntil?.(value, readAt);
      return value;
    },

    onSend,

    /** Drops every answer, and keeps reads under way from storing theirs. */
    bump,

    bumpScopes,

    /** Changes with every change that drops everything: what was read before it may be stale. */
    generation: () => generation,

    stats: () => ({
      ...counters,
      generation,
      entries: entries.size,
      bytes: entries.calculatedSize,
      scopes: scopeGenerations.size,
    }),
  };
}
export type ReadCache = ReturnType<typeof createReadCache>;

function addVary(reply: FastifyReply, names: string[]) {
  const current = reply.getHeader('Vary');
  const have = String(current ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const lower = new Set(have.map((s) => s.toLowerCase()));
  for (const name of names) if (!lower.has(name.toLowerCase())) have.push(name);
  reply.header('Vary', have.join(', '));
}
