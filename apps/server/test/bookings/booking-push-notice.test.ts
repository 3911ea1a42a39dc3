import { describe, expect, it } from 'vitest';
import { ZPushPayload } from '@spotter/shared';
import { bookingPushNotice } from '../../src/modules/bookings/booking-push-notice';

// What a booking's Web Push says (docs/product.md#notifications): the kind a device can turn off, a
// short title and the time in the session's own time zone, and where a tap goes
describe('a booking notice', () => {
  const base = {
    bookingId: 'b1',
    otherName: 'Karim',
    startsAt: new Date('2026-12-10T09:00:00Z'),
    timeZone: 'Asia/Dubai',
    trainerId: 't1',
  };
  it.each([
    ['confirmed', 'user', 'booking', 'Session with Karim booked', 'Thu 10 Dec, 13:00', '/user/profile'],
    ['confirmed', 'trainer', 'booking', 'Karim booked a session', 'Thu 10 Dec, 13:00', '/trainer/profile'],
    ['moved', 'user', 'booking', 'Session with Karim moved', 'Now Thu 10 Dec, 13:00', '/user/profile'],
    ['cancelled', 'trainer', 'booking', 'Session with Karim cancelled', 'It was Thu 10 Dec, 13:00', '/trainer/profile'],
    ['reminder', 'user', 'reminder', 'Session with Karim soon', 'Starts Thu 10 Dec, 13:00', '/user/profile'],
    ['offered', 'user', 'waitlist', 'A time with Karim opened up', undefined, '/trainer/profile/t1'],
  ] as const)('%s to the %s', (kind, to, pushKind, title, body, url) => {
    const notice = bookingPushNotice({ ...base, kind, to });
    expect(ZPushPayload.parse(notice)).toEqual(notice);
    expect(notice).toMatchObject({ kind: pushKind, title, url, tag: 'booking-b1' });
    if (body) expect(notice.body).toBe(body);
    else expect(notice.body).toContain('Thu 10 Dec, 13:00');
  });
});
