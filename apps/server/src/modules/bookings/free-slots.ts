import { AVAILABILITY_POLICY, BOOKING_RULES, DEFAULT_TIME_ZONE, SERVER_MSG } from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import type { SlotState } from './availability.repo';
import type { BookingsContext } from './context';
import { normaliseWeekly, weeklySlots } from './slots';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Every zone's offset is a whole number of quarter hours, so every slot starts on one (UTC). */
const QUARTER_HOUR = 15 * MINUTE;

/**
 * The slots a trainer's state offers (ms, ascending), the booking dialog's: the weekly hours with
 * the date overrides, starting more than the minimum notice after `state.at`, neither taken nor
 * within the buffer of a live session ([start - buffer, end + buffer) overlapping it), in the
 * coming BOOKING_RULES.daysAhead days (docs/product.md#booking-and-payment). Pure: a state in,
 * the slots out.
 */
function offeredSlots(state: SlotState): number[] {
  const { at } = state;
  const timeZone = state.timeZone ?? DEFAULT_TIME_ZONE;
  const weekly = state.weekly ? normaliseWeekly(state.weekly) : [];
  const notice = (state.minNoticeHours ?? AVAILABILITY_POLICY.minNoticeHours.default) * HOUR;
  const buffer = (state.bufferMinutes ?? 0) * MINUTE;
  const length = BOOKING_RULES.sessionMinutes * MINUTE;
  const earliest = at.getTime() + notice;
  return weeklySlots({ weekly, timeZone, now: at, days: BOOKING_RULES.daysAhead, overrides: state.overrides ?? [] }).filter(
    (s) => s > earliest && !state.taken.some((b) => s - buffer < b.end && b.start < s + length + buffer),
  );
}

/**
 * The free one-hour slots of a listed trainer (its id validated by the route) in the coming days, as
 * ISO strings in UTC: the slots the booking dialog offers (`offeredSlots`). `changesAt` (ms, on the
 * module's clock): the answer holds until then unless somebody writes. A slot leaves the window,
 * enters it or crosses the minimum notice (whole hours before a slot's start) only at a quarter
 * hour, and a held one (and those its buffer kept) is free again when its hold runs out.
 */
export async function freeSlots(
  ctx: Pick<BookingsContext, 'slotStates'>,
  { trainerId }: { trainerId: string },
): Promise<{ slots: string[]; timeZone: string; changesAt: number }> {
  // read with the slot states other visitors asked for meanwhile, as of when that read ran
  const state = await ctx.slotStates(trainerId);
  if (!state) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
  const slots = offeredSlots(state);
  const at = state.at.getTime();
  const nextQuarter = (Math.floor(at / QUARTER_HOUR) + 1) * QUARTER_HOUR;
  // the first offered slot stops being offered when the notice reaches it (at a quarter hour too,
  // so never later than `nextQuarter`; kept for a notice that would not be whole hours)
  const notice = (state.minNoticeHours ?? AVAILABILITY_POLICY.minNoticeHours.default) * HOUR;
  const firstLeaves = slots.length ? slots[0] - notice : Infinity;
  return {
    timeZone: state.timeZone ?? DEFAULT_TIME_ZONE,
    slots: slots.map((s) => new Date(s).toISOString()),
    changesAt: Math.min(nextQuarter, firstLeaves, state.holdEnds ?? Infinity),
  };
}
