import type { z } from 'zod';
import type { TAvailability, ZAvailabilityRequest } from '@spotter/shared';
import * as repo from './availability.repo';
import type { BookingsContext } from './context';
import { localDate, normaliseOverrides, normaliseWeekly } from './slots';

/**
 * A trainer sets their weekly hours, time zone and booking policy; answered as stored (each weekday
 * once, hours sorted, one override per date from today on). A policy field left out keeps its saved
 * value; `location: null` removes the place (docs/product.md#booking-and-payment).
 */
export async function setWeeklyHours(
  ctx: Pick<BookingsContext, 'db' | 'now' | 'availability'>,
  { trainerId, availability }: { trainerId: string; availability: z.output<typeof ZAvailabilityRequest> },
): Promise<TAvailability> {
  const { timeZone } = availability;
  await repo.saveAvailability(ctx.db, trainerId, {
    timeZone,
    weekly: normaliseWeekly(availability.weekly),
    minNoticeHours: availability.minNoticeHours,
    bufferMinutes: availability.bufferMinutes,
    overrides: availability.overrides && normaliseOverrides(availability.overrides, localDate(ctx.now().getTime(), timeZone)),
    location: availability.location,
  });
  return ctx.availability.availabilityOf(trainerId);
}
