import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZErrorResponse, ZFavoritesResponse, ZMergeFavoritesRequest, ZTrainerIdParams } from '@spotter/shared';
import type { RateLimits } from '../../platform/rate-limits';
import { callerOf, type Auth } from '../../plugins/auth';
import type { FavouritesService } from './favourites.service';

const errors = { 400: ZErrorResponse, 401: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse, 429: ZErrorResponse };
const FAVOURITES_ARE_FOR_USERS = 'Favourites on the server are for users; trainers keep them in this browser';

export function favouritesRoutes(service: FavouritesService, auth: Auth, limits: Pick<RateLimits, 'writes'>) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const userOnly = auth.requireAuth('user', FAVOURITES_ARE_FOR_USERS);
    const userWrites = [userOnly, ...limits.writes];
    r.get(
      '/favorites',
      {
        schema: { tags: ['favourites'], summary: 'Your favourite trainer ids', response: { 200: ZFavoritesResponse, ...errors } },
        preHandler: userOnly,
      },
      async (req) => ({
        favorites: await service.list(callerOf(req).id),
      }),
    );
    r.post(
      '/favorites/merge',
      {
        schema: {
          tags: ['favourites'],
          summary: 'Add the browser’s favourites at login',
          body: ZMergeFavoritesRequest,
          response: { 200: ZFavoritesResponse, ...errors },
        },
        preHandler: userWrites,
      },
      async (req) => ({ favorites: await service.merge(callerOf(req).id, req.body.favorites) }),
    );
    r.put(
      '/favorites/:trainerId',
      {
        schema: {
          tags: ['favourites'],
          summary: 'Add a favourite',
          params: ZTrainerIdParams,
          response: { 200: ZFavoritesResponse, ...errors },
        },
        preHandler: userWrites,
      },
      async (req) => ({ favorites: await service.add(callerOf(req).id, req.params.trainerId) }),
    );
    r.delete(
      '/favorites/:trainerId',
      {
        schema: {
          tags: ['favourites'],
          summary: 'Remove a favourite',
          params: ZTrainerIdParams,
          response: { 200: ZFavoritesResponse, ...errors },
        },
        preHandler: userWrites,
      },
      async (req) => ({ favorites: await service.remove(callerOf(req).id, req.params.trainerId) }),
    );
  };
}
