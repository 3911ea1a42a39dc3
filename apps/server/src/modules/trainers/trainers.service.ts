import type { TTrainerProfile, TTrainersResponse } from '@spotter/shared';
import { SERVER_MSG } from '@spotter/shared';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/app-error';
import { toPublicTrainer } from '../accounts/accounts.service';
import * as repo from './trainers.repo';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);
export const COUNT_CAP = 2_000;

export type ListTrainersInput = repo.TrainerFilters & { idsCsv?: string; sort: repo.TrainerSort; page: number; limit: number };

export function createTrainersService({ db }: { db: Db }) {
  return {
    async listTrainers(input: ListTrainersInput): Promise<TTrainersResponse> {
      const { idsCsv, sort, page, limit, ...filters } = input;
      if (idsCsv !== undefined) filters.ids = idsCsv.split(',').map((s) => s.trim()).filter(isUuid).slice(0, 500);
      const [rows, total] = await Promise.all([
        repo.findTrainers(db, { filters, sort, limit, offset: (page - 1) * limit }),
        repo.countTrainers(db, filters, COUNT_CAP),
      ]);
      return { viewAllTrainers: rows.map(toPublicTrainer), total, totalIsEstimate: total > COUNT_CAP, page, limit };
    },

    async getTrainerProfile(id: string): Promise<TTrainerProfile> {
      const row = isUuid(id) ? await repo.findListedTrainer(db, id) : undefined;
      if (!row) throw notFound(SERVER_MSG.trainerNotFound);
      // Subscribers are distinct users with a paid booking (DECISIONS 17); bookings come with
      // their own module, and until then no one has paid.
      return { ...toPublicTrainer(row), subscribers: 0 };
    },
  };
}
export type TrainersService = ReturnType<typeof createTrainersService>;
