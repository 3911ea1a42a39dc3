import { z } from 'zod';

/** How many favourites an account keeps, and the longest id the server takes. */
export const FAVORITES_LIMITS = { max: 500, idMax: 64 } as const;

export const ZFavoritesResponse = z.object({ favorites: z.array(z.string()) });
export type TFavoritesResponse = z.infer<typeof ZFavoritesResponse>;
export const ZTrainerIdParams = z.object({ trainerId: z.string() });
export const ZMergeFavoritesRequest = z.object({
  favorites: z.array(z.string().max(FAVORITES_LIMITS.idMax)).max(FAVORITES_LIMITS.max),
});
