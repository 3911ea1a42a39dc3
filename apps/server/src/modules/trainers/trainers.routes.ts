import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  SERVER_MSG,
  ZErrorResponse,
  ZIdParam,
  ZTrainerProfileResponse,
  ZTrainersQuery,
  ZTrainersResponse,
} from '@spotter/shared';
import type { TrainersService } from './trainers.service';

/**
 * The cache key of a list: the validated query (defaults filled, empty filters gone), its keys in
 * one order, so `?page=1&sort=rating` and `?sort=rating&page=1` (or `?`) share an answer.
 */
function listKey(validated: unknown): string {
  const query: Record<string, unknown> = validated && typeof validated === 'object' ? { ...validated } : {};
  const parts = Object.keys(query)
    .filter((k) => query[k] !== undefined)
    .sort()
    .map((k) => {
      const v = query[k];
      // the order of `ids` does not change the answer (the list is ordered by `sort`)
      return [k, Array.isArray(v) ? [...new Set(v as string[])].sort() : v];
    });
  return `trainers:${JSON.stringify(parts)}`;
}

const CHANGE_KINDS = new Set(['accounts', 'ratings', 'reviews', 'bookings', 'sessions', 'availability', 'messages']);

/**
 * A `change` payload (`<kind>` or `<kind>:<id>,<id>…`, docs/caching.md): its kind and the accounts
 * named; undefined for a kind not known here (anything may have changed).
 */
function changeOf(payload: string): { kind: string; ids?: string[] } | undefined {
  const colon = payload.indexOf(':');
  if (!CHANGE_KINDS.has(colon < 0 ? payload : payload.slice(0, colon))) return undefined;
  if (colon < 0) return { kind: payload };
  const ids = payload
    .slice(colon + 1)
    .split(',')
    .filter(Boolean);
  return { kind: payload.slice(0, colon), ids: ids.length ? ids : undefined };
}

const QUARTER_HOUR = 15 * 60_000;
/**
 * A slot starts on a quarter hour and stops being offered a whole number of hours before (the
 * notice), so `nextFreeAt` and the availability filters change by themselves only on a quarter hour:
 * an answer is kept until the next one (docs/caching.md).
 */
const untilNextQuarter = (_answer: unknown, readAt: number) => (Math.floor(readAt / QUARTER_HOUR) + 1) * QUARTER_HOUR;

/** Public and the same for every caller, so answered from the read cache (docs/decisions/019-read-cache.md). */
export function trainersRoutes(service: TrainersService) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    // the stored free slots follow the database's announcements of bookings, hours and accounts
    // (docs/caching.md, docs/decisions/040-finding-free-trainers.md); the read caches drop the
    // answers built from them on the same announcements (platform/caches.ts)
    const index = service.freeSlotsIndex;
    await app.events.subscribe(
      app.events.channels.change,
      (payload) => index.changed(changeOf(payload)),
      () => index.changed(undefined),
    );
    let stopSweeping: (() => void) | undefined;
    app.addHook('onReady', async () => {
      stopSweeping = index.startSweeping((err) => app.log.error({ err }, 'free slots sweep failed'));
      index.fresh().catch((err: unknown) => app.log.error({ err }, 'free slots sweep failed'));
    });
    app.addHook('onClose', async () => {
      stopSweeping?.();
      await index.idle();
    });
    r.get(
      '/trainers',
      {
        schema: {
          tags: ['trainers'],
          summary: 'Verified trainers: search, filters, sort and pages',
          querystring: ZTrainersQuery,
          response: { 200: ZTrainersResponse, 400: ZErrorResponse },
        },
        config: {
          cache: {
            in: 'public',
            key: (req) => listKey(req.query),
            clock: () => service.now().getTime(),
            validUntil: untilNextQuarter,
          },
        },
      },
      async (req) => service.listTrainers(req.query),
    );

    r.get(
      '/trainerData/:id',
      {
        schema: {
          tags: ['trainers'],
          summary: 'A trainer as anyone may see it, with rating count and subscribers',
          params: ZIdParam(SERVER_MSG.trainerNotFound),
          response: { 200: ZTrainerProfileResponse, 404: ZErrorResponse },
        },
        config: { cache: { in: 'public', clock: () => service.now().getTime(), validUntil: untilNextQuarter } },
      },
      async (req) => ({ trainerData: await service.getTrainerProfile(req.params.id.toLowerCase()) }),
    );
  };
}
