import { and, desc, eq, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, reviews } from '../../db/schema';
import { refreshRatingScores } from '../../db/rating-score';
import { idArray } from '../../lib/id-array';
import { completedSessionOf } from '../bookings';
import { createBatchLoader } from '../../platform/batch-loader';

type Q = Db | Tx;

/** Reviews a trainer's page shows, newest first; a trainer with more shows these. */
const REVIEWS_SHOWN = 500;

/** A timestamp as JavaScript's `toISOString` writes it (UTC, milliseconds, `Z`). */
const isoText = (column: SQLWrapper) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The reviews of several trainers in one statement: for each id in `trainerIds` (a PostgreSQL
 * array literal, one parameter), its newest `REVIEWS_SHOWN` through the (trainer, created) index,
 * with the reviewer's name and photo as they are now and whether the reviewer had a session with
 * the trainer that was over at `now`. Each trainer's reviews come back as one JSON array, newest
 * first: one text per trainer to decode instead of a dozen fields per review (20 trainers on
 * PGlite: 4.4 → 3.4 ms; docs/decisions/033-read-cache-size.md).
 */
function reviewsQuery(db: Db) {
  const wanted = sql`unnest(${sql.placeholder('trainerIds')}::uuid[]) as wanted(trainer_id)`;
  const newest = db
    .select({
      id: reviews.id,
      userId: reviews.userId,
      rating: reviews.rating,
      comment: reviews.comment,
      createdAt: reviews.createdAt,
      updatedAt: reviews.updatedAt,
      firstName: accounts.firstName,
      lastName: accounts.lastName,
      picture: accounts.picture,
      deletedAt: accounts.deletedAt,
      hiddenAt: reviews.hiddenAt,
      verified: completedSessionOf(reviews.userId, reviews.trainerId, sql`${sql.placeholder('now')}::timestamptz`).as('verified'),
    })
    .from(reviews)
    .innerJoin(accounts, eq(accounts.id, reviews.userId))
    .where(eq(reviews.trainerId, sql`wanted.trainer_id`))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(REVIEWS_SHOWN)
    .as('newest');
  const review = sql`json_build_object(
    'id', ${newest.id}, 'userId', ${newest.userId}, 'rating', ${newest.rating}, 'comment', ${newest.comment},
    'createdAt', ${isoText(newest.createdAt)}, 'updatedAt', ${isoText(newest.updatedAt)},
    'firstName', ${newest.firstName}, 'lastName', ${newest.lastName}, 'picture', ${newest.picture},
    'gone', ${newest.deletedAt} is not null, 'hidden', ${newest.hiddenAt} is not null, 'verified', ${newest.verified})`;
  return db
    .select({
      trainerId: sql<string>`wanted.trainer_id`,
      reviews: sql<string>`(select coalesce(json_agg(${review} order by ${newest.createdAt} desc, ${newest.id} desc), '[]')::text from ${newest})`,
    })
    .from(wanted)
    .prepare('reviews_of_trainers');
}

/** One review as the statement above writes it. */
export type ReviewRow = {
  id: string;
  userId: string;
  rating: number;
  comment: string;
  createdAt: string;
  updatedAt: string;
  firstName: string;
  lastName: string;
  picture: string;
  /** The reviewer's account was deleted. */
  gone: boolean;
  /** Hidden by moderation (docs/product.md#reports-and-moderation): shown to its author only. */
  hidden: boolean;
  verified: boolean;
};

/**
 * Reads the reviews of a trainer (a lower-case id), newest first, together with those of the
 * trainers asked for at the same time (platform/batch-loader.ts): every profile visit that misses the
 * read cache reads them. The verified marks are as of when the read runs, on `now`'s clock.
 */
export function reviewsReader(db: Db, now: () => Date, concurrency = 1) {
  const query = reviewsQuery(db);
  // at most 20 trainers' newest reviews in one answer
  const loader = createBatchLoader(
    async (trainerIds: string[]) => {
      const rows = await query.execute({ trainerIds: idArray(trainerIds), now: now().toISOString() });
      return new Map(rows.map((row) => [row.trainerId, JSON.parse(row.reviews) as ReviewRow[]]));
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
 * transaction as the review (docs/decisions/016-bayesian-rating.md), of the visible reviews only: a
 * hidden one does not count (docs/product.md#reports-and-moderation).
 */
export async function refreshTrainerRating(tx: Tx, trainerId: string) {
  await tx
    .update(accounts)
    .set({
      ratingAvg: sql`(select coalesce(round(avg(rating), 2), 0) from reviews where trainer_id = ${trainerId} and hidden_at is null)`,
      ratingCount: sql`(select count(*)::int from reviews where trainer_id = ${trainerId} and hidden_at is null)`,
    })
    .where(eq(accounts.id, trainerId));
  await tx.execute(refreshRatingScores(sql`id = ${trainerId}`));
}

export async function ratingDistribution(db: Q, trainerId: string) {
  return db
    .select({ rating: reviews.rating, n: sql<number>`count(*)::int` })
    .from(reviews)
    .where(and(eq(reviews.trainerId, trainerId), isNull(reviews.hiddenAt)))
    .groupBy(reviews.rating);
}

/**
 * Hides (`at`) or shows again (null) a review and recomputes its trainer's rating, in the caller's
 * transaction (docs/product.md#reports-and-moderation). The trainer's row is locked first, as a new
 * review locks it, so the two recompute one after another. Answers the trainer's id, or nothing when
 * there is no such review.
 */
export async function setReviewHidden(tx: Tx, reviewId: string, at: Date | null): Promise<string | undefined> {
  const [review] = await tx.select({ trainerId: reviews.trainerId }).from(reviews).where(eq(reviews.id, reviewId));
  if (!review) return undefined;
  await tx.execute(sql`select id from accounts where id = ${review.trainerId} for update`);
  await tx.update(reviews).set({ hiddenAt: at }).where(eq(reviews.id, reviewId));
  await refreshTrainerRating(tx, review.trainerId);
  return review.trainerId;
}
