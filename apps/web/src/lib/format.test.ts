import { describe, expect, it } from 'vitest';
import {
  browserTimeZone,
  formatCalendarDate,
  formatCount,
  formatDate,
  formatDateTime,
  formatDayHeading,
  formatPrice,
  formatTime,
  formatWeekdayTime,
  localDayKey,
} from './format';

describe('dates', () => {
  it('writes a moment and a calendar day in the one app-wide format', () => {
    expect(formatDate('2025-01-05T12:00:00.000Z')).toBe('5 Jan 2025');
    expect(formatCalendarDate('2025-09-18')).toBe('18 Sept 2025');
  });

  it("writes a session time in the viewer's zone, or in the zone asked for (the trainer's)", () => {
    // the tests run in UTC; 22:30Z on Monday 6 January is 00:30 Tuesday in Cairo
    const at = '2025-01-06T22:30:00.000Z';
    expect(browserTimeZone()).toBe('UTC');
    expect(formatTime(at)).toBe('22:30');
    expect(formatTime(at, 'Africa/Cairo')).toBe('00:30');
    expect(localDayKey(at)).toBe('2025-01-06');
    expect(localDayKey(at, 'Africa/Cairo')).toBe('2025-01-07');
    expect(formatDayHeading(at, 'Africa/Cairo')).toBe('Tuesday 7 January');
    expect(formatDateTime(at, 'Africa/Cairo')).toBe('Tue, 7 Jan 2025, 00:30');
    expect(formatWeekdayTime(at)).toBe('Mon 22:30');
    expect(formatWeekdayTime(at, 'Africa/Cairo')).toBe('Tue 00:30');
  });
});

describe('numbers and prices', () => {
  // what the app wrote through Intl before whole numbers skipped it (lib/format.ts)
  const intlCount = new Intl.NumberFormat('en-US');
  const intlDollars = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  });

  it('writes every number exactly as Intl does, with or without it', () => {
    const values = [
      ...Array.from({ length: 2100 }, (_, i) => i - 50),
      ...Array.from({ length: 16 }, (_, i) => 10 ** i),
      ...Array.from({ length: 16 }, (_, i) => -(10 ** i) + 1),
      ...Array.from({ length: 500 }, (_, i) => Math.floor(Math.sin(i + 1) * 10 ** ((i % 15) + 1))),
      999_999_999_999_999,
      1e15,
      -1e15,
      Number.MAX_SAFE_INTEGER,
      2 ** 60,
      -0,
      0.5,
      1.5,
      2.5,
      -2.5,
      1234.4999,
      99.99,
      NaN,
      Infinity,
      -Infinity,
    ];
    for (const n of values) {
      expect(formatCount(n), String(n)).toBe(intlCount.format(n));
      expect(formatPrice(n), String(n)).toBe(intlDollars.format(n));
    }
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatPrice(-1200)).toBe('-$1,200');
  });

  it('writes cents when asked', () => {
    expect(formatPrice(9.99, 2)).toBe('$9.99');
    expect(formatPrice(1200, 2)).toBe('$1,200.00');
  });
});
