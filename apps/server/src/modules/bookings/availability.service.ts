import { AVAILABILITY_POLICY, BOOKING_RULES, DEFAULT_TIME_ZONE, isId, type TAvailability } from '@spotter/shared';
import type { Db } from '../../db/client';
import * as repo from './availability.repo';
import { localDate, normaliseOverrides, normaliseWeekly, weeklySlots } from './slots';

type Deps = { db: Db; now?: () => Date };

const HOUR = 60 * 60_000;

/** A trainer's weekly hours and policy, and whether a time is one of their slots (free slots: free-slots.ts). */
export function createAvailabilityService({ db, now = () => new Date() }: Deps) {
  /** As stored, with the overrides of dates before today (in the trainer's zone) left out. */
  async function availabilityOf(trainerId: string): Promise<TAvailability> {
    const row = await repo.findAvailability(db, trainerId);
    if (!row) {
      return {
        timeZone: DEFAULT_TIME_ZONE,
        weekly: [],
        minNoticeHours: AVAILABILITY_POLICY.minNoticeHours.default,
        bufferMinutes: 0,
        overrides: [],
        location: null,
      };
    }
    return {
      timeZone: row.timeZone,
      weekly: normaliseWeekly(row.weekly),
      minNoticeHours: row.minNoticeHours,
      bufferMinutes: row.bufferMinutes,
      overrides: normaliseOverrides(row.overrides, localDate(now().getTime(), row.timeZone)),
      location: row.location ?? null,
    };
  }

  return {
    availabilityOf,

    /** The service's clock (tests move it). */
    now,

    /**
     * Whether `startsAt` is one of the slots the trainer's hours offer at `at` (weekly hours, date
     * overrides, the minimum notice), taken or not; with the policy a hold then needs (the buffer,
     * the place). `days`: how far ahead (the bookable window; a weekly series looks further).
     */
    async slotRule(trainerId: string, startsAt: Date, at: Date, days: number = BOOKING_RULES.daysAhead) {
      const a = await availabilityOf(trainerId);
      const slots = weeklySlots({ ...a, now: at, days });
      const scheduled = slots.includes(startsAt.getTime()) && startsAt.getTime() > at.getTime() + a.minNoticeHours * HOUR;
      return { scheduled, bufferMinutes: a.bufferMinutes, location: a.location, timeZone: a.timeZone };
    },

    /** By an id from a body (a booking's trainer), where anything that is not an id names nothing. */
    findBookableTrainer: (id: string) => (isId(id) ? repo.findBookableTrainer(db, id) : Promise.resolve(undefined)),
  };
}
export type AvailabilityService = ReturnType<typeof createAvailabilityService>;
