import { describe, expect, it } from 'vitest';
import { formatCalendarDate, formatCount, formatDate, formatPrice } from './format';

describe('dates', () => {
  it('writes a moment and a calendar day in the one app-wide format', () => {
    expect(formatDate('2025-01-05T12:00:00.000Z')).toBe('5 Jan 2025');
    expect(formatCalendarDate('2025-09-18')).toBe('18 Sept 2025');
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
