import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BOOKING_MSG, type TBalance, type TBooking } from '@spotter/shared';
import { callsOf, stubApi } from '@/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { BookingDialog } from './booking-dialog';
import { MySessions } from './my-sessions';

// The person is in Tokyo (UTC+9): 16:00Z on 7 January is 01:00 Tuesday there.
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  process.env.TZ = zone;
});
beforeEach(() => {
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userType', 'user');
});

const TUE_01 = '2030-01-07T16:00:00.000Z';
const week = (n: number) => new Date(Date.parse(TUE_01) + n * 7 * 24 * 60 * 60_000).toISOString();
/** 19:10 in Tokyo. */
const HELD_UNTIL = '2030-01-01T10:10:00.000Z';

const trainer = { _id: 't1', firstName: 'Nadia', lastName: 'Samir', price: 40, packages: [] };

const makeBooking = (overrides: Partial<TBooking> = {}): TBooking => ({
  _id: 'b1',
  trainerId: 't1',
  userId: 'u1',
  startsAt: TUE_01,
  endsAt: '2030-01-07T17:00:00.000Z',
  status: 'pending',
  price: 40,
  currency: 'USD',
  holdExpiresAt: HELD_UNTIL,
  trainerFirstName: 'Nadia',
  trainerLastName: 'Samir',
  userFirstName: 'Mona',
  userLastName: 'Adel',
  canCancel: true,
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
  canRelease: false,
  ...overrides,
});

/** Week n of series s1, held (pending) unless told otherwise. */
const weekOf = (n: number, overrides: Partial<TBooking> = {}) =>
  makeBooking({
    _id: `w${n}`,
    startsAt: week(n),
    endsAt: new Date(Date.parse(week(n)) + 60 * 60_000).toISOString(),
    seriesId: 's1',
    ...overrides,
  });

const confirmed = (booking: TBooking): TBooking => ({
  ...booking,
  status: 'confirmed',
  holdExpiresAt: null,
  isRefundable: true,
  cancellableUntil: new Date(Date.parse(booking.startsAt) - 24 * 60 * 60_000).toISOString(),
});

const makeBalance = (overrides: Partial<TBalance> = {}): TBalance => ({
  trainerId: 't1',
  trainerFirstName: 'Nadia',
  trainerLastName: 'Samir',
  amount: 144,
  perSession: 36,
  sessionsLeft: 4,
  sessions: 5,
  expiresAt: null,
  status: 'active',
  entries: [],
  ...overrides,
});

const isPost = (url: URL, init: RequestInit, path: string) => url.pathname === path && init.method === 'POST';

const captureAnswer = (bookings: TBooking[]) =>
  jsonResponse({
    id: 'ORDER-S',
    status: 'COMPLETED',
    purchase_units: [{ payments: { captures: [{ id: 'CAPTURE-S', status: 'COMPLETED' }] } }],
    bookings,
  });

/** The demo provider, the trainer's one free time, the person's sessions and balances as given. */
const base =
  ({ bookings = [] as TBooking[], balances = [] as TBalance[] } = {}) =>
  (url: URL, init: RequestInit) => {
    if (url.pathname === '/api/payments/config')
      return jsonResponse({ provider: 'demo', currency: 'USD', label: 'Demo payment: no money moves' });
    if (url.pathname === '/api/trainers/t1/slots') return jsonResponse({ slots: [TUE_01], timeZone: 'Africa/Cairo' });
    if (url.pathname === '/api/bookings' && (init.method ?? 'GET') === 'GET') return jsonResponse({ bookings });
    if (url.pathname === '/api/balances') return jsonResponse({ balances });
    return undefined;
  };

const renderDialog = () => renderWithProviders(<BookingDialog trainer={trainer} isOpen onOpenChange={() => undefined} />);

async function chooseTheTime(user: ReturnType<typeof renderDialog>['user']) {
  const group = await screen.findByRole('group', { name: 'Tuesday 8 January' });
  await user.click(within(group).getByRole('radio', { name: '01:00' }));
}

describe('A weekly series paid by card', () => {
  it('offers every week for 4, 8 or 12 weeks, holds { weeks } and shows the held weeks, those not free and the total before paying', async () => {
    let held: unknown;
    let order: unknown;
    const fetchMock = stubApi(base(), (url, init) => {
      if (isPost(url, init, '/api/bookings')) {
        held = JSON.parse(init.body as string);
        return jsonResponse(
          {
            seriesId: 's1',
            bookings: [weekOf(0), weekOf(2), weekOf(3)],
            unavailable: [{ startsAt: week(1), reason: 'taken' }],
          },
          201,
        );
      }
      if (isPost(url, init, '/api/orders')) {
        order = JSON.parse(init.body as string);
        return jsonResponse({ id: 'ORDER-S', status: 'CREATED', amount: { currency_code: 'USD', value: '120.00' } });
      }
      if (isPost(url, init, '/api/orders/ORDER-S/capture')) return captureAnswer([0, 2, 3].map((n) => confirmed(weekOf(n))));
      return undefined;
    });
    const { user } = renderDialog();
    await chooseTheTime(user);

    const choice = screen.getByRole('group', { name: 'Book' });
    expect(
      within(choice)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual(['Just this session', 'Every week for 4 weeks', 'Every week for 8 weeks', 'Every week for 12 weeks']);
    expect(within(choice).getByRole('radio', { name: 'Just this session' })).toBeChecked();
    await user.click(within(choice).getByRole('radio', { name: 'Every week for 4 weeks' }));
    expect(screen.getByText('up to $160 for 4 weeks')).toBeInTheDocument();
    expect(callsOf(fetchMock)).not.toContain('POST /api/bookings');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const summary = await screen.findByLabelText('Your weekly sessions');
    expect(held).toEqual({ trainerId: 't1', startsAt: TUE_01, weeks: 4 });
    expect(summary).toHaveTextContent('Total$120');
    expect(summary).toHaveTextContent('its price is refunded to your card or PayPal');
    expect(screen.getByRole('list', { name: 'Held for you' }).textContent).toBe(
      'Tue 8 Jan, 01:00Tue 22 Jan, 01:00Tue 29 Jan, 01:00',
    );
    expect(
      within(screen.getByRole('list', { name: 'Not free, left out' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Tue 15 Jan, 01:00: Taken']);
    expect(screen.getByText('We hold these weeks for you until 19:10.')).toBeInTheDocument();
    expect(callsOf(fetchMock).some((call) => call.includes('/api/orders'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Pay $120' }));
    expect(await screen.findByText('You are booked every week!')).toBeInTheDocument();
    expect(order).toEqual({ seriesId: 's1' });
    const status = screen.getByText('You are booked every week!').closest('[role="status"]');
    expect(status).toHaveTextContent('Paid $120 to Nadia Samir for 3 weekly sessions (Tokyo time).');
    expect(status).toHaveTextContent('Payment reference: CAPTURE-S');
    expect(screen.getByRole('list', { name: 'Booked' }).textContent).toBe('Tue 8 Jan, 01:00Tue 22 Jan, 01:00Tue 29 Jan, 01:00');
    expect(screen.getByRole('list', { name: 'Not booked' })).toHaveTextContent('Tue 15 Jan, 01:00: Taken');
    // true for a card: refunded to it, not back to a package
    expect(screen.getByText(/cancelled more than 24 hours ahead/)).toHaveTextContent(
      'its price is refunded to your card or PayPal',
    );
    expect(screen.queryByText(/package/)).not.toBeInTheDocument();
  });

  it('lists a week whose hold ran out before the capture as not booked, its part refunded', async () => {
    stubApi(base(), (url, init) => {
      if (isPost(url, init, '/api/bookings'))
        return jsonResponse({ seriesId: 's1', bookings: [weekOf(0), weekOf(1)], unavailable: [] }, 201);
      if (isPost(url, init, '/api/orders'))
        return jsonResponse({ id: 'ORDER-S', status: 'CREATED', amount: { currency_code: 'USD', value: '80.00' } });
      if (isPost(url, init, '/api/orders/ORDER-S/capture')) return captureAnswer([confirmed(weekOf(0))]);
      return undefined;
    });
    const { user } = renderDialog();
    await chooseTheTime(user);
    await user.click(screen.getByRole('radio', { name: 'Every week for 4 weeks' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Pay $80' }));

    const status = (await screen.findByText('You are booked every week!')).closest('[role="status"]');
    expect(status).toHaveTextContent('Paid $40 to Nadia Samir for 1 weekly session (Tokyo time).');
    expect(screen.getByRole('list', { name: 'Not booked' })).toHaveTextContent(
      'Tue 15 Jan, 01:00: The hold ran out before the payment: its part is refunded',
    );
  });

  it('shows the server’s refusal of the hold (409) and keeps the time chosen', async () => {
    stubApi(base(), (url, init) =>
      isPost(url, init, '/api/bookings')
        ? jsonResponse({ message: BOOKING_MSG.seriesNoneFree, statusCode: 409, code: 'SLOT_TAKEN' }, 409)
        : undefined,
    );
    const { user } = renderDialog();
    await chooseTheTime(user);
    await user.click(screen.getByRole('radio', { name: 'Every week for 8 weeks' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(BOOKING_MSG.seriesNoneFree);
    expect(screen.getByRole('radio', { name: '01:00' })).toHaveAttribute('aria-checked', 'true');
  });

  it('releases every held week when the person chooses another time', async () => {
    const fetchMock = stubApi(base(), (url, init) => {
      if (isPost(url, init, '/api/bookings'))
        return jsonResponse({ seriesId: 's1', bookings: [weekOf(0), weekOf(1)], unavailable: [] }, 201);
      if (init.method === 'POST' && /^\/api\/bookings\/w\d\/cancel$/.test(url.pathname))
        return jsonResponse({ message: 'Released', booking: weekOf(0, { status: 'cancelled' }) });
      return undefined;
    });
    const { user } = renderDialog();
    await chooseTheTime(user);
    await user.click(screen.getByRole('radio', { name: 'Every week for 4 weeks' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Choose another time' }));
    expect(await screen.findByRole('group', { name: 'Tuesday 8 January' })).toBeInTheDocument();
    await waitFor(() =>
      expect(callsOf(fetchMock)).toEqual(
        expect.arrayContaining(['POST /api/bookings/w0/cancel', 'POST /api/bookings/w1/cancel']),
      ),
    );
  });

  it('with a package balance, the card has its own weekly choice: it holds { weeks } without payWith', async () => {
    let held: unknown;
    stubApi(base({ balances: [makeBalance()] }), (url, init) => {
      if (isPost(url, init, '/api/bookings')) {
        held = JSON.parse(init.body as string);
        return jsonResponse({ seriesId: 's1', bookings: [weekOf(0)], unavailable: [] }, 201);
      }
      return undefined;
    });
    const { user } = renderDialog();
    await screen.findByTestId('balance');
    await chooseTheTime(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('group', { name: 'With your package, book' })).toBeInTheDocument();
    const card = screen.getByRole('group', { name: 'By card or PayPal, book' });
    expect(within(card).getAllByRole('radio')).toHaveLength(4);
    await user.click(within(card).getByRole('radio', { name: 'Every week for 12 weeks' }));
    // the package's choice is its own
    expect(
      within(screen.getByRole('group', { name: 'With your package, book' })).getByRole('radio', { name: 'Just this session' }),
    ).toBeChecked();
    expect(screen.getByRole('button', { name: 'Pay with your package (4 sessions left)' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Hold 12 weeks, then pay by card or PayPal' }));

    expect(await screen.findByRole('list', { name: 'Held for you' })).toHaveTextContent('Tue 8 Jan, 01:00');
    expect(held).toEqual({ trainerId: 't1', startsAt: TUE_01, weeks: 12 });
    expect(screen.getByRole('button', { name: 'Pay $40' })).toBeInTheDocument();
  });

  it('goes on paying a held series from the booking dialog, with its weeks, never one week alone', async () => {
    let order: unknown;
    stubApi(base({ bookings: [weekOf(1), weekOf(0)] }), (url, init) => {
      if (isPost(url, init, '/api/orders')) {
        order = JSON.parse(init.body as string);
        return jsonResponse({ id: 'ORDER-S', status: 'CREATED', amount: { currency_code: 'USD', value: '80.00' } });
      }
      if (isPost(url, init, '/api/orders/ORDER-S/capture')) return captureAnswer([0, 1].map((n) => confirmed(weekOf(n))));
      return undefined;
    });
    const { user } = renderDialog();
    expect(await screen.findByText('You are holding weekly sessions')).toBeInTheDocument();
    expect(screen.getByText(/^Every week for 2 weeks from/)).toHaveTextContent(
      'Every week for 2 weeks from Tue, 8 Jan 2030, 01:00, kept for you until 19:10.',
    );
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
    expect(await screen.findByRole('list', { name: 'Held for you' })).toHaveTextContent('Tue 8 Jan, 01:00Tue 15 Jan, 01:00');
    await user.click(screen.getByRole('button', { name: 'Pay $80' }));
    expect(await screen.findByText('You are booked every week!')).toBeInTheDocument();
    expect(order).toEqual({ seriesId: 's1' });
  });
});

describe('My sessions with a weekly series paid by card', () => {
  it('a held week offers paying the series together (one order of { seriesId }), never the week alone', async () => {
    let order: unknown;
    let isPaid = false;
    const weeks = [weekOf(0), weekOf(1)];
    const route = (url: URL, init: RequestInit) => {
      if (url.pathname === '/api/bookings' && (init.method ?? 'GET') === 'GET')
        return jsonResponse({ bookings: isPaid ? weeks.map(confirmed) : weeks });
      if (isPost(url, init, '/api/orders')) {
        order = JSON.parse(init.body as string);
        return jsonResponse({ id: 'ORDER-S', status: 'CREATED', amount: { currency_code: 'USD', value: '80.00' } });
      }
      if (isPost(url, init, '/api/orders/ORDER-S/capture')) {
        isPaid = true;
        return captureAnswer(weeks.map(confirmed));
      }
      if (url.pathname === '/api/payments') return jsonResponse({});
      return undefined;
    };
    stubApi(route, base());
    const { user } = renderWithProviders(<MySessions />);

    const list = await screen.findByRole('list', { name: 'Upcoming sessions' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('Weekly');
    expect(first).toHaveTextContent('Not paid yet: one of 2 weekly sessions held for you until 19:10, paid together.');
    expect(second).toHaveTextContent('paid together (see Tue, 8 Jan 2030, 01:00)');
    // no way to pay one week alone: the server refuses it
    expect(within(list).queryByRole('link', { name: 'Continue to payment' })).not.toBeInTheDocument();
    expect(within(second).queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument();
    // a held week can still be let go
    expect(within(second).getByRole('button', { name: /^Cancel the session with Nadia Samir/ })).toBeInTheDocument();

    await user.click(
      within(first).getByRole('button', { name: 'Pay for 2 weekly sessions with Nadia Samir from Tue, 8 Jan 2030, 01:00' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Pay for your weekly sessions with Nadia Samir' });
    expect(within(dialog).getByRole('list', { name: 'Held for you' })).toHaveTextContent('Tue 8 Jan, 01:00Tue 15 Jan, 01:00');
    expect(within(dialog).getByLabelText('Your weekly sessions')).toHaveTextContent('Total$80');
    await user.click(within(dialog).getByRole('button', { name: 'Pay $80' }));

    expect(await within(dialog).findByRole('status')).toHaveTextContent('Paid $80 to Nadia Samir for 2 weekly sessions.');
    expect(order).toEqual({ seriesId: 's1' });
    await waitFor(() => expect(within(list).getAllByText('Confirmed')).toHaveLength(2));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('a paid week of a card series shows Weekly, its price, and never says it is paid from a package', async () => {
    const paid = confirmed(weekOf(0));
    stubApi(base({ bookings: [paid] }), (url) => (url.pathname === '/api/payments' ? jsonResponse({}) : undefined));
    const { user } = renderWithProviders(<MySessions />);

    const list = await screen.findByRole('list', { name: 'Upcoming sessions' });
    expect(list).toHaveTextContent('Weekly');
    expect(list).toHaveTextContent('$40');
    expect(list).not.toHaveTextContent(/package/i);
    await user.click(within(list).getByRole('button', { name: /^Cancel the session with Nadia Samir/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this session?' });
    expect(dialog).toHaveTextContent('You get your $40 back in full.');
    expect(dialog).not.toHaveTextContent(/package/i);
  });
});
