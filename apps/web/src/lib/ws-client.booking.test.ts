import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { TBooking } from '@spotter/shared';
import { bookingKeys } from './api/bookings';
import { paymentKeys } from './api/payments';
import type { ChatViewer } from './api/chats';
import { bookingToast, receiveBooking } from './ws-client';

const booking = (overrides: Partial<TBooking> = {}): TBooking => ({
  _id: 'b1',
  trainerId: 't1',
  userId: 'u1',
  // Mon 30 Nov 2026, 07:00 in Cairo (GMT+2)
  startsAt: '2026-11-30T05:00:00.000Z',
  endsAt: '2026-11-30T06:00:00.000Z',
  status: 'confirmed',
  price: 150,
  currency: 'USD',
  holdExpiresAt: null,
  trainerFirstName: 'Nadia',
  trainerLastName: 'Samir',
  userFirstName: 'Mariam',
  userLastName: 'Hassan',
  canCancel: true,
  isRefundable: true,
  cancellableUntil: null,
  timeZone: 'Africa/Cairo',
  location: null,
  cancelledBy: null,
  cancelReason: null,
  paidFromBalance: false,
  seriesId: null,
  releasedAt: null,
  canRelease: false,
  canMarkNoShow: false,
  canReschedule: false,
  disputableUntil: null,
  policy: { version: 2, cancelHours: 24, disputeHours: 48, noShowHours: 168 },
  disputeStatus: null,
  ...overrides,
});

const trainer: ChatViewer = { id: 't1', role: 'trainer' };
const user: ChatViewer = { id: 'u1', role: 'user' };

describe('bookingToast', () => {
  it('tells the trainer of a new booking and of the client’s cancellation', () => {
    expect(bookingToast(trainer, booking(), booking({ status: 'pending' }))).toBe('New booking: Mariam H., Mon 30 Nov, 07:00');
    expect(bookingToast(trainer, booking(), undefined)).toBe('New booking: Mariam H., Mon 30 Nov, 07:00');
    expect(bookingToast(trainer, booking({ status: 'refunded', cancelledBy: 'user' }), booking())).toBe(
      'Mariam cancelled Mon 07:00: refunded in full',
    );
  });

  it('tells the client of the trainer’s cancellation, a move and a no-show', () => {
    expect(bookingToast(user, booking({ status: 'refunded', cancelledBy: 'trainer' }), booking())).toBe(
      'Nadia cancelled Mon 07:00: refunded in full',
    );
    expect(bookingToast(trainer, booking(), booking({ startsAt: '2026-11-29T05:00:00.000Z' }))).toBe(
      'Moved: Mariam H., now Mon 30 Nov, 07:00',
    );
    // a time from the waitlist, held for the user
    expect(bookingToast(user, booking({ status: 'pending' }), undefined)).toBe(
      'A time opened up: Nadia S., Mon 30 Nov, 07:00. It is held for you for 30 minutes',
    );
    expect(bookingToast(user, booking({ status: 'no-show' }), booking())).toBe('Nadia marked Mon 07:00 a no-show');
  });

  it('says nothing of the viewer’s own doing, or of what the screen already shows', () => {
    expect(bookingToast(trainer, booking({ status: 'refunded', cancelledBy: 'trainer' }), booking())).toBeNull();
    expect(bookingToast(user, booking(), booking({ status: 'pending' }))).toBeNull();
    expect(bookingToast(trainer, booking(), booking())).toBeNull();
    expect(bookingToast(trainer, booking({ status: 'no-show' }), booking())).toBeNull();
    // the user moved it: their screen said so
    expect(bookingToast(user, booking(), booking({ startsAt: '2026-11-29T05:00:00.000Z' }))).toBeNull();
    expect(bookingToast(user, booking({ status: 'pending' }), booking({ status: 'pending' }))).toBeNull();
    expect(bookingToast(trainer, booking({ status: 'pending' }), undefined)).toBeNull();
  });
});

describe('receiveBooking', () => {
  it('marks every bookings and payments query stale, and ignores a booking of someone else', () => {
    const queryClient = new QueryClient();
    const keys = [bookingKeys.list('tok'), bookingKeys.slots('t1'), paymentKeys.all];
    for (const key of keys) queryClient.setQueryData(key, []);

    receiveBooking(queryClient, { id: 'u2', role: 'user' }, booking());
    expect(keys.map((key) => queryClient.getQueryState(key)?.isInvalidated)).toEqual([false, false, false]);

    receiveBooking(queryClient, user, booking({ status: 'refunded', cancelledBy: 'trainer' }));
    expect(keys.map((key) => queryClient.getQueryState(key)?.isInvalidated)).toEqual([true, true, true]);
  });
});
