import { describe, expect, it } from 'vitest';
import { formatMoney } from './money';

describe('formatMoney', () => {
  it('keeps whole dollars whole and shows cents when there are some', () => {
    expect(formatMoney(135)).toBe('$135');
    expect(formatMoney(1200)).toBe('$1,200');
    expect(formatMoney(135.5)).toBe('$135.50');
    expect(formatMoney(112.5, 'USD')).toBe('$112.50');
  });

  it('writes another currency with its code rather than as dollars', () => {
    expect(formatMoney(90, 'EUR')).toBe('90.00 EUR');
  });
});
