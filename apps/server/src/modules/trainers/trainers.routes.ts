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
      },
      async (req) => ({ trainerData: await service.getTrainerProfile(req.params.id) }),
    );
  };
}
