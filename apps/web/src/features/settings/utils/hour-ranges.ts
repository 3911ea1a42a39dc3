/**
 * A day's hours as a trainer edits them: ranges such as 09:00–12:00, 17:00–21:00. The server keeps
 * the start hours of one-hour slots (docs/product.md#booking-and-payment), so 09:00–12:00 is the
 * slots at 9, 10 and 11; `end` is exclusive and may be 24 (midnight at the end of the day).
 */
export type HourRange = { start: number; end: number };

/** '09:00', and '24:00' for the end of the day. */
export const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** '09:00–12:00, 17:00–21:00', or '' for no hours. */
export const rangesLabel = (ranges: HourRange[]) => ranges.map((r) => `${hourLabel(r.start)}–${hourLabel(r.end)}`).join(', ');

/** Slot start hours to the fewest ranges that cover them, earliest first. */
export function rangesFromHours(hours: readonly number[]): HourRange[] {
  const sorted = [...new Set(hours)].filter((h) => Number.isInteger(h) && h >= 0 && h <= 23).sort((a, b) => a - b);
  const ranges: HourRange[] = [];
  for (const hour of sorted) {
    const last = ranges.at(-1);
    if (last && last.end === hour) last.end = hour + 1;
    else ranges.push({ start: hour, end: hour + 1 });
  }
  return ranges;
}

/** Ranges to the slot start hours they cover, each once, sorted; an empty or backwards range covers none. */
export function hoursFromRanges(ranges: readonly HourRange[]): number[] {
  const hours = new Set<number>();
  for (const { start, end } of ranges) for (let h = Math.max(0, start); h < Math.min(24, end); h++) hours.add(h);
  return [...hours].sort((a, b) => a - b);
}

/** What is wrong with a range as entered, in words shown next to it; null when it is fine. */
export function rangeProblem(range: HourRange, others: readonly HourRange[]): string | null {
  if (range.end <= range.start) return 'Choose an end after the start';
  if (others.some((o) => o !== range && o.start < range.end && range.start < o.end)) return 'This range overlaps another';
  return null;
}

/** The range a new 'Add hours' gives a day: an hour after its last one, or 09:00–17:00 on an empty day; null when the day is full. */
export function nextRange(ranges: readonly HourRange[]): HourRange | null {
  const last = ranges.reduce<HourRange | null>((latest, r) => (!latest || r.end > latest.end ? r : latest), null);
  if (!last) return { start: 9, end: 17 };
  if (last.end >= 24) return null;
  return { start: last.end, end: Math.min(24, last.end + 1) };
}
