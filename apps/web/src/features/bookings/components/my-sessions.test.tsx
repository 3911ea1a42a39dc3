import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKING_MSG, formatDateTimeIn, type TBooking } from '@spotter/shared';
import { callsOf, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { MySessions } from './my-sessions';

// The visitor is in Tokyo (UTC+9); the trainers are in Cairo (UTC+2).
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  process.env.TZ = zone;
});

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
    expect(items.map((item) => within(item).getAllByRole('link')[0].textContent)).toEqual(['Omar Farouk', 'Nadia Samir']);
    expect(items[1]).toHaveTextContent('$150');
    expect(items[1]).toHaveTextContent('Confirmed');
    expect(within(items[1]).getByRole('link', { name: 'Nadia Samir' })).toHaveAttribute('href', '/trainer/profile/t1');
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
    // the list said it could be cancelled; by the time of the click it no longer can
    const stale = { ...soon, canCancel: true };
    stubApi((url, init) => {
      if (url.pathname === '/api/bookings') return jsonResponse({ bookings: [stale] });
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

  it('offers Cancel only while the server says it can be cancelled, and says why not after the deadline', async () => {
    const HOUR = 60 * 60_000;
    const inTwoHours = new Date(Math.ceil(Date.now() / HOUR) * HOUR + 2 * HOUR);
    const inThreeDays = new Date(inTwoHours.getTime() + 70 * HOUR);
    const late = makeBooking({
      _id: 'b5',
      trainerFirstName: 'Omar',
      trainerLastName: 'Farouk',
      startsAt: inTwoHours.toISOString(),
      endsAt: new Date(inTwoHours.getTime() + HOUR).toISOString(),
      canCancel: false,
      isRefundable: false,
      cancellableUntil: null,
    });
    const deadline = new Date(inThreeDays.getTime() - 24 * HOUR).toISOString();
    const early = makeBooking({
      startsAt: inThreeDays.toISOString(),
      endsAt: new Date(inThreeDays.getTime() + HOUR).toISOString(),
      cancellableUntil: deadline,
      location: { kind: 'address', text: '12 Nile St, Zamalek' },
    });
    stubApi((url) => (url.pathname === '/api/bookings' ? jsonResponse({ bookings: [early, late] }) : undefined));
    renderWithProviders(<MySessions />);

    const list = await screen.findByRole('list', { name: 'Upcoming sessions' });
    const [omar, nadia] = within(list).getAllByRole('listitem');
    expect(within(omar).queryByRole('button', { name: /Cancel/ })).not.toBeInTheDocument();
    expect(omar).toHaveTextContent('Starts in less than 24 hours: not refundable');
    expect(within(nadia).getByRole('button', { name: /^Cancel the session with Nadia Samir/ })).toBeInTheDocument();
    expect(nadia).toHaveTextContent(`Free cancellation until ${formatDateTimeIn(deadline, 'Asia/Tokyo')} (Tokyo time)`);
    expect(nadia).toHaveTextContent('12 Nile St, Zamalek');
    expect(nadia).toHaveTextContent('(Tokyo time, GMT+9)');
    const google =
      within(nadia)
        .getByRole('link', { name: /Google Calendar/ })
        .getAttribute('href') ?? '';
    expect(google).toMatch(
      /^https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE&text=Training%20session%20with%20Nadia%20Samir&dates=\d{8}T\d{6}Z\/\d{8}T\d{6}Z&details=.+&location=12%20Nile%20St%2C%20Zamalek$/,
    );
    expect(within(nadia).getByRole('link', { name: /\.ics file/ })).toHaveAttribute('download', 'session.ics');
  });

  it("switches the times between the visitor's zone and each trainer's", async () => {
    stubApi((url) => (url.pathname === '/api/bookings' ? jsonResponse({ bookings: [upcoming] }) : undefined));
    const { user } = renderWithProviders(<MySessions />);

    const list = await screen.findByRole('list', { name: 'Upcoming sessions' });
    expect(list).toHaveTextContent('19:00–20:00 (Tokyo time, GMT+9)');
    expect(screen.getByText(/^Times in/)).toHaveTextContent('Times in Tokyo time, GMT+9');
    await user.click(screen.getByRole('button', { name: 'Show in Cairo time (the trainer’s)' }));
    expect(list).toHaveTextContent('12:00–13:00 (Cairo time, GMT+2)');
  });

  it('shows a session the trainer cancelled with the reason, a no-show as such, and never a lapsed hold', async () => {
    const byTrainer = makeBooking({
      _id: 'b6',
      status: 'refunded',
      canCancel: false,
      isRefundable: false,
      cancelledBy: 'trainer',
      cancelReason: 'I am ill, sorry',
    });
    const noShow = makeBooking({
      _id: 'b7',
      status: 'no-show',
      startsAt: '2020-06-01T10:00:00.000Z',
      endsAt: '2020-06-01T11:00:00.000Z',
      canCancel: false,
      isRefundable: false,
    });
    // a hold whose time ran out, still 'pending' in an answer given before it lapsed
    const lapsedPending = makeBooking({
      _id: 'b8',
      status: 'pending',
      trainerFirstName: 'Lapsed',
      holdExpiresAt: new Date(Date.now() - 60_000).toISOString(),
    });
    stubApi((url) =>
      url.pathname === '/api/bookings' ? jsonResponse({ bookings: [byTrainer, noShow, lapsedPending, lapsed] }) : undefined,
    );
    renderWithProviders(<MySessions />);

    const older = await screen.findByRole('list', { name: 'Past and cancelled sessions' });
    const [cancelled, missed] = within(older).getAllByRole('listitem');
    expect(cancelled).toHaveTextContent('Cancelled by Nadia Samir · Refunded in full');
    expect(cancelled).toHaveTextContent('Reason: “I am ill, sorry”');
    expect(missed).toHaveTextContent('No-show');
    expect(within(older).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByText(/Lapsed/)).not.toBeInTheDocument();
    expect(screen.getByText('Nothing booked.')).toBeInTheDocument();
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

  it('offers Move only on the sessions the server says can be moved', async () => {
    const movable = makeBooking({ canReschedule: true });
    const hold = makeBooking({
      _id: 'b9',
      status: 'pending',
      trainerFirstName: 'Omar',
      trainerLastName: 'Farouk',
      holdExpiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
    });
    stubApi((url) =>
      url.pathname === '/api/bookings'
        ? jsonResponse({ bookings: [movable, soon, hold, { ...past, canReschedule: false }] })
        : undefined,
    );
    renderWithProviders(<MySessions />);

    const list = await screen.findByRole('list', { name: 'Upcoming sessions' });
    const items = within(list).getAllByRole('listitem');
    const nadia = items.find((item) => item.textContent?.includes('Nadia Samir'))!;
    expect(within(nadia).getByRole('button', { name: /^Move the session with Nadia Samir/ })).toHaveTextContent('Move');
    expect(within(list).getAllByRole('button', { name: /^Move/ })).toHaveLength(1);
    expect(screen.queryAllByRole('button', { name: /^Move/ })).toHaveLength(1);
  });

  it('moves a session: the card shows the new time, the toast says so, and focus is back on Move', async () => {
    const movable = makeBooking({ canReschedule: true });
    // 10:00 Tuesday 5 March in Tokyo
    const newStart = '2030-03-05T01:00:00.000Z';
    const moved = { ...movable, startsAt: newStart, endsAt: '2030-03-05T02:00:00.000Z' };
    let isMoved = false;
    let body: unknown;
    stubApi((url, init) => {
      if (url.pathname === '/api/bookings') return jsonResponse({ bookings: [isMoved ? moved : movable] });
      if (url.pathname === '/api/trainers/t1/slots') return jsonResponse({ slots: [newStart], timeZone: 'Africa/Cairo' });
      if (url.pathname === '/api/bookings/b1/reschedule' && init.method === 'POST') {
        isMoved = true;
        body = JSON.parse(init.body as string);
        return jsonResponse({ message: 'Your session is moved to Tue 5 Mar, 03:00 (Cairo time, GMT+2)', booking: moved });
      }
      if (url.pathname === '/api/payments') return jsonResponse({});
      return undefined;
    });
    const { user } = renderWithProviders(<MySessions />);

    const list = await screen.findByRole('list', { name: 'Upcoming sessions' });
    expect(list).toHaveTextContent('19:00–20:00 (Tokyo time, GMT+9)');
    await user.click(within(list).getByRole('button', { name: /^Move the session with Nadia Samir/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Move your session with Nadia' });
    await user.click(await within(dialog).findByRole('radio', { name: '10:00' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move session' }));

    expect(await findToast('Your session is moved to Tue 5 Mar, 03:00 (Cairo time, GMT+2)')).toHaveAttribute(
      'data-type',
      'success',
    );
    expect(body).toEqual({ startsAt: newStart });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(list).toHaveTextContent('10:00–11:00 (Tokyo time, GMT+9)');
    await waitFor(() => expect(within(list).getByRole('button', { name: /^Move the session with Nadia Samir/ })).toHaveFocus());
  });

  it('a refused move (409, too late) is said in the dialog, which stays open as the list drops Move; the card keeps its time', async () => {
    const movable = makeBooking({ canReschedule: true });
    let isRefused = false;
    stubApi((url, init) => {
      if (url.pathname === '/api/bookings')
        return jsonResponse({
          bookings: [isRefused ? { ...movable, canReschedule: false, canCancel: false, isRefundable: false } : movable],
        });
      if (url.pathname === '/api/trainers/t1/slots')
        return jsonResponse({ slots: ['2030-03-05T01:00:00.000Z'], timeZone: 'Africa/Cairo' });
      if (url.pathname === '/api/bookings/b1/reschedule' && init.method === 'POST') {
        isRefused = true;
        return jsonResponse({ message: BOOKING_MSG.rescheduleTooLate, code: 'RESCHEDULE_TOO_LATE', statusCode: 409 }, 409);
      }
      if (url.pathname === '/api/payments') return jsonResponse({});
      return undefined;
    });
    const { user } = renderWithProviders(<MySessions />);

    const list = await screen.findByRole('list', { name: 'Upcoming sessions' });
    await user.click(within(list).getByRole('button', { name: /^Move the session with Nadia Samir/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Move your session with Nadia' });
    await user.click(await within(dialog).findByRole('radio', { name: '10:00' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move session' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(BOOKING_MSG.rescheduleTooLate);
    // the list is reloaded (it can no longer be moved nor cancelled) and the dialog is still there to read
    await waitFor(() => expect(list).toHaveTextContent('This session can no longer be cancelled here'));
    expect(screen.getByRole('dialog', { name: 'Move your session with Nadia' })).toHaveTextContent(BOOKING_MSG.rescheduleTooLate);
    expect(list).toHaveTextContent('19:00–20:00 (Tokyo time, GMT+9)');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(within(list).queryByRole('button', { name: /^Move/ })).not.toBeInTheDocument());
    expect(list).toHaveTextContent('19:00–20:00 (Tokyo time, GMT+9)');
  });

  it("lists a person's own unpaid hold with 'Continue to payment' and no calendar links", async () => {
    const hold = makeBooking({
      _id: 'b9',
      status: 'pending',
      holdExpiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
    });
    stubApi((url) => (url.pathname === '/api/bookings' ? jsonResponse({ bookings: [hold] }) : undefined));
    renderWithProviders(<MySessions />);

    const list = await screen.findByRole('list', { name: 'Upcoming sessions' });
    expect(list).toHaveTextContent('Awaiting payment');
    expect(list).toHaveTextContent('Not paid yet: held for you until');
    expect(within(list).getByRole('link', { name: 'Continue to payment' })).toHaveAttribute('href', '/trainer/profile/t1');
    expect(within(list).queryByRole('link', { name: /Google Calendar/ })).not.toBeInTheDocument();
  });
});
