import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TBooking } from '@spotter/shared';
import { callsOf, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { MySessions } from './my-sessions';

const makeBooking = (overrides: Partial<TBooking> = {}): TBooking => ({
  _id: 'b1',
  trainerId: 't1',
  userId: 'u1',
  startsAt: '2030-03-04T10:00:00.000Z',
  endsAt: '2030-03-04T11:00:00.000Z',
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
  cancellableUntil: null,
  timeZone: 'Africa/Cairo',
  location: null,
  cancelledBy: null,
  cancelReason: null,
  canMarkNoShow: false,
  ...overrides,
});

const upcoming = makeBooking();
const soon = makeBooking({
  _id: 'b2',
  trainerFirstName: 'Omar',
  trainerLastName: 'Farouk',
  startsAt: '2030-03-01T08:00:00.000Z',
  endsAt: '2030-03-01T09:00:00.000Z',
  isRefundable: false,
  canCancel: false,
});
const past = makeBooking({
  _id: 'b3',
  startsAt: '2020-05-01T10:00:00.000Z',
  endsAt: '2020-05-01T11:00:00.000Z',
  status: 'completed',
  canCancel: false,
  isRefundable: false,
});
const lapsed = makeBooking({ _id: 'b4', status: 'expired', trainerFirstName: 'Lapsed', canCancel: false, isRefundable: false });

describe('MySessions', () => {
  it('lists upcoming sessions soonest first and past ones below, leaving out lapsed holds', async () => {
    stubApi((url) => (url.pathname === '/api/bookings' ? jsonResponse({ bookings: [upcoming, past, lapsed, soon] }) : undefined));
    renderWithProviders(<MySessions />);

    const list = await screen.findByRole('list', { name: 'Upcoming sessions' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('link').textContent)).toEqual(['Omar Farouk', 'Nadia Samir']);
    expect(items[1]).toHaveTextContent('$150');
    expect(items[1]).toHaveTextContent('Confirmed');
    expect(within(items[1]).getByRole('link')).toHaveAttribute('href', '/trainer/profile/t1');
    const older = screen.getByRole('list', { name: 'Past and cancelled sessions' });
    expect(within(older).getAllByRole('listitem')).toHaveLength(1);
    expect(older).toHaveTextContent('Completed');
    expect(within(older).queryByRole('button', { name: /Cancel/ })).not.toBeInTheDocument();
    expect(screen.queryByText('Lapsed Samir')).not.toBeInTheDocument();
  });

  it('cancels after confirmation: the refund message shows and the session moves to past as Refunded', async () => {
    let isCancelled = false;
    const fetchMock = stubApi((url, init) => {
      if (url.pathname === '/api/bookings')
        return jsonResponse({ bookings: [isCancelled ? { ...upcoming, status: 'refunded', canCancel: false } : upcoming] });
      if (url.pathname === '/api/bookings/b1/cancel' && init.method === 'POST') {
        isCancelled = true;
        return jsonResponse({
          message: 'Your booking is cancelled and the payment refunded',
          booking: { ...upcoming, status: 'refunded' },
        });
      }
      if (url.pathname === '/api/payments') return jsonResponse({});
      return undefined;
    });
    const { user } = renderWithProviders(<MySessions />);

    await user.click(await screen.findByRole('button', { name: /^Cancel the session with Nadia Samir/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this session?' });
    expect(dialog).toHaveTextContent('You get your $150 back in full.');
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(callsOf(fetchMock)).not.toContain('POST /api/bookings/b1/cancel');

    await user.click(screen.getByRole('button', { name: /^Cancel the session with Nadia Samir/ }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel session' }));

    expect(await findToast('Your booking is cancelled and the payment refunded')).toHaveAttribute('data-type', 'success');
    const older = await screen.findByRole('list', { name: 'Past and cancelled sessions' });
    expect(older).toHaveTextContent('Refunded');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Nothing booked.')).toBeInTheDocument();
  });

  it("shows the server's refusal (409) inside the dialog", async () => {
    stubApi((url, init) => {
      if (url.pathname === '/api/bookings') return jsonResponse({ bookings: [soon] });
      if (url.pathname === '/api/bookings/b2/cancel' && init.method === 'POST') {
        return jsonResponse({ message: 'Sessions can be cancelled only up to 24 hours before they start', statusCode: 409 }, 409);
      }
      return undefined;
    });
    const { user } = renderWithProviders(<MySessions />);

    await user.click(await screen.findByRole('button', { name: /^Cancel the session with Omar Farouk/ }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('This session starts within 24 hours');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel session' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Sessions can be cancelled only up to 24 hours before they start',
    );
  });

  it('offers to find a trainer when there are no sessions, and Retry after a failure', async () => {
    let calls = 0;
    stubApi((url) =>
      url.pathname === '/api/bookings'
        ? ++calls === 1
          ? jsonResponse({ message: 'Service unavailable', statusCode: 503 }, 503)
          : jsonResponse({ bookings: [] })
        : undefined,
    );
    const { user } = renderWithProviders(<MySessions />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Service unavailable');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No sessions yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Find a trainer' })).toHaveAttribute('href', '/trainers');
  });
});
