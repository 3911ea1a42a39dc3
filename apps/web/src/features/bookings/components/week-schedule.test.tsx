import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTimeIn, zoneCity, zoneLabel, type TAvailability, type TBooking } from '@spotter/shared';
import { testTrainer } from '@/testing/accounts';
import { callsOf, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { useChatSocket } from '@/lib/ws-client';
import { WeekSchedule } from './week-schedule';

const HOUR = 60 * 60_000;
const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
/** A trainer's zone no test machine is in (GMT+14), so the switch between the two zones always shows. */
const FAR_ZONE = 'Pacific/Kiritimati';
/** A whole hour some hours from now, so the session falls in this week's list. */
const hoursFromNow = (n: number) => new Date(Math.floor(Date.now() / HOUR) * HOUR + n * HOUR).toISOString();

const makeBooking = (overrides: Partial<TBooking> = {}): TBooking => {
  const startsAt = overrides.startsAt ?? hoursFromNow(26);
  return {
    _id: 'b1',
    trainerId: 't1',
    userId: 'u1',
    startsAt,
    endsAt: new Date(Date.parse(startsAt) + HOUR).toISOString(),
    status: 'confirmed',
    price: 250,
    currency: 'USD',
    holdExpiresAt: null,
    trainerFirstName: 'Omar',
    trainerLastName: 'Farouk',
    userFirstName: 'Mariam',
    userLastName: 'Hassan',
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
  };
};

const availability = (overrides: Partial<TAvailability> = {}): TAvailability => ({
  timeZone: 'Africa/Cairo',
  weekly: [{ weekday: 1, hours: [9] }],
  minNoticeHours: 12,
  bufferMinutes: 0,
  overrides: [],
  location: null,
  ...overrides,
});

const tokenFor = (id: string, role: 'user' | 'trainer') => `e30.${btoa(JSON.stringify({ id, role }))}.sig`;
function logInAsTrainer() {
  localStorage.setItem('token', tokenFor('t1', 'trainer'));
  localStorage.setItem('userType', 'trainer');
}

type Server = {
  bookings: TBooking[];
  availability?: TAvailability;
  picture?: string;
  description?: string;
  /** The payout address GET /api/trainer/payout answers; undefined: a server without that route (404). */
  payoutEmail?: string | null;
};

/** The trainer's side of the API; `routes` answer first (an action under test). */
function serve(state: Server, ...routes: Parameters<typeof stubApi>) {
  return stubApi(...routes, (url) => {
    if (url.pathname === '/api/bookings') return jsonResponse({ bookings: state.bookings });
    if (url.pathname === '/api/trainer/availability') return jsonResponse(state.availability ?? availability());
    if (url.pathname === '/api/trainer/payout' && state.payoutEmail !== undefined)
      return jsonResponse({ email: state.payoutEmail });
    if (url.pathname === '/api/trainerData')
      return jsonResponse({
        trainerData: testTrainer({ picture: state.picture ?? '', description: state.description ?? '' }),
      });
    return undefined;
  });
}

const rowOf = async (name: string) => {
  const week = await screen.findByRole('list', { name: 'This week' });
  return within(week).getByText(name).closest('li') as HTMLElement;
};

afterEach(() => localStorage.clear());

describe('WeekSchedule', () => {
  it('lists the week in the browser’s zone or the trainer’s, named, with Message and Cancel on a session and no "Free"', async () => {
    logInAsTrainer();
    const booking = makeBooking({ timeZone: FAR_ZONE });
    serve({ bookings: [booking], availability: availability({ timeZone: FAR_ZONE }) });
    const { user } = renderWithProviders(<WeekSchedule />);

    const time = (zone: string) =>
      new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
        new Date(booking.startsAt),
      );
    let row = await rowOf('Mariam Hassan');
    expect(screen.getByText(/^Times in/)).toHaveTextContent(`Times in ${zoneLabel(LOCAL_ZONE, new Date())}.`);
    expect(row).toHaveTextContent(`${time(LOCAL_ZONE)}–`);
    await user.click(screen.getByRole('button', { name: 'Show in Kiritimati time' }));
    expect(screen.getByText(/^Times in/)).toHaveTextContent('Times in Kiritimati time, GMT+14.');
    row = await rowOf('Mariam Hassan');
    expect(row).toHaveTextContent(`${time(FAR_ZONE)}–`);
    expect(screen.getByRole('button', { name: `Show in ${zoneCity(LOCAL_ZONE)} time` })).toBeInTheDocument();
    expect(screen.getByText('1 session this week.')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Message Mariam' })).toHaveAttribute(
      'href',
      '/trainer/chat?with=u1&name=Mariam',
    );
    expect(within(row).getByRole('button', { name: /^Cancel the session with Mariam Hassan/ })).toHaveTextContent('Cancel');
    expect(within(row).queryByRole('button', { name: /Mark no-show/ })).not.toBeInTheDocument();
    expect(screen.queryByText('Free')).not.toBeInTheDocument();
    expect(screen.queryByText('Not bookable yet')).not.toBeInTheDocument();
  });

  it('cancels with the reason the client sees, saying the client is refunded in full; the row moves to the history', async () => {
    logInAsTrainer();
    const state: Server = { bookings: [makeBooking()] };
    let sent: unknown;
    const fetchMock = serve(state, (url, init) => {
      if (url.pathname !== '/api/bookings/b1/cancel' || init.method !== 'POST') return undefined;
      sent = JSON.parse(init.body as string);
      state.bookings = [makeBooking({ status: 'refunded', canCancel: false, cancelledBy: 'trainer', cancelReason: 'I am ill' })];
      return jsonResponse({ message: 'The session is cancelled and the client refunded in full', booking: state.bookings[0] });
    });
    const { user } = renderWithProviders(<WeekSchedule />);

    const row = await rowOf('Mariam Hassan');
    await user.click(within(row).getByRole('button', { name: /^Cancel the session/ }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel this session?' });
    expect(dialog).toHaveTextContent('The client is refunded in full ($250).');
    await user.type(within(dialog).getByLabelText('Reason for Mariam'), '  I am ill ');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel session' }));

    expect(await findToast('The session is cancelled and the client refunded in full')).toHaveAttribute('data-type', 'success');
    expect(sent).toEqual({ reason: 'I am ill' });
    const history = await screen.findByRole('list', { name: 'History' });
    expect(history).toHaveTextContent('Refunded');
    expect(history).toHaveTextContent('Cancelled by you: “I am ill”. Refunded in full.');
    expect(screen.getByText('No sessions booked this week yet.')).toBeInTheDocument();
    expect(callsOf(fetchMock)).toContain('POST /api/bookings/b1/cancel');
  });

  it('shows the server’s message in the dialog when a cancellation fails', async () => {
    logInAsTrainer();
    serve({ bookings: [makeBooking()] }, (url) =>
      url.pathname === '/api/bookings/b1/cancel'
        ? jsonResponse({ message: 'This session is already over', statusCode: 409 }, 409)
        : undefined,
    );
    const { user } = renderWithProviders(<WeekSchedule />);

    await user.click(within(await rowOf('Mariam Hassan')).getByRole('button', { name: /^Cancel the session/ }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel this session?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel session' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This session is already over');
  });

  it('marks a started session a no-show after a confirmation; the history shows it', async () => {
    logInAsTrainer();
    const started = makeBooking({ startsAt: hoursFromNow(-30), canCancel: false, canMarkNoShow: true });
    const state: Server = { bookings: [started] };
    serve(state, (url, init) => {
      if (url.pathname !== '/api/bookings/b1/no-show' || init.method !== 'POST') return undefined;
      state.bookings = [{ ...started, status: 'no-show', canMarkNoShow: false }];
      return jsonResponse({ message: 'Marked as a no-show', booking: state.bookings[0] });
    });
    const { user } = renderWithProviders(<WeekSchedule />);

    const history = await screen.findByRole('list', { name: 'History' });
    expect(history).toHaveTextContent(formatDateTimeIn(started.startsAt, LOCAL_ZONE));
    expect(within(history).queryByRole('button', { name: /^Cancel/ })).not.toBeInTheDocument();
    await user.click(within(history).getByRole('button', { name: /^Mark no-show: Mariam Hassan/ }));
    const dialog = screen.getByRole('dialog', { name: 'Mark as a no-show?' });
    await user.click(within(dialog).getByRole('button', { name: 'Mark no-show' }));

    await findToast('Marked as a no-show');
    expect(await within(history).findByText('The client did not come.')).toBeInTheDocument();
    expect(within(history).getByText('No-show')).toBeInTheDocument();
    expect(within(history).queryByRole('button', { name: /Mark no-show/ })).not.toBeInTheDocument();
  });

  it('shows a client’s cancellation in the history', async () => {
    logInAsTrainer();
    serve({ bookings: [makeBooking({ status: 'refunded', canCancel: false, cancelledBy: 'user' })] });
    renderWithProviders(<WeekSchedule />);
    expect(await screen.findByRole('list', { name: 'History' })).toHaveTextContent('Cancelled by Mariam. Refunded in full.');
  });

  it('shows a trainer without hours "Not bookable yet" and a checklist linked to settings, ticking what is done', async () => {
    logInAsTrainer();
    serve({
      bookings: [],
      availability: availability({ weekly: [], overrides: [{ date: '2099-01-01', hours: [] }] }),
      picture: '/api/images/abc.webp',
      payoutEmail: null,
    });
    renderWithProviders(<WeekSchedule />);

    expect(await screen.findByText('Not bookable yet')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Get ready for your first client' });
    const links = within(list).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Add a photo of yourself (done)', '/trainer/settings#photo'],
      ['Describe how you train (to do)', '/trainer/settings#personal-details'],
      ['Set your hours (to do)', '/trainer/settings#availability'],
      ['Add your payout address (to do)', '/trainer/settings#payouts'],
    ]);
    expect(screen.getByText('1 of 4 done')).toBeInTheDocument();
    expect(await screen.findByText('No sessions booked this week yet.')).toBeInTheDocument();
    expect(screen.queryByText('Free')).not.toBeInTheDocument();
  });

  it('ticks the payout address once GET /api/trainer/payout answers an e-mail', async () => {
    logInAsTrainer();
    serve({ bookings: [], availability: availability({ weekly: [] }), payoutEmail: 'omar@paypal.example' });
    renderWithProviders(<WeekSchedule />);

    const list = await screen.findByRole('list', { name: 'Get ready for your first client' });
    const payout = within(list).getByRole('link', { name: /^Add your payout address/ });
    expect(payout).toHaveTextContent('Add your payout address (done)');
    expect(payout).toHaveAttribute('href', '/trainer/settings#payouts');
    expect(screen.getByText('1 of 4 done')).toBeInTheDocument();
  });

  it('leaves the payout step out when the address cannot be read (a server without payouts), rather than showing it to do', async () => {
    logInAsTrainer();
    serve({ bookings: [], availability: availability({ weekly: [] }) });
    renderWithProviders(<WeekSchedule />);

    const list = await screen.findByRole('list', { name: 'Get ready for your first client' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Add a photo of yourself (to do)', 'Describe how you train (to do)', 'Set your hours (to do)']);
    expect(screen.getByText('0 of 3 done')).toBeInTheDocument();
  });

  it('counts a date with hours as bookable and a generated portrait as no photo', async () => {
    logInAsTrainer();
    serve({ bookings: [], availability: availability({ weekly: [], overrides: [{ date: '2099-01-01', hours: [9] }] }) });
    renderWithProviders(<WeekSchedule />);
    expect(await screen.findByText('No sessions booked this week yet.')).toBeInTheDocument();
    await screen.findByText(/^Times in/);
    expect(screen.queryByText('Not bookable yet')).not.toBeInTheDocument();
  });

  it('shows a failed load with Retry', async () => {
    logInAsTrainer();
    let calls = 0;
    serve({ bookings: [makeBooking()] }, (url) =>
      url.pathname === '/api/bookings' && ++calls === 1
        ? jsonResponse({ message: 'Service unavailable', statusCode: 503 }, 503)
        : undefined,
    );
    const { user } = renderWithProviders(<WeekSchedule />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Service unavailable');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await rowOf('Mariam Hassan')).toBeInTheDocument();
  });
});

/** The browser's WebSocket, replaced: what the server pushes is lib/ws-client.ts's contract. */
class FakeSocket {
  static last: FakeSocket | undefined;
  readyState = 1;
  onopen: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send() {}
  close() {
    this.readyState = 3;
  }
  push(frame: unknown) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(frame) }));
  }
}

/** The page as the app has it: the header keeps the socket open, the schedule below. */
function PageWithSocket() {
  useChatSocket();
  return <WeekSchedule />;
}

describe('WeekSchedule, live', () => {
  it('shows a booking pushed over the socket without a reload, with a toast', async () => {
    logInAsTrainer();
    vi.stubGlobal('WebSocket', FakeSocket);
    const state: Server = { bookings: [] };
    serve(state);
    renderWithProviders(<PageWithSocket />);

    expect(await screen.findByText('No sessions booked this week yet.')).toBeInTheDocument();
    const booked = makeBooking({ _id: 'b9' });
    state.bookings = [booked];
    act(() => {
      FakeSocket.last!.onopen?.(new Event('open'));
      FakeSocket.last!.push({ type: 'ready' });
      FakeSocket.last!.push({ type: 'booking', booking: booked });
    });

    expect(await findToast(`New booking: Mariam H., ${formatDateTimeIn(booked.startsAt, 'Africa/Cairo')}`)).toBeInTheDocument();
    expect(await rowOf('Mariam Hassan')).toHaveTextContent('Confirmed');
    expect(screen.getByText('1 session this week.')).toBeInTheDocument();
  });
});
