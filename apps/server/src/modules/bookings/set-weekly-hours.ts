import type { TAvailability } from '@spotter/shared';
import * as repo from './availability.repo';
import type { BookingsContext } from './context';
import { normaliseWeekly } from './slots';

/** A trainer sets their weekly hours and time zone; answered as stored (each weekday once, hours sorted). */
export async function setWeeklyHours(
  ctx: Pick<BookingsContext, 'db'>,
  { trainerId, availability }: { trainerId: string; availability: Pick<TAvailability, 'timeZone' | 'weekly'> },
): Promise<TAvailability> {
  const value = { timeZone: availability.timeZone, weekly: normaliseWeekly(availability.weekly) };
  await repo.saveAvailability(ctx.db, trainerId, value);
  // TODO(issue 29): notice, buffer, overrides and place stored
  return { ...value, minNoticeHours: 12, bufferMinutes: 0, overrides: [], location: null };
}
