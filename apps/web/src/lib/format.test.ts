import { describe, expect, it } from 'vitest';
import { formatCalendarDate, formatDate } from './format';

describe('dates', () => {
  it('writes a moment and a calendar day in the one app-wide format', () => {
    expect(formatDate('2025-01-05T12:00:00.000Z')).toBe('5 Jan 2025');
    expect(formatCalendarDate('2025-09-18')).toBe('18 Sept 2025');
  });
});
