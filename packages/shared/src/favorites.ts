import { z } from 'zod';

export const ZFavoritesResponse = z.object({ favorites: z.array(z.string()) });
export const ZTrainerIdParams = z.object({ trainerId: z.string() });
export const ZMergeFavoritesRequest = z.object({ favorites: z.array(z.string().max(64)).max(500) });
