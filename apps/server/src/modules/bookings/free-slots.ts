import { BOOKING_RULES, DEFAULT_TIME_ZONE, SERVER_MSG } from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import type { BookingsContext } from './context';
import { normaliseWeekly, weeklySlots } from './slots';

/** Every zone's offset is a whole number of quarter hours, so every slot starts on one (UTC). */
const QUARTER_HOUR = 15 * 60_000;

/**
 * The free one-hour slots of a listed trainer (its id validated by the route) in the coming days, as
 * ISO strings in UTC; `changesAt` (ms, on the module's clock): the answer holds until then unless
 * somebody writes. A slot leaves the window or enters it only at a slot's start, always a quarter
 * hour, and a held one is free again when its hold runs out.
 */
export async function freeSlots(
  ctx: Pick<BookingsContext, 'slotStates'>,
  { trainerId }: { trainerId: string },
): Promise<{ slots: string[]; timeZone: string; changesAt: number }> {
  // read with the slot states other visitors asked for meanwhile, as of when that read ran
  const state = await ctx.slotStates(trainerId);
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
}
