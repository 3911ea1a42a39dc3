import { describe, expect, it } from 'vitest';
import { cancellationPolicy, formatDateTimeIn, zoneLabel } from '../src/booking-policy';

describe('booking policy words', () => {
  it('names the zone with its offset at that instant', () => {
    expect(zoneLabel('Africa/Cairo', new Date('2026-01-15T10:00:00Z'))).toBe('Cairo time, GMT+2');
    expect(zoneLabel('America/New_York', new Date('2026-07-15T10:00:00Z'))).toBe('New York time, GMT-4');
    expect(zoneLabel('Asia/Kolkata', new Date('2026-07-15T10:00:00Z'))).toBe('Kolkata time, GMT+5:30');
  });

  it('formats a time in the zone', () => {
    expect(formatDateTimeIn('2026-11-30T05:00:00Z', 'Africa/Cairo')).toBe('Mon 30 Nov, 07:00');
  });

  it('states the free-cancellation deadline, or that a session inside 24 hours is not refundable', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    expect(cancellationPolicy({ startsAt: '2026-12-01T05:00:00Z', now, timeZone: 'Africa/Cairo' })).toEqual({
      refundable: true,
      until: '2026-11-30T05:00:00.000Z',
      text: 'Free cancellation until Mon 30 Nov, 07:00 (Cairo time)',
    });
    expect(cancellationPolicy({ startsAt: '2026-11-28T11:59:00Z', now, timeZone: 'Africa/Cairo' })).toEqual({
      refundable: false,
      until: null,
      text: 'Starts in less than 24 hours: not refundable',
    });
  });
});
