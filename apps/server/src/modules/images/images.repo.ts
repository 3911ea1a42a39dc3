import { and, eq, lt, notExists, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, images } from '../../db/schema';

const OWNER_LOCK_SEED = 724_005;

type NewImage = { sha256: string; mime: string; bytes: Buffer; width: number; height: number; ownerId: string };

export async function findImage(db: Db, sha256: string) {
  const [row] = await db
    .select({ bytes: images.bytes, mime: images.mime })
    .from(images)
    .where(eq(images.sha256, sha256))
    .limit(1);
  return row;
}

export async function hasOwnImage(db: Db | Tx, ownerId: string, sha256: string): Promise<boolean> {
  const [row] = await db
    .select({ sha256: images.sha256 })
    .from(images)
    .where(and(eq(images.sha256, sha256), eq(images.ownerId, ownerId)))
    .limit(1);
  return !!row;
}

/** How many images and bytes this owner stores. */
export async function findUsage(db: Db | Tx, ownerId: string): Promise<{ count: number; bytes: number }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, bytes: sql<string>`coalesce(sum(octet_length(${images.bytes})), 0)::bigint` })
    .from(images)
    .where(eq(images.ownerId, ownerId));
  return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/** Serialises one owner's uploads so that two parallel ones cannot both pass the storage limit. */
export async function lockOwner(tx: Tx, ownerId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${ownerId}, ${OWNER_LOCK_SEED}))`);
}

export async function insertImage(tx: Tx, image: NewImage) {
  await tx.insert(images).values(image).onConflictDoNothing();
}

/**
 * Deletes images older than `minAgeSeconds` that no account's picture names (relative, or
 * absolute on any host: the last 81 characters are `/api/images/<sha256>.webp`); one owner's or
 * everyone's. Answers how many rows went.
 */
export async function deleteUnreferenced(
  db: Db,
  { ownerId, minAgeSeconds }: { ownerId?: string; minAgeSeconds: number },
): Promise<number> {
  const referenced = db
    .select({ one: sql`1` })
    .from(accounts)
    .where(sql`right(${accounts.picture}, 81) = '/api/images/' || ${images.sha256} || '.webp'`);
  const rows = await db
    .delete(images)
    .where(
      and(
        ownerId ? eq(images.ownerId, ownerId) : undefined,
        lt(images.createdAt, sql`now() - make_interval(secs => ${minAgeSeconds})`),
        notExists(referenced),
      ),
    )
    .returning({ sha256: images.sha256 });
  return rows.length;
}

/** Every image the owner stored (account deletion). */
export async function deleteImagesOf(tx: Tx, ownerId: string) {
  await tx.delete(images).where(eq(images.ownerId, ownerId));
}
