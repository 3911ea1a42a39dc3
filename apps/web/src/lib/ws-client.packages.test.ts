import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { TBooking } from '@spotter/shared';
import { balanceKeys } from './api/packages';
import { bookingToast, receiveBooking } from './ws-client';

const booking = (overrides: Partial<TBooking> = {}): TBooking => ({
  _id: 'b1',
  trainerId: 't1',
  userId: 'u1',
  // Mon 30 Nov 2026, 07:00 in Cairo (GMT+2)
  startsAt: '2026-11-30T05:00:00.000Z',
  endsAt: '2026-11-30T06:00:00.000Z',
  status: 'confirmed',
  price: 36,
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
  paidFromBalance: true,
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

describe('A booking push of a session paid from a package', () => {
  it('says the cancelled session is back in the package balance, not that it was not refunded', () => {
    expect(bookingToast({ id: 'u1', role: 'user' }, booking({ status: 'cancelled', cancelledBy: 'trainer' }), booking())).toBe(
      'Nadia cancelled Mon 07:00: back in your package balance',
    );
    expect(bookingToast({ id: 't1', role: 'trainer' }, booking({ status: 'cancelled', cancelledBy: 'user' }), booking())).toBe(
      'Mariam cancelled Mon 07:00: back in their package balance',
    );
  });

  it('marks the package balances stale', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(balanceKeys.list('tok'), []);
    receiveBooking(queryClient, { id: 'u1', role: 'user' }, booking({ status: 'cancelled', cancelledBy: 'trainer' }));
    expect(queryClient.getQueryState(balanceKeys.list('tok'))?.isInvalidated).toBe(true);
  });
});
