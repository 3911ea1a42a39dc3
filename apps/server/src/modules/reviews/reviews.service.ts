import type { z } from 'zod';
import { isId, ROLE_MSG, SERVER_MSG, type TReview, type ZCreateReviewRequest } from '@spotter/shared';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Caller } from '../../plugins/auth';
import { FORMER_MEMBER, type AccountsService } from '../accounts';
import * as repo from './reviews.repo';

function toReview(trainerId: string, row: repo.ReviewRow, callerId?: string): TReview {
  return {
    _id: row.id,
    trainerId,
    rating: row.rating,
    comment: row.comment,
    reviewerFirstName: row.gone ? FORMER_MEMBER.firstName : row.firstName,
    reviewerLastName: row.gone ? FORMER_MEMBER.lastName : row.lastName,
    reviewerProfilePhoto: row.gone ? '' : row.picture,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    verifiedSession: row.verified,
    ...(callerId ? { isMine: row.userId === callerId } : {}),
    ...(row.hidden ? { hidden: true } : {}),
  };
}

type Deps = {
  db: Db;
  accounts: Pick<AccountsService, 'isVerified'>;
  /** The bookings service: its clock says which sessions are over (a review's verified mark). */
  bookings: { now(): Date };
  /** Reviews reads under way at once (1 on PGlite; platform/batch-loader.ts). */
  concurrentReads?: number;
};

export function createReviewsService({ db, accounts, bookings, concurrentReads }: Deps) {
  const reviewsOf = repo.reviewsReader(db, bookings.now, concurrentReads);
  return {
    /** Reviews of a trainer whose id the route validated (ZIdParam). */
    async listReviews(trainerId: string, callerId?: string): Promise<TReview[]> {
      const rows = await reviewsOf(trainerId);
      // a hidden review is its author's alone (docs/product.md#reports-and-moderation)
      return rows.filter((r) => !r.hidden || r.userId === callerId).map((r) => toReview(trainerId, r, callerId));
    },

    /** Verified users only; one review per trainer, a second post edits the first (docs/product.md#reviews). */
    async postReview(caller: Caller | undefined, input: z.output<typeof ZCreateReviewRequest>): Promise<TReview> {
      if (!caller) throw new AppError('UNAUTHENTICATED', ROLE_MSG.loginToReview);
      if (caller.role !== 'user') throw new AppError('FORBIDDEN_ROLE', ROLE_MSG.trainersCantReview);
      // a review counts in a trainer's rating, so only a verified address may post one
      if (!(await accounts.isVerified(caller.id))) throw new AppError('EMAIL_NOT_VERIFIED', SERVER_MSG.verifyToReview);
      // the trainer id comes in the body, where anything that is not an id names no trainer
      if (!isId(input.trainerId)) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
      await db.transaction(async (tx) => {
        if (!(await repo.lockTrainer(tx, input.trainerId))) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
        await repo.upsertReview(tx, {
          trainerId: input.trainerId,
          userId: caller.id,
          rating: input.rating,
          comment: input.comment,
        });
        await repo.refreshTrainerRating(tx, input.trainerId);
      });
      // read after the commit: a read under way when it committed is not joined
      const trainerId = input.trainerId.toLowerCase();
      const mine = (await reviewsOf(trainerId, true)).find((r) => r.userId === caller.id)!;
      return toReview(trainerId, mine, caller.id);
    },

    /** Stars per number; a malformed id has none (the route answers 200 with zeros, as it always did). */
    async distribution(trainerId: string): Promise<Record<'1' | '2' | '3' | '4' | '5', number>> {
      const out = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
      if (!isId(trainerId)) return out;
      for (const r of await repo.ratingDistribution(db, trainerId)) out[String(r.rating) as keyof typeof out] = r.n;
      return out;
    },
  };
}
export type ReviewsService = ReturnType<typeof createReviewsService>;
