import type { TPublicTrainer, TTrainerProfile, TTrainersQueryParsed, TTrainersResponse } from '@spotter/shared';
import { SERVER_MSG } from '@spotter/shared';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { fromCents } from '../../lib/money';
import * as repo from './trainers.repo';

const COUNT_CAP = 2_000;

const toPublicTrainer = (row: repo.PublicTrainerRow): TPublicTrainer => ({
  _id: row.id,
  firstName: row.firstName,
  lastName: row.lastName,
  title: row.title,
  description: row.description,
  picture: row.picture,
  city: row.city,
  country: row.country,
  gender: row.gender,
  price: fromCents(row.priceCents ?? 0),
  rating: Number(row.ratingAvg),
  ratingCount: row.ratingCount,
});

/** `concurrentReads`: profile reads under way at once (1 on PGlite; platform/batch-loader.ts). */
type Deps = { db: Db; concurrentReads?: number };

export function createTrainersService({ db, concurrentReads }: Deps) {
  const profileOf = repo.trainerProfileReader(db, concurrentReads);
  return {
    async listTrainers({ sort, page, limit, ...filters }: TTrainersQueryParsed): Promise<TTrainersResponse> {
      const [rows, total] = await Promise.all([
        repo.findTrainers(db, { filters, sort, limit, offset: (page - 1) * limit }),
        repo.countTrainers(db, filters, COUNT_CAP),
      ]);
      return {
        viewAllTrainers: rows.map((row) => ({ ...toPublicTrainer(row), nextFreeAt: null })),
        total,
        totalIsEstimate: total > COUNT_CAP,
        page,
        limit,
      };
    },

    /** A listed trainer by an id the route validated (ZIdParam), with subscribers (docs/product.md#numbers-from-data). */
    async getTrainerProfile(id: string): Promise<TTrainerProfile> {
      const row = await profileOf(id);
      if (!row) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
      return { ...toPublicTrainer(row), nextFreeAt: null, subscribers: row.subscribers };
    },
  };
}
export type TrainersService = ReturnType<typeof createTrainersService>;
