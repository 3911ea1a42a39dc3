import { SERVER_MSG } from '@spotter/shared';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/app-error';
import { isUuid } from '../trainers/trainers.service';
import * as repo from './favourites.repo';

export function createFavouritesService({ db }: { db: Db }) {
  async function requireTrainer(trainerId: string) {
    const found = isUuid(trainerId) ? await repo.listedTrainerIds(db, [trainerId]) : [];
    if (!found.length) throw notFound(SERVER_MSG.trainerNotFound);
  }
  return {
    list: (userId: string) => repo.findFavouriteIds(db, userId),
    async add(userId: string, trainerId: string) {
      await requireTrainer(trainerId);
      await repo.addFavourites(db, userId, [trainerId]);
      return repo.findFavouriteIds(db, userId);
    },
    async remove(userId: string, trainerId: string) {
      await requireTrainer(trainerId);
      await repo.removeFavourite(db, userId, trainerId);
      return repo.findFavouriteIds(db, userId);
    },
    /** The browser's list joins the server's at login; unknown ids are skipped. */
    async merge(userId: string, ids: string[]) {
      const valid = await repo.listedTrainerIds(db, [...new Set(ids.filter(isUuid))]);
      await repo.addFavourites(db, userId, valid);
      return repo.findFavouriteIds(db, userId);
    },
  };
}
export type FavouritesService = ReturnType<typeof createFavouritesService>;
