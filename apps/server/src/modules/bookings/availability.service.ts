import { BOOKING_RULES, DEFAULT_TIME_ZONE, isId, type TAvailability } from '@spotter/shared';
import type { Db } from '../../db/client';
import * as repo from './availability.repo';
import { normaliseWeekly, weeklySlots } from './slots';

type Deps = { db: Db; now?: () => Date };

/** A trainer's weekly hours, and whether a time is one of their slots (free slots: free-slots.ts). */
export function createAvailabilityService({ db, now = () => new Date() }: Deps) {
  async function availabilityOf(trainerId: string): Promise<TAvailability> {
    const row = await repo.findAvailability(db, trainerId);
    // TODO(issue 29): notice, buffer, overrides and place stored
    const policy = { minNoticeHours: 12, bufferMinutes: 0, overrides: [], location: null };
    return row
      ? { timeZone: row.timeZone, weekly: normaliseWeekly(row.weekly), ...policy }
      : { timeZone: DEFAULT_TIME_ZONE, weekly: [], ...policy };
  }

  /** Every weekly slot of the coming days, taken or not. */
  async function scheduledSlots(trainerId: string, at: Date) {
    const { timeZone, weekly } = await availabilityOf(trainerId);
    return { timeZone, slots: weeklySlots({ weekly, timeZone, now: at, days: BOOKING_RULES.daysAhead }) };
  }

  return {
    availabilityOf,

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
