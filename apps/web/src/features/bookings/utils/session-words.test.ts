import { describe, expect, it } from 'vitest';
import type { TBooking } from '@spotter/shared';
import { googleCalendarUrl, icsHref, placeOf, policyText } from './session-words';

const booking = (overrides: Partial<TBooking> = {}): TBooking => ({
  _id: 'b1',
  trainerId: 't1',
  userId: 'u1',
  startsAt: '2030-11-30T05:00:00.000Z',
  endsAt: '2030-11-30T06:00:00.000Z',
  status: 'confirmed',
  price: 150,
  currency: 'USD',
  holdExpiresAt: null,
  trainerFirstName: 'Nadia',
  trainerLastName: 'Samir',
  userFirstName: 'Mona',
  userLastName: 'Adel',
  canCancel: true,
  isRefundable: true,
  cancellableUntil: '2030-11-29T05:00:00.000Z',
  timeZone: 'Africa/Cairo',
  location: { kind: 'address', text: '12 Nile St; Zamalek, Cairo' },
  cancelledBy: null,
  cancelReason: null,
  canMarkNoShow: false,
  canReschedule: false,
  disputableUntil: null,
  policy: { version: 2, cancelHours: 24, disputeHours: 48, noShowHours: 168 },
  disputeStatus: null,
  paidFromBalance: false,
  seriesId: null,
  releasedAt: null,
  canRelease: false,
  ...overrides,
});

describe('session words', () => {
  it('states the deadline the server sent, in the zone asked for, and the rule once it has passed', () => {
    const now = new Date('2030-11-20T00:00:00.000Z');
    expect(policyText(booking(), 'Africa/Cairo', now)).toBe('Free cancellation until Fri 29 Nov, 07:00 (Cairo time)');
    expect(policyText(booking(), 'Asia/Tokyo', now)).toBe('Free cancellation until Fri 29 Nov, 14:00 (Tokyo time)');
    const late = new Date('2030-11-29T12:00:00.000Z');
    expect(policyText(booking({ cancellableUntil: null }), 'Africa/Cairo', late)).toBe(
      'Starts in less than 24 hours: not refundable',
    );
  });

  it('states a passed deadline with the hours of the policy frozen on the session', () => {
    const policy = { version: 2, cancelHours: 48, disputeHours: 48, noShowHours: 168 };
    const late = new Date('2030-11-28T12:00:00.000Z');
    expect(policyText(booking({ cancellableUntil: null, policy }), 'Africa/Cairo', late)).toBe(
      'Starts in less than 48 hours: not refundable',
    );
  });

  it('writes the place, with the meeting link only once paid for', () => {
    expect(placeOf(null, { showLink: true })).toBeNull();
    expect(placeOf({ kind: 'client', text: '' }, { showLink: true })).toEqual({ text: 'At your home' });
    const online = { kind: 'online' as const, text: 'https://meet.example.com/x' };
    expect(placeOf(online, { showLink: false })).toEqual({ text: 'Online meeting' });
    expect(placeOf(online, { showLink: true })).toEqual({ text: 'Online meeting', href: 'https://meet.example.com/x' });
  });

  it('links to Google Calendar and writes an .ics with the time, the policy and the place', () => {
    const url = new URL(googleCalendarUrl(booking()));
    expect(`${url.origin}${url.pathname}`).toBe('https://calendar.google.com/calendar/render');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('text')).toBe('Training session with Nadia Samir');
    expect(url.searchParams.get('dates')).toBe('20301130T050000Z/20301130T060000Z');
    expect(url.searchParams.get('location')).toBe('12 Nile St; Zamalek, Cairo');
    expect(url.searchParams.get('details')).toContain('(Cairo time)');

    const ics = decodeURIComponent(icsHref(booking(), new Date('2030-11-01T00:00:00.000Z')).split(',').slice(1).join(','));
    expect(ics.split('\r\n')).toEqual(
      expect.arrayContaining([
        'DTSTART:20301130T050000Z',
        'DTEND:20301130T060000Z',
        'SUMMARY:Training session with Nadia Samir',
        'LOCATION:12 Nile St\\; Zamalek\\, Cairo',
      ]),
    );
  });
});
