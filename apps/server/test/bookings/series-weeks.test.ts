import { describe, expect, it } from 'vitest';
import { sameLocalTimeWeeksLater } from '../../src/modules/bookings/slots';

// A standing weekly series keeps the trainer's local weekday and hour (docs/product.md#standing-weekly-sessions)
describe('the same local time a number of weeks later', () => {
  it('keeps 09:00 in Berlin across the spring change (the UTC time moves an hour)', () => {
    const monday = Date.parse('2027-03-22T08:00:00.000Z'); // 09:00 CET
    expect(new Date(sameLocalTimeWeeksLater(monday, 1, 'Europe/Berlin')!).toISOString()).toBe('2027-03-29T07:00:00.000Z'); // 09:00 CEST
    expect(new Date(sameLocalTimeWeeksLater(monday, 0, 'Europe/Berlin')!).toISOString()).toBe('2027-03-22T08:00:00.000Z');
  });

  it('answers nothing for an hour a spring-forward change skips, and plain weeks in UTC', () => {
    // 02:00 on Sunday 28 March 2027 does not exist in Berlin
    expect(sameLocalTimeWeeksLater(Date.parse('2027-03-21T01:00:00.000Z'), 1, 'Europe/Berlin')).toBeUndefined();
    expect(new Date(sameLocalTimeWeeksLater(Date.parse('2026-12-01T10:00:00.000Z'), 12, 'UTC')!).toISOString()).toBe(
      '2027-02-23T10:00:00.000Z',
    );
  });
});
