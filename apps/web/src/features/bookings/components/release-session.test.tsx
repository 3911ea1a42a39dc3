import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOOKING_MSG, type TBooking } from '@spotter/shared';
import { testTrainer } from '@/testing/accounts';
import { callsOf, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { MySessions } from './my-sessions';
import { WeekSchedule } from './week-schedule';

const HOUR = 60 * 60_000;
/** A whole hour some hours from now. */
const hoursFromNow = (n: number) => new Date(Math.floor(Date.now() / HOUR) * HOUR + n * HOUR).toISOString();

const makeBooking = (overrides: Partial<TBooking> = {}): TBooking => {
  const startsAt = overrides.startsAt ?? hoursFromNow(5);
  return {
    _id: 'b1',
    trainerId: 't1',
    userId: 'u1',
    startsAt,
    endsAt: new Date(Date.parse(startsAt) + HOUR).toISOString(),
    status: 'confirmed',
    price: 150,
    currency: 'USD',
    holdExpiresAt: null,
    trainerFirstName: 'Nadia',
    trainerLastName: 'Samir',
    userFirstName: 'Mona',
    userLastName: 'Adel',
    canCancel: false,
    isRefundable: false,
    cancellableUntil: null,
    timeZone: 'Africa/Cairo',
    location: null,
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
    canRelease: true,
    ...overrides,
  };
};

const TERMS =
  'Starts in less than 24 hours, so it cannot be refunded. We offer it to others; if somebody books it, you are refunded in full and we e-mail you. Until then it stays yours.';

beforeEach(() => {
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userType', 'user');
});
afterEach(() => localStorage.clear());

const cardOf = async () => within(await screen.findByRole('list', { name: 'Upcoming sessions' })).getAllByRole('listitem')[0];

describe('Releasing a late session', () => {
  it('releases after a confirmation that says what happens; the card then says it is offered to others', async () => {
    let released = false;
    const fetchMock = stubApi((url, init) => {
      if (url.pathname === '/api/bookings/b1/release' && init.method === 'POST') {
        released = true;
        return jsonResponse({
          message: BOOKING_MSG.released,
          booking: makeBooking({ releasedAt: new Date().toISOString(), canRelease: false }),
        });
      }
      if (url.pathname === '/api/bookings')
        return jsonResponse({
          bookings: [released ? makeBooking({ releasedAt: new Date().toISOString(), canRelease: false }) : makeBooking()],
        });
      if (url.pathname === '/api/payments') return jsonResponse({});
      if (url.pathname === '/api/balances') return jsonResponse({ balances: [] });
      return undefined;
    });
    const { user } = renderWithProviders(<MySessions />);

    const card = await cardOf();
    expect(card).not.toHaveTextContent('Offered to others');
    // no Cancel inside 24 hours: Release instead
    expect(within(card).queryByRole('button', { name: /^Cancel/ })).not.toBeInTheDocument();
    const trigger = within(card).getByRole('button', { name: /^Release the session with Nadia Samir on .* for resale$/ });
    expect(trigger).toHaveTextContent('Release for resale');

    // keyboard: the trigger opens the dialog, and 'Keep it' closes it without a call
    trigger.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Release this session for resale?' });
    expect(dialog).toHaveTextContent(TERMS);
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(callsOf(fetchMock)).not.toContain('POST /api/bookings/b1/release');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: /^Release the session/ }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Release for resale' }));
    expect(await findToast(BOOKING_MSG.released)).toHaveAttribute('data-type', 'success');
    expect(callsOf(fetchMock)).toContain('POST /api/bookings/b1/release');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const after = await cardOf();
    expect(after).toHaveTextContent('Offered to others: refunded in full if somebody books it');
    expect(within(after).queryByRole('button', { name: /^Release/ })).not.toBeInTheDocument();
    // the session stays the user's and paid
    expect(after).toHaveTextContent('Confirmed');
  });

  it('shows the server’s refusal (409) inside the dialog', async () => {
    stubApi((url, init) => {
      if (url.pathname === '/api/bookings/b1/release' && init.method === 'POST')
        return jsonResponse({ message: BOOKING_MSG.alreadyReleased, statusCode: 409, code: 'CONFLICT' }, 409);
      if (url.pathname === '/api/bookings') return jsonResponse({ bookings: [makeBooking()] });
      if (url.pathname === '/api/payments') return jsonResponse({});
      if (url.pathname === '/api/balances') return jsonResponse({ balances: [] });
      return undefined;
    });
    const { user } = renderWithProviders(<MySessions />);
    await user.click(within(await cardOf()).getByRole('button', { name: /^Release the session/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Release this session for resale?' });
    await user.click(within(dialog).getByRole('button', { name: 'Release for resale' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(BOOKING_MSG.alreadyReleased);
  });

  it('offers Release only while the server says so', async () => {
    stubApi((url) =>
      url.pathname === '/api/bookings'
        ? jsonResponse({ bookings: [makeBooking({ canRelease: false, startsAt: hoursFromNow(48), canCancel: true })] })
        : undefined,
    );
    renderWithProviders(<MySessions />);
    const card = await cardOf();
    expect(within(card).queryByRole('button', { name: /^Release/ })).not.toBeInTheDocument();
    expect(card).not.toHaveTextContent('Offered to others');
  });
});

describe('Sessions of a standing weekly series', () => {
  it('carry a “Weekly” badge on the user’s cards, and single sessions none', async () => {
    stubApi((url) =>
      url.pathname === '/api/bookings'
        ? jsonResponse({
            bookings: [
              makeBooking({ _id: 'b1', seriesId: 's1', startsAt: hoursFromNow(48), canRelease: false }),
              makeBooking({ _id: 'b2', seriesId: null, startsAt: hoursFromNow(72), canRelease: false, trainerFirstName: 'Omar' }),
            ],
          })
        : undefined,
    );
    renderWithProviders(<MySessions />);
    const [series, single] = within(await screen.findByRole('list', { name: 'Upcoming sessions' })).getAllByRole('listitem');
    expect(within(series).getByText('Weekly')).toBeInTheDocument();
    expect(series).toHaveTextContent('Weekly session, one of a series');
    expect(within(single).queryByText('Weekly')).not.toBeInTheDocument();
  });

  it('carry a “Weekly” badge on the trainer’s schedule rows', async () => {
    localStorage.setItem('token', `e30.${btoa(JSON.stringify({ id: 't1', role: 'trainer' }))}.sig`);
    localStorage.setItem('userType', 'trainer');
    stubApi((url) => {
      if (url.pathname === '/api/bookings')
        return jsonResponse({
          bookings: [
            makeBooking({
              _id: 'b1',
              seriesId: 's1',
              startsAt: hoursFromNow(26),
              userFirstName: 'Mariam',
              userLastName: 'Hassan',
            }),
            makeBooking({ _id: 'b2', startsAt: hoursFromNow(28), userFirstName: 'Ali', userLastName: 'Kamal' }),
          ],
        });
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
    renderWithProviders(<WeekSchedule />);
    const week = await screen.findByRole('list', { name: 'This week' });
    const rowOf = (name: string) => within(week).getByText(name).closest('li') as HTMLElement;
    expect(within(rowOf('Mariam Hassan')).getByText('Weekly')).toBeInTheDocument();
    expect(within(rowOf('Ali Kamal')).queryByText('Weekly')).not.toBeInTheDocument();
  });
});
