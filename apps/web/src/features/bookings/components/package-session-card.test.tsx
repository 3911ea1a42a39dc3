import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_MSG, type TBooking } from '@spotter/shared';
import { stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { testTrainer } from '@/testing/accounts';
import { MySessions } from './my-sessions';
import { WeekSchedule } from './week-schedule';

const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  process.env.TZ = zone;
});

const fromPackage = (overrides: Partial<TBooking> = {}): TBooking => ({
  _id: 'b1',
  trainerId: 't1',
  userId: 'u1',
  startsAt: '2030-03-04T10:00:00.000Z',
  endsAt: '2030-03-04T11:00:00.000Z',
  status: 'confirmed',
  price: 36.5,
  currency: 'USD',
  holdExpiresAt: null,
  trainerFirstName: 'Nadia',
  trainerLastName: 'Samir',
  userFirstName: 'Mona',
  userLastName: 'Adel',
  canCancel: true,
  isRefundable: true,
  cancellableUntil: '2030-03-03T10:00:00.000Z',
  timeZone: 'Africa/Cairo',
  location: null,
  cancelledBy: null,
  cancelReason: null,
  canMarkNoShow: false,
  canReschedule: true,
  disputableUntil: null,
  policy: { version: 2, cancelHours: 24, disputeHours: 48, noShowHours: 168 },
  disputeStatus: null,
  paidFromBalance: true,
  seriesId: null,
  releasedAt: null,
  canRelease: false,
  ...overrides,
});

describe('A session paid from a package', () => {
  it('says on the card and in the cancel dialog that it goes back to the package balance, not to the card', async () => {
    let isCancelled = false;
    stubApi((url, init) => {
      if (url.pathname === '/api/bookings')
        return jsonResponse({
          bookings: [isCancelled ? fromPackage({ status: 'cancelled', canCancel: false, isRefundable: false }) : fromPackage()],
        });
      if (url.pathname === '/api/bookings/b1/cancel' && init.method === 'POST') {
        isCancelled = true;
        return jsonResponse({ message: PACKAGE_MSG.returnedToBalance, booking: fromPackage({ status: 'cancelled' }) });
      }
      return undefined;
    });
    const { user } = renderWithProviders(<MySessions />);

    const [card] = within(await screen.findByRole('list', { name: 'Upcoming sessions' })).getAllByRole('listitem');
    expect(card).toHaveTextContent('$36.50 from your package');
    expect(card).toHaveTextContent(/Free cancellation until .*: the session goes back to your package balance/);

    await user.click(within(card).getByRole('button', { name: /^Cancel the session with Nadia Samir/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this session?' });
    expect(dialog).toHaveTextContent(
      'The session goes back to your package balance ($36.50), to book another time; nothing is refunded to your card or PayPal.',
    );
    expect(dialog).not.toHaveTextContent('back in full');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel session' }));

    expect(await findToast(PACKAGE_MSG.returnedToBalance)).toHaveAttribute('data-type', 'success');
    const older = await screen.findByRole('list', { name: 'Past and cancelled sessions' });
    expect(older).toHaveTextContent('Cancelled by you · Back in your package balance');
    expect(older).not.toHaveTextContent('Refunded in full');
  });

  it('says a trainer’s cancellation put the session back in the package balance', async () => {
    stubApi((url) =>
      url.pathname === '/api/bookings'
        ? jsonResponse({
            bookings: [fromPackage({ status: 'refunded', cancelledBy: 'trainer', canCancel: false, cancelReason: 'Ill' })],
          })
        : undefined,
    );
    renderWithProviders(<MySessions />);
    const older = await screen.findByRole('list', { name: 'Past and cancelled sessions' });
    expect(older).toHaveTextContent('Cancelled by Nadia Samir · Back in your package balance');
  });
});

describe('A session paid from a package, on the trainer’s schedule', () => {
  const HOUR = 60 * 60_000;
  const soon = new Date(Math.floor(Date.now() / HOUR) * HOUR + 26 * HOUR).toISOString();
  const session = fromPackage({
    startsAt: soon,
    endsAt: new Date(Date.parse(soon) + HOUR).toISOString(),
    userFirstName: 'Mariam',
    userLastName: 'Hassan',
  });

  it('says a cancellation puts the session back in the client’s package balance, and the history says so', async () => {
    localStorage.setItem('token', `e30.${btoa(JSON.stringify({ id: 't1', role: 'trainer' }))}.sig`);
    localStorage.setItem('userType', 'trainer');
    let bookings = [session];
    stubApi((url, init) => {
      if (url.pathname === '/api/bookings/b1/cancel' && init.method === 'POST') {
        bookings = [{ ...session, status: 'cancelled', canCancel: false, cancelledBy: 'trainer', cancelReason: 'I am ill' }];
        return jsonResponse({ message: 'The session is cancelled', booking: bookings[0] });
      }
      if (url.pathname === '/api/bookings') return jsonResponse({ bookings });
      if (url.pathname === '/api/trainer/availability')
        return jsonResponse({
          timeZone: 'Africa/Cairo',
          weekly: [{ weekday: 1, hours: [9] }],
          minNoticeHours: 12,
          bufferMinutes: 0,
          overrides: [],
          location: null,
        });
      if (url.pathname === '/api/trainerData') return jsonResponse({ trainerData: testTrainer() });
      return undefined;
    });
    const { user } = renderWithProviders(<WeekSchedule />);

    const week = await screen.findByRole('list', { name: 'This week' });
    const row = within(week).getByText('Mariam Hassan').closest('li') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: /^Cancel the session/ }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel this session?' });
    expect(dialog).toHaveTextContent('The session goes back to the client’s package balance.');
    expect(dialog).not.toHaveTextContent('refunded in full');
    await user.type(within(dialog).getByLabelText('Reason for Mariam'), 'I am ill');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel session' }));
    expect(await screen.findByRole('list', { name: 'History' })).toHaveTextContent(
      'Cancelled by you: “I am ill”. Back in the client’s package balance.',
    );
  });
});
