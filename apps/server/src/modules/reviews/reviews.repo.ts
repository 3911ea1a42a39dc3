import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, reviews } from '../../db/schema';
import { refreshRatingScores } from '../../db/rating-score';
import { completedSessionOf } from '../bookings/bookings.repo';
import { idArray } from '../trainers/trainers.repo';
import { createBatchLoader } from '../../lib/batch-loader';

type Q = Db | Tx;

/** Reviews a trainer's page shows, newest first; a trainer with more shows these. */
const REVIEWS_SHOWN = 500;

/**
 * The reviews of several trainers in one statement: for each id in `trainerIds` (a PostgreSQL
 * array literal, one parameter), its newest `REVIEWS_SHOWN` through the (trainer, created) index,
 * with the reviewer's name and photo as they are now and whether the reviewer had a session with
 * the trainer that was over at `now`.
 */
function reviewsQuery(db: Db) {
  const wanted = sql`unnest(${sql.placeholder('trainerIds')}::uuid[]) as wanted(trainer_id)`;
  const newest = db
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
      verified: completedSessionOf(reviews.userId, reviews.trainerId, sql`${sql.placeholder('now')}::timestamptz`).as('verified'),
    })
    .from(reviews)
    .innerJoin(accounts, eq(accounts.id, reviews.userId))
    .where(eq(reviews.trainerId, sql`wanted.trainer_id`))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(REVIEWS_SHOWN)
    .as('newest');
  return (
    db
      .select({
        id: newest.id,
        trainerId: newest.trainerId,
        userId: newest.userId,
        rating: newest.rating,
        comment: newest.comment,
        createdAt: newest.createdAt,
        updatedAt: newest.updatedAt,
        firstName: newest.firstName,
        lastName: newest.lastName,
        picture: newest.picture,
        deletedAt: newest.deletedAt,
        verified: newest.verified,
      })
      .from(wanted)
      .innerJoinLateral(newest, sql`true`)
      // a join promises no order of its own: each trainer's rows newest first, as the page shows them
      .orderBy(desc(newest.createdAt), desc(newest.id))
      .prepare('reviews_of_trainers')
  );
}
type ReviewsQuery = ReturnType<typeof reviewsQuery>;
export type ReviewRow = Awaited<ReturnType<ReviewsQuery['execute']>>[number];

/**
 * Reads the reviews of a trainer (a lower-case id), newest first, together with those of the
 * trainers asked for at the same time (lib/batch-loader.ts): every profile visit that misses the
 * read cache reads them. The verified marks are as of when the read runs, on `now`'s clock.
 */
export function reviewsReader(db: Db, now: () => Date, concurrency = 1) {
  const query = reviewsQuery(db);
  // at most 20 trainers' newest reviews in one answer
  const loader = createBatchLoader(
    async (trainerIds: string[]) => {
      const rows = await query.execute({ trainerIds: idArray(trainerIds), now: now().toISOString() });
      const byTrainer = new Map<string, ReviewRow[]>(trainerIds.map((id) => [id, []]));
      for (const row of rows) byTrainer.get(row.trainerId)?.push(row);
      return byTrainer;
    },
    { maxBatch: 20, concurrency },
  );
  /** `mustRead`: never refused when many wait (a review reading back what it just stored). */
  return async (trainerId: string, mustRead = false): Promise<ReviewRow[]> => (await loader.load(trainerId, mustRead)) ?? [];
}

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

export async function ratingDistribution(db: Q, trainerId: string) {
  return db
    .select({ rating: reviews.rating, n: sql<number>`count(*)::int` })
    .from(reviews)
    .where(and(eq(reviews.trainerId, trainerId)))
    .groupBy(reviews.rating);
}
