import { z } from 'zod';
import { ZIdParam } from './ids';
import { SERVER_MSG } from './messages';

/** How many favourites an account keeps, and the longest id the server takes. */
export const FAVORITES_LIMITS = { max: 500, idMax: 64 } as const;

export const ZFavoritesResponse = z.object({ favorites: z.array(z.string()) });
export type TFavoritesResponse = z.infer<typeof ZFavoritesResponse>;
export const ZTrainerIdParams = ZIdParam(SERVER_MSG.trainerNotFound, 'trainerId');
export const ZMergeFavoritesRequest = z.object({
  favorites: z.array(z.string().max(FAVORITES_LIMITS.idMax)).max(FAVORITES_LIMITS.max),
});
