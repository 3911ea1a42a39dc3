import { isId, SERVER_MSG } from '@spotter/shared';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import * as repo from './favourites.repo';

export function createFavouritesService({ db }: { db: Db }) {
  /** The id comes validated from the path (ZIdParam); 404 unless it is a listed trainer. */
  async function requireTrainer(trainerId: string) {
    const found = await repo.listedTrainerIds(db, [trainerId]);
    if (!found.length) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
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
    /** The browser's list joins the server's at login; ids that name no listed trainer are skipped. */
    async merge(userId: string, ids: string[]) {
      const valid = await repo.listedTrainerIds(db, [...new Set(ids.filter(isId))]);
      await repo.addFavourites(db, userId, valid);
      return repo.findFavouriteIds(db, userId);
    },
    /** Deletes every favourite of the user, in the caller's transaction (account deletion). */
    removeAllOf: (userId: string, tx: Tx) => repo.deleteFavouritesOf(tx, userId),
  };
}
export type FavouritesService = ReturnType<typeof createFavouritesService>;
