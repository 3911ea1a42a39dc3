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

/** Public and the same for every caller, so answered from the read cache (docs/decisions/019-read-cache.md). */
export function trainersRoutes(service: TrainersService) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(
      '/trainers',
      {
        schema: {
          tags: ['trainers'],
          summary: 'Verified trainers: search, filters, sort and pages',
          querystring: ZTrainersQuery,
          response: { 200: ZTrainersResponse, 400: ZErrorResponse },
        },
        config: { cache: { in: 'public', key: (req) => listKey(req.query) } },
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
        config: { cache: { in: 'public' } },
      },
      async (req) => ({ trainerData: await service.getTrainerProfile(req.params.id.toLowerCase()) }),
    );
  };
}
