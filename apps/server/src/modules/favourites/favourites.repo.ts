import { and, asc, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, favourites, LISTED_TRAINER } from '../../db/schema';

export async function findFavouriteIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ trainerId: favourites.trainerId })
    .from(favourites)
    .innerJoin(accounts, eq(accounts.id, favourites.trainerId))
    .where(and(eq(favourites.userId, userId), LISTED_TRAINER))
    .orderBy(asc(favourites.createdAt));
  return rows.map((r) => r.trainerId);
}

/** The ids among `ids` that are listed trainers. */
export async function listedTrainerIds(db: Db, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(inArray(accounts.id, ids), LISTED_TRAINER));
  return rows.map((r) => r.id);
}

export async function addFavourites(db: Db, userId: string, trainerIds: string[]) {
  if (!trainerIds.length) return;
  await db
    .insert(favourites)
    .values(trainerIds.map((trainerId) => ({ userId, trainerId })))
    .onConflictDoNothing();
}

export async function removeFavourite(db: Db, userId: string, trainerId: string) {
  await db.delete(favourites).where(and(eq(favourites.userId, userId), eq(favourites.trainerId, trainerId)));
}

/** Every favourite of the user (account deletion). */
export async function deleteFavouritesOf(tx: Tx, userId: string) {
  await tx.delete(favourites).where(eq(favourites.userId, userId));
}

/** Who favourited a trainer and may be mailed (a verified account not deleted), newest first, at most `limit`. */
export async function favouritersOf(db: Db | Tx, trainerId: string, limit: number) {
  return db
    .select({ id: accounts.id, email: accounts.email, firstName: accounts.firstName })
    .from(favourites)
    .innerJoin(accounts, eq(accounts.id, favourites.userId))
    .where(and(eq(favourites.trainerId, trainerId), isNull(accounts.deletedAt), isNotNull(accounts.emailVerifiedAt)))
    .orderBy(desc(favourites.createdAt))
    .limit(limit);
}
