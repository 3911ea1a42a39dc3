import { and, asc, desc, eq, notInArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { weightEntries } from '../../db/schema';

type Q = Db | Tx;

/** Adds a point to the account's weight chart and drops the oldest beyond `keep`. */
export async function addWeightEntry(tx: Tx, accountId: string, weight: number, keep: number) {
  await tx.insert(weightEntries).values({ accountId, weight });
  const newest = tx
    .select({ id: weightEntries.id })
    .from(weightEntries)
    .where(eq(weightEntries.accountId, accountId))
    .orderBy(desc(weightEntries.recordedAt), desc(weightEntries.id))
    .limit(keep);
  await tx.delete(weightEntries).where(and(eq(weightEntries.accountId, accountId), notInArray(weightEntries.id, newest)));
}

/** The account's weights, oldest first. */
export async function findWeights(db: Q, accountId: string, limit: number) {
  return db
    .select({ weight: weightEntries.weight, recordedAt: weightEntries.recordedAt })
    .from(weightEntries)
    .where(eq(weightEntries.accountId, accountId))
    .orderBy(asc(weightEntries.recordedAt))
    .limit(limit);
}

export async function deleteWeightsOf(tx: Tx, accountId: string) {
  await tx.delete(weightEntries).where(eq(weightEntries.accountId, accountId));
}
