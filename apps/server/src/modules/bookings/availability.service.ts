import { BOOKING_RULES, DEFAULT_TIME_ZONE, isId, SERVER_MSG, type TAvailability } from '@spotter/shared';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import * as repo from './availability.repo';
import { normaliseWeekly, weeklySlots } from './slots';

/** Every zone's offset is a whole number of quarter hours, so every slot starts on one (UTC). */
const QUARTER_HOUR = 15 * 60_000;

/** `concurrentReads`: slot reads under way at once (1 on PGlite; platform/batch-loader.ts). */
type Deps = { db: Db; now?: () => Date; concurrentReads?: number };

export function createAvailabilityService({ db, now = () => new Date(), concurrentReads }: Deps) {
  const slotStateOf = repo.slotStateReader(db, now, BOOKING_RULES.daysAhead, concurrentReads);

  async function availabilityOf(trainerId: string): Promise<TAvailability> {
    const row = await repo.findAvailability(db, trainerId);
    return row ? { timeZone: row.timeZone, weekly: normaliseWeekly(row.weekly) } : { timeZone: DEFAULT_TIME_ZONE, weekly: [] };
  }

  /** Every weekly slot of the coming days, taken or not. */
  async function scheduledSlots(trainerId: string, at: Date) {
    const { timeZone, weekly } = await availabilityOf(trainerId);
    return { timeZone, slots: weeklySlots({ weekly, timeZone, now: at, days: BOOKING_RULES.daysAhead }) };
  }

  return {
    availabilityOf,

    /**
     * The free one-hour slots of a listed trainer (its id validated by the route) in the coming
     * days, as ISO strings in UTC; `changesAt` (ms, on the service's clock): the answer holds until
     * then unless somebody writes. A slot leaves the window or enters it only at a slot's start,
     * always a quarter hour, and a held one is free again when its hold runs out.
     */
    async freeSlots(trainerId: string): Promise<{ slots: string[]; timeZone: string; changesAt: number }> {
      // read with the slot states other visitors asked for meanwhile, as of when that read ran
      const state = await slotStateOf(trainerId);
      if (!state) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
      const { at } = state;
      const timeZone = state.timeZone ?? DEFAULT_TIME_ZONE;
      const weekly = state.weekly ? normaliseWeekly(state.weekly) : [];
      const slots = weeklySlots({ weekly, timeZone, now: at, days: BOOKING_RULES.daysAhead });
      const nextQuarter = (Math.floor(at.getTime() / QUARTER_HOUR) + 1) * QUARTER_HOUR;
      return {
        timeZone,
        slots: slots.filter((s) => !state.taken.has(s)).map((s) => new Date(s).toISOString()),
        changesAt: Math.min(nextQuarter, state.holdEnds ?? Infinity),
      };
    },

    /** The service's clock (tests move it). */
    now,

    /** Whether `startsAt` is one of the trainer's weekly slots in the bookable window (taken or not). */
    async isScheduledSlot(trainerId: string, startsAt: Date, at: Date): Promise<boolean> {
      const { slots } = await scheduledSlots(trainerId, at);
      return slots.includes(startsAt.getTime());
    },

    /** By an id from a body (a booking's trainer), where anything that is not an id names nothing. */
    findBookableTrainer: (id: string) => (isId(id) ? repo.findBookableTrainer(db, id) : Promise.resolve(undefined)),
  };
}
export type AvailabilityService = ReturnType<typeof createAvailabilityService>;
