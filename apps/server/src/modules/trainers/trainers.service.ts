import type { TPublicTrainer, TTrainerProfile, TTrainersQueryParsed, TTrainersResponse } from '@spotter/shared';
import { SERVER_MSG } from '@spotter/shared';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { fromCents } from '../../lib/money';
import { packagesOf, type BookingsContext } from '../bookings';
import { createFreeSlotsIndex } from './free-slots-index';
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

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/**
 * `concurrentReads`: profile reads under way at once (1 on PGlite; platform/batch-loader.ts).
 * `bookings`: the bookings module's context, whose free slots (and clock) `nextFreeAt` and the
 * availability filters follow (docs/decisions/040-finding-free-trainers.md).
 */
type Deps = { db: Db; bookings: BookingsContext; concurrentReads?: number };

export function createTrainersService({ db, bookings, concurrentReads }: Deps) {
  const now = () => bookings.now();
  const profileOf = repo.trainerProfileReader(db, concurrentReads, now);
  const freeSlotsIndex = createFreeSlotsIndex({ db, ctx: bookings, concurrentReads });
  return {
    /** Keeps the stored free slots level with the bookings module's (free-slots-index.ts). */
    freeSlotsIndex,
    /** The bookings module's clock, which `nextFreeAt` and the availability filters are read on. */
    now,

    async listTrainers({ sort, page, limit, ...filters }: TTrainersQueryParsed): Promise<TTrainersResponse> {
      await freeSlotsIndex.fresh();
      const at = now().getTime();
      const [rows, total] = await Promise.all([
        repo.findTrainers(db, { filters, sort, limit, offset: (page - 1) * limit, at }),
        repo.countTrainers(db, filters, COUNT_CAP, at),
      ]);
      return {
        viewAllTrainers: rows.map((row) => ({
          ...toPublicTrainer(row),
          nextFreeAt: isoOrNull(row.nextFreeAt),
          verified: row.verified === true,
        })),
        total,
        totalIsEstimate: total > COUNT_CAP,
        page,
        limit,
      };
    },

    /** A listed trainer by an id the route validated (ZIdParam), with subscribers (docs/product.md#numbers-from-data). */
    async getTrainerProfile(id: string): Promise<TTrainerProfile> {
      await freeSlotsIndex.fresh();
      const row = await profileOf(id);
      if (!row) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
      const packages = (await packagesOf(db, [row.id])).get(row.id) ?? [];
      return {
        ...toPublicTrainer(row),
        nextFreeAt: isoOrNull(row.nextFreeAt),
        verified: row.verified === true,
        subscribers: row.subscribers,
        packages,
      };
    },
  };
}
export type TrainersService = ReturnType<typeof createTrainersService>;
