import { ROLE_MSG, SERVER_MSG, type TReview } from '@spotter/shared';
import type { Db } from '../../db/client';
import { forbidden, notFound, unauthorized } from '../../lib/app-error';
import type { Caller } from '../../plugins/auth';
import { isUuid } from '../trainers/trainers.service';
import * as repo from './reviews.repo';

export const FORMER_MEMBER = { firstName: 'Former', lastName: 'member' };

function toReview(row: repo.ReviewRow, callerId?: string): TReview {
  const gone = row.deletedAt !== null;
  return {
    _id: row.id,
    trainerId: row.trainerId,
    rating: row.rating,
    comment: row.comment,
    reviewerFirstName: gone ? FORMER_MEMBER.firstName : row.firstName,
    reviewerLastName: gone ? FORMER_MEMBER.lastName : row.lastName,
    reviewerProfilePhoto: gone ? '' : row.picture,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(callerId ? { isMine: row.userId === callerId } : {}),
  };
}

export function createReviewsService({ db }: { db: Db }) {
  return {
    async listReviews(trainerId: string, callerId?: string): Promise<TReview[]> {
      if (!isUuid(trainerId)) throw notFound(SERVER_MSG.trainerNotFound);
      const rows = await repo.findReviewsOfTrainer(db, trainerId);
      return rows.map((r) => toReview(r, callerId));
    },

    /** Verified users only; one review per trainer, a second post edits the first (DECISIONS 15). */
    async postReview(caller: Caller | undefined, input: { trainerId: string; rating: number; comment: string }): Promise<TReview> {
      if (!caller) throw unauthorized(ROLE_MSG.loginToReview);
      if (caller.role !== 'user') throw forbidden(ROLE_MSG.trainersCantReview);
      // a review counts in a trainer's rating, so only a verified address may post one
      if (!(await repo.isVerifiedAccount(db, caller.id))) throw forbidden(SERVER_MSG.verifyToReview);
      if (!isUuid(input.trainerId)) throw notFound(SERVER_MSG.trainerNotFound);
      await db.transaction(async (tx) => {
        if (!(await repo.lockTrainer(tx, input.trainerId))) throw notFound(SERVER_MSG.trainerNotFound);
        await repo.upsertReview(tx, { trainerId: input.trainerId, userId: caller.id, rating: input.rating, comment: input.comment });
        await repo.refreshTrainerRating(tx, input.trainerId);
      });
      const mine = await repo.findReview(db, input.trainerId, caller.id);
      return toReview(mine!, caller.id);
    },

    async distribution(trainerId: string): Promise<Record<'1' | '2' | '3' | '4' | '5', number>> {
      const out = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
      if (!isUuid(trainerId)) return out;
      for (const r of await repo.ratingDistribution(db, trainerId)) out[String(r.rating) as keyof typeof out] = r.n;
      return out;
    },
  };
}
export type ReviewsService = ReturnType<typeof createReviewsService>;
