/**
 * Turns a trainer's weekly hours, local to their time zone, into the UTC start times of one-hour
 * slots. Only Intl is used: the offset of a zone at an instant is read from its formatted parts,
 * so daylight saving changes are where the zone database says they are.
 */

export type Weekly = Array<{ weekday: number; hours: number[] }>;

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock fields of an instant in a zone. */
function wallClock(instant: number, timeZone: string) {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

/** Local time minus UTC, in milliseconds, at an instant. */
function zoneOffset(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** `localHourToUtc` without its memory. */
function computeLocalHourToUtc(year: number, month: number, day: number, hour: number, timeZone: string): number | undefined {
  const wall = Date.UTC(year, month - 1, day, hour);
  // the offsets in force half a day either side cover any single change around this hour
  const offsets = new Set([zoneOffset(wall - DAY / 2, timeZone), zoneOffset(wall + DAY / 2, timeZone)]);
  const matches: number[] = [];
  for (const offset of offsets) {
    const candidate = wall - offset;
    if (zoneOffset(candidate, timeZone) === offset) matches.push(candidate);
  }
  return matches.length ? Math.min(...matches) : undefined;
}

/**
 * Answers of `localHourToUtc` kept: a zone's rules don't change while the process runs, and each
 * answer costs several Intl formatting calls (most of a slots request's CPU time), whereas the
 * same trainers' hours of the same days are asked for again and again. Emptied when full.
 */
const LOCAL_HOURS_MAX = 50_000;
const localHours = new Map<string, number | undefined>();

/**
 * The instant at which a zone's clocks show the given local date and hour, or undefined when
 * that hour does not exist there (skipped by a spring-forward change). An hour that happens
 * twice (fall-back) answers its first occurrence.
 */
export function localHourToUtc(year: number, month: number, day: number, hour: number, timeZone: string): number | undefined {
  const key = `${timeZone} ${year} ${month} ${day} ${hour}`;
  if (localHours.has(key)) return localHours.get(key);
  const instant = computeLocalHourToUtc(year, month, day, hour, timeZone);
  if (localHours.size >= LOCAL_HOURS_MAX) localHours.clear();
  localHours.set(key, instant);
  return instant;
}

/** A date's own hours instead of its weekday's ('YYYY-MM-DD', local to the zone); [] is a day off. */
type DateOverrides = Array<{ date: string; hours: number[] }>;

const pad = (n: number) => String(n).padStart(2, '0');

/** The local date ('YYYY-MM-DD') of an instant in a zone. */
export function localDate(instant: number, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/**
 * Start times (ms since epoch, ascending) of the weekly hours that begin after `now` and no
 * later than `days` days after it; on a date with an override, its hours replace the weekday's
 * (docs/product.md#booking-and-payment).
 */
export function weeklySlots({
  weekly,
  timeZone,
  now,
  days,
  overrides = [],
}: {
  weekly: Weekly;
  timeZone: string;
  now: Date;
  days: number;
  overrides?: DateOverrides;
}): number[] {
  const from = now.getTime();
  const until = from + days * DAY;
  const hoursByWeekday = new Map(weekly.map((w) => [w.weekday, [...new Set(w.hours)].sort((a, b) => a - b)]));
  const hoursByDate = new Map(overrides.map((o) => [o.date, [...new Set(o.hours)].sort((a, b) => a - b)]));
  if (![...hoursByWeekday.values(), ...hoursByDate.values()].some((h) => h.length)) return [];
  const today = wallClock(from, timeZone);
  const slots: number[] = [];
  // local dates from today to one past the window's end, whatever the zone's offset
  for (let i = 0; i <= days + 1; i++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + i));
    const hours = hoursByDate.size
      ? (hoursByDate.get(date.toISOString().slice(0, 10)) ?? hoursByWeekday.get(date.getUTCDay()))
      : hoursByWeekday.get(date.getUTCDay());
    if (!hours) continue;
    for (const hour of hours) {
      const start = localHourToUtc(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), hour, timeZone);
      if (start !== undefined && start > from && start <= until) slots.push(start);
    }
  }
  return slots.sort((a, b) => a - b);
}

/** When the zone's next local day begins (ms): an answer that leaves out past dates changes then. */
export function nextLocalMidnight(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const next = new Date(Date.UTC(w.year, w.month - 1, w.day + 1));
  // a midnight skipped by a clock change: its first hour that exists
  for (let hour = 0; hour < 3; hour++) {
    const at = localHourToUtc(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), hour, timeZone);
    if (at !== undefined && at > instant) return at;
  }
  return instant + HOUR;
}

/**
 * Overrides as stored and answered: one per date (the last given wins), hours unique and sorted,
 * dates before `today` ('YYYY-MM-DD' in the trainer's zone) left out, soonest first.
 */
export function normaliseOverrides(overrides: DateOverrides, today: string): DateOverrides {
  const byDate = new Map<string, number[]>();
  for (const { date, hours } of overrides)
    byDate.set(
      date,
      [...new Set(hours)].sort((a, b) => a - b),
    );
  return [...byDate.entries()]
    .filter(([date]) => date >= today)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, hours]) => ({ date, hours }));
}

/** Each weekday once, in order, its hours unique and sorted; days without hours left out. */
export function normaliseWeekly(weekly: Weekly): Weekly {
  const byDay = new Map<number, Set<number>>();
  for (const { weekday, hours } of weekly) {
    const set = byDay.get(weekday) ?? new Set<number>();
    for (const h of hours) set.add(h);
    byDay.set(weekday, set);
  }
  return [...byDay.entries()]
    .filter(([, hours]) => hours.size > 0)
    .sort(([a], [b]) => a - b)
    .map(([weekday, hours]) => ({ weekday, hours: [...hours].sort((a, b) => a - b) }));
}

/**
 * The instant `weeks` weeks after `instant` at the same local weekday and time in the zone (across a
 * daylight-saving change the UTC time moves, the local one does not); undefined when that local hour
 * does not exist that day (skipped by a spring-forward change).
 */
export function sameLocalTimeWeeksLater(instant: number, weeks: number, timeZone: string): number | undefined {
  const w = wallClock(instant, timeZone);
  const day = new Date(Date.UTC(w.year, w.month - 1, w.day + 7 * weeks));
  const hour = localHourToUtc(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), w.hour, timeZone);
  return hour === undefined ? undefined : hour + w.minute * 60_000;
}
