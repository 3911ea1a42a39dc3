import { describe, expect, it } from 'vitest';
import { hoursFromRanges, nextRange, rangeProblem, rangesFromHours, rangesLabel } from './hour-ranges';

describe('hour ranges', () => {
  it('turns slot start hours into the fewest ranges and back', () => {
    const ranges = rangesFromHours([17, 9, 10, 11, 18, 19, 20, 23]);
    expect(rangesLabel(ranges)).toBe('09:00–12:00, 17:00–21:00, 23:00–24:00');
    expect(hoursFromRanges(ranges)).toEqual([9, 10, 11, 17, 18, 19, 20, 23]);
    expect(rangesFromHours([])).toEqual([]);
  });

  it('merges overlapping ranges into each hour once and covers nothing for a backwards range', () => {
    expect(
      hoursFromRanges([
        { start: 9, end: 12 },
        { start: 10, end: 13 },
        { start: 20, end: 18 },
      ]),
    ).toEqual([9, 10, 11, 12]);
  });

  it('says what is wrong with a range', () => {
    const a = { start: 9, end: 12 };
    const b = { start: 11, end: 14 };
    expect(rangeProblem({ start: 9, end: 9 }, [])).toBe('Choose an end after the start');
    expect(rangeProblem(a, [a, b])).toBe('This range overlaps another');
    expect(rangeProblem(a, [a, { start: 12, end: 13 }])).toBeNull();
  });

  it('adds 09:00–17:00 to an empty day, the next hour after the last range, and nothing to a full day', () => {
    expect(nextRange([])).toEqual({ start: 9, end: 17 });
    expect(nextRange([{ start: 9, end: 17 }])).toEqual({ start: 17, end: 18 });
    expect(nextRange([{ start: 20, end: 24 }])).toBeNull();
  });
});
