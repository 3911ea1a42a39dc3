import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { CHANNELS, parseChange, type Change } from './events';
import { createReadCache, type ReadCache } from './read-cache';

/**
 * What a route declares to have its answer cached: `config: { cache: { in: 'public' } }`
 * (docs/caching.md). The route's handler returns its answer as before; the platform answers from
 * memory when it can, runs the handler once for requests that miss together, and keeps what the
 * response schema sends. Nothing else is needed: the database announces the changes.
 */
interface CacheRoute {
  /** `public`: the same for everyone (the catalogue); `personal`: people's own reads, dropped per account. */
  in: 'public' | 'personal';
  /** The answer's key (default: the route, its params and its query, each in one order). */
  key?(req: FastifyRequest): string;
  /**
   * The caller the answer is for, if any: it is then kept under their id, sent `private` with
   * `Vary: Authorization`, and dropped by changes that concern them.
   */
  caller?(req: FastifyRequest): string | undefined;
  /** Route params naming other accounts whose changes drop the answer (a trainer's free slots: `['id']`). */
  scopeParams?: string[];
  /** The route's clock, in ms (tests move it); `validUntil` is read on it. */
  clock?(): number;
  /** When the answer read at `readAt` changes by itself (a hold runs out); undefined: only a change does. */
  validUntil?(value: unknown, readAt: number): number | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Keep this route's answer in a read cache (platform/caches.ts). */
    cache?: CacheRoute;
  }
  interface FastifyInstance {
    /** The public read cache (docs/decisions/019-read-cache.md); tests read its counters. */
    readCache: ReadCache;
    /** People's own reads and free slots, dropped per account (docs/decisions/024-personal-read-cache.md). */
    personalCache: ReadCache;
  }
}

/** The value of a route param, lowercased (an id, as the database's notifications name it). */
const paramOf = (req: FastifyRequest, name: string): string => {
  const params: unknown = req.params;
  const value = params && typeof params === 'object' ? (params as Record<string, unknown>)[name] : undefined;
  return String(value ?? '').toLowerCase();
};

/** An object's entries in one order, arrays kept as they are: the same query in any order gives one key. */
function sortedJson(value: unknown): string {
  if (!value || typeof value !== 'object') return JSON.stringify(value ?? null);
  const entries = Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}

/**
 * What each change the database announces drops (docs/caching.md has the table). Unknown
 * payloads, and a reconnect of the listening connection (what was announced meanwhile was
 * missed), drop everything.
 */
function dropFor(change: Change | undefined, caches: { public: ReadCache; personal: ReadCache }) {
  const personal = (ids?: string[]) => (ids ? caches.personal.bumpScopes(ids) : caches.personal.bump());
  switch (change?.kind) {
    case 'ratings':
    case 'sessions':
      caches.public.bump();
      return;
    case 'reviews':
      caches.public.bump();
      personal(change.ids);
      return;
    case 'bookings':
    case 'availability':
      // a trainer's free slots: the list's `nextFreeAt`, availability filters and soonest order
      // (docs/decisions/040-finding-free-trainers.md)
      caches.public.bump();
      personal(change.ids);
      return;
    case 'messages':
      personal(change.ids);
      return;
    default:
      // a profile, a photo, a deletion, a verified address: names and pictures are in every answer
      caches.public.bump();
      caches.personal.bump();
  }
}

/** The two accounts of a chat event (`{"u": …, "t": …}`), or undefined when it names none. */
function chatAccounts(payload: string): string[] | undefined {
  try {
    const event: unknown = JSON.parse(payload);
    if (!event || typeof event !== 'object') return undefined;
    const { u, t } = event as { u?: unknown; t?: unknown };
    return typeof u === 'string' && typeof t === 'string' ? [u, t] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The public read cache and the personal one, each route's declared caching, and what drops
 * their answers: the database's `change` notifications (triggers, whoever writes) and the chat
 * channel's messages. Registered before the chats module, so a chat notification drops the
 * answers before the push that follows it goes out.
 */
export const cachesPlugin = fp(
  async (app: FastifyInstance) => {
    // sized for a catalogue's profiles, not a page of them: a profile and its reviews take about
    // 3 KB, so 16 MiB holds 5,000 trainers' (docs/decisions/033-read-cache-size.md)
    const caches = {
      public: createReadCache({ maxEntries: 20_000, maxBytes: 16 * 1024 * 1024 }),
      personal: createReadCache(),
    };
    app.decorate('readCache', caches.public);
    app.decorate('personalCache', caches.personal);
    const dropAll = () => dropFor(undefined, caches);
    await app.events.subscribe(CHANNELS.change, (payload) => dropFor(parseChange(payload), caches), dropAll);
    await app.events.subscribe(
      CHANNELS.chat,
      (payload) => {
        const ids = chatAccounts(payload);
        if (ids) caches.personal.bumpScopes(ids);
        else caches.personal.bump();
      },
      () => caches.personal.bump(),
    );

    app.addHook('onRoute', (route: RouteOptions) => {
      const spec = route.config?.cache;
      if (!spec) return;
      const cache = caches[spec.in];
      const handler = route.handler;
      const routeKey = `${String(route.method)} ${route.url}`;
      route.handler = async function (req, reply) {
        const callerId = spec.caller?.(req);
        const key = `${spec.key ? spec.key(req) : `${routeKey} ${sortedJson(req.params)} ${sortedJson(req.query)}`}${callerId ? ` as ${callerId}` : ''}`;
        return cache.serve(req, reply, key, async () => handler.call(this, req, reply), {
          private: callerId !== undefined,
          vary: spec.caller ? 'Authorization' : undefined,
          scopes: [...(callerId ? [callerId] : []), ...(spec.scopeParams ?? []).map((name) => paramOf(req, name))],
          clock: spec.clock,
          validUntil: spec.validUntil && ((value, readAt) => spec.validUntil?.(value, readAt)),
        });
      };
      // first among the route's own: @fastify/compress (registered before) appends its hook, which must see the cache's answer
      const onSend = route.onSend ? (Array.isArray(route.onSend) ? route.onSend : [route.onSend]) : [];
      route.onSend = [cache.onSend, ...onSend];
    });
  },
  { name: 'spotter-caches', fastify: '5.x', dependencies: ['spotter-events'] },
);
