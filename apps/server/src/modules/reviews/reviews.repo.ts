import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, reviews } from '../../db/schema';
import { refreshRatingScores } from '../../db/rating-score';
import { completedSessionOf } from '../bookings/bookings.repo';

type Q = Db | Tx;

function reviewsQuery(db: Db) {
  return db
    .select({
      id: reviews.id,
      trainerId: reviews.trainerId,
      userId: reviews.userId,
      rating: reviews.rating,
      comment: reviews.comment,
      createdAt: reviews.createdAt,
      updatedAt: reviews.updatedAt,
      firstName: accounts.firstName,
      lastName: accounts.lastName,
      picture: accounts.picture,
      deletedAt: accounts.deletedAt,
      verified: completedSessionOf(reviews.userId, reviews.trainerId, sql`${sql.placeholder('now')}::timestamptz`),
    })
    .from(reviews)
    .innerJoin(accounts, eq(accounts.id, reviews.userId))
    .where(eq(reviews.trainerId, sql.placeholder('trainerId')))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(500)
    .prepare('reviews_of_trainer');
}
/** Prepared once per database: every profile visit that misses the read cache runs it. */
const reviewsQueries = new WeakMap<Db, ReturnType<typeof reviewsQuery>>();

/**
 * Reviews of a trainer, newest first, with the reviewer's name and photo as they are now and
 * whether the reviewer had a session with the trainer that was over at `now`: one statement.
 */
export async function findReviewsOfTrainer(db: Db, trainerId: string, now: Date) {
  let query = reviewsQueries.get(db);
  if (!query) reviewsQueries.set(db, (query = reviewsQuery(db)));
  return query.execute({ trainerId, now: now.toISOString() });
}
export type ReviewRow = Awaited<ReturnType<typeof findReviewsOfTrainer>>[number];

/** Locks the trainer's row so concurrent reviews recompute the average one after another. */
export async function lockTrainer(tx: Tx, trainerId: string) {
  const rows = await tx.execute(
    sql`select id from accounts where id = ${trainerId} and role = 'trainer' and deleted_at is null and email_verified_at is not null for update`,
  );
  return (rows as unknown as { rows: unknown[] }).rows.length > 0;
}

export async function upsertReview(tx: Tx, values: { trainerId: string; userId: string; rating: number; comment: string }) {
  const [row] = await tx
    .insert(reviews)
    .values(values)
    .onConflictDoUpdate({
      target: [reviews.trainerId, reviews.userId],
      set: { rating: values.rating, comment: values.comment, updatedAt: sql`now()` },
    })
    .returning({ id: reviews.id });
  return row;
}

/**
 * Average, count and the Bayesian score the list sorts by, recomputed in SQL in the same
 * transaction as the review (docs/decisions/016-bayesian-rating.md).
 */
export async function refreshTrainerRating(tx: Tx, trainerId: string) {
  await tx
    .update(accounts)
    .set({
      ratingAvg: sql`(select coalesce(round(avg(rating), 2), 0) from reviews where trainer_id = ${trainerId})`,
      ratingCount: sql`(select count(*)::int from reviews where trainer_id = ${trainerId})`,
    })
    .where(eq(accounts.id, trainerId));
  await tx.execute(refreshRatingScores(sql`id = ${trainerId}`));
}

export async function findReview(db: Db, trainerId: string, userId: string, now: Date) {
  const rows = await findReviewsOfTrainer(db, trainerId, now);
  return rows.find((r) => r.userId === userId);
}

export async function ratingDistribution(db: Q, trainerId: string) {
  return db
    .select({ rating: reviews.rating, n: sql<number>`count(*)::int` })
    .from(reviews)
    .where(and(eq(reviews.trainerId, trainerId)))
    .groupBy(reviews.rating);
}
