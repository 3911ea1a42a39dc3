import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BOOKING_MSG, PACKAGE_MSG, type TBalance, type TBooking, type TTrainerPackage } from '@spotter/shared';
import { callsOf, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { BookingDialog } from './booking-dialog';

// The visitor is in Tokyo (UTC+9): 16:00Z on 7 January is 01:00 Tuesday there.
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

const fiveSessions: TTrainerPackage = { _id: 'p1', sessions: 5, price: 180, perSession: 36, validityMonths: 3 };
const trainer = { _id: 't1', firstName: 'Nadia', lastName: 'Samir', price: 40, packages: [fiveSessions] };

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

const makeBooking = (overrides: Partial<TBooking> = {}): TBooking => ({
  _id: 'b1',
  trainerId: 't1',
  userId: 'u1',
  startsAt: TUE_01,
  endsAt: '2030-01-07T17:00:00.000Z',
  status: 'pending',
  price: 40,
  currency: 'USD',
  holdExpiresAt: '2030-01-01T10:10:00.000Z',
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

const base = (url: URL, init: RequestInit) => {
  if (url.pathname === '/api/payments/config')
    return jsonResponse({ provider: 'demo', currency: 'USD', label: 'Demo payment: no money moves' });
  if (url.pathname === '/api/trainers/t1/slots') return jsonResponse({ slots: [TUE_01], timeZone: 'Africa/Cairo' });
  if (url.pathname === '/api/bookings' && init.method === undefined) return jsonResponse({ bookings: [] });
  return undefined;
};
const isPost = (url: URL, init: RequestInit, path: string) => url.pathname === path && init.method === 'POST';

const renderDialog = () => renderWithProviders(<BookingDialog trainer={trainer} isOpen onOpenChange={() => undefined} />);

async function chooseAndContinue(user: ReturnType<typeof renderDialog>['user']) {
  const group = await screen.findByRole('group', { name: 'Tuesday 8 January' });
  await user.click(within(group).getByRole('radio', { name: '01:00' }));
  await user.click(screen.getByRole('button', { name: 'Continue' }));
}

describe('Paying a session from a package balance', () => {
  it('offers the package first after choosing a time, books with payWith balance and shows it confirmed, without a checkout', async () => {
    let sent: unknown;
    const fetchMock = stubApi(base, (url, init) => {
      if (url.pathname === '/api/balances') return jsonResponse({ balances: [makeBalance()] });
      if (isPost(url, init, '/api/bookings')) {
        sent = JSON.parse(init.body as string);
        return jsonResponse(
          { booking: makeBooking({ status: 'confirmed', holdExpiresAt: null, price: 36, paidFromBalance: true }) },
          201,
        );
      }
      return undefined;
    });
    const { user } = renderDialog();

    expect(await screen.findByTestId('balance')).toHaveTextContent('Your package: $144 left · 4 of 5 sessions left');
    await chooseAndContinue(user);
    expect(await screen.findByText('How do you want to pay?')).toBeInTheDocument();
    const choices = screen.getAllByRole('button', { name: /^Pay / });
    expect(choices.map((b) => b.textContent)).toEqual(['Pay with your package (4 sessions left)', 'Pay $40 by card or PayPal']);
    expect(callsOf(fetchMock)).not.toContain('POST /api/bookings');

    await user.click(choices[0]);
    expect(await screen.findByText('You are booked!')).toBeInTheDocument();
    expect(sent).toEqual({ trainerId: 't1', startsAt: TUE_01, payWith: 'balance' });
    expect(screen.getByText(/^Booked and paid from your package/)).toHaveTextContent(
      'Booked and paid from your package: Tue 8 Jan, 01:00 (Tokyo time).',
    );
    expect(screen.queryByText(/Payment reference/)).not.toBeInTheDocument();
    expect(callsOf(fetchMock).some((call) => call.includes('/api/orders'))).toBe(false);
  });

  it('the usual payment stays the second choice: a hold, then the checkout', async () => {
    let sent: unknown;
    stubApi(base, (url, init) => {
      if (url.pathname === '/api/balances') return jsonResponse({ balances: [makeBalance()] });
      if (isPost(url, init, '/api/bookings')) {
        sent = JSON.parse(init.body as string);
        return jsonResponse({ booking: makeBooking() }, 201);
      }
      return undefined;
    });
    const { user } = renderDialog();
    await screen.findByTestId('balance');
    await chooseAndContinue(user);
    await user.click(await screen.findByRole('button', { name: 'Pay $40 by card or PayPal' }));
    expect(await screen.findByRole('button', { name: 'Pay $40' })).toBeInTheDocument();
    expect(sent).toEqual({ trainerId: 't1', startsAt: TUE_01 });
  });

  it('shows the server’s refusal of the balance (409), leaves the usual payment, and lets the person choose another time', async () => {
    let balances = [makeBalance()];
    stubApi(base, (url, init) => {
      if (url.pathname === '/api/balances') return jsonResponse({ balances });
      if (isPost(url, init, '/api/bookings')) {
        balances = [makeBalance({ expiresAt: '2020-01-01T00:00:00.000Z' })];
        return jsonResponse({ message: PACKAGE_MSG.balanceExpired, statusCode: 409, code: 'CONFLICT' }, 409);
      }
      return undefined;
    });
    const { user } = renderDialog();
    await screen.findByTestId('balance');
    await chooseAndContinue(user);
    expect(screen.getByText('Your package pays $36 of the $144 left in it', { exact: false })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Pay with your package (4 sessions left)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(PACKAGE_MSG.balanceExpired);
    // the balance is read again: expired, it can no longer pay
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Pay with your package/ })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Pay $40 by card or PayPal' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Choose another time' }));
    expect(await screen.findByRole('group', { name: 'Tuesday 8 January' })).toBeInTheDocument();
  });

  it('goes straight to the checkout when the balance has no session left', async () => {
    stubApi(base, (url, init) => {
      if (url.pathname === '/api/balances') return jsonResponse({ balances: [makeBalance({ sessionsLeft: 0, amount: 0 })] });
      if (isPost(url, init, '/api/bookings')) return jsonResponse({ booking: makeBooking() }, 201);
      return undefined;
    });
    const { user } = renderDialog();
    await screen.findByTestId('balance');
    await chooseAndContinue(user);
    expect(await screen.findByRole('button', { name: 'Pay $40' })).toBeInTheDocument();
    expect(screen.queryByText('How do you want to pay?')).not.toBeInTheDocument();
  });
});

describe('Buying a package in the booking dialog', () => {
  it('lists the packages, buys one through the order of { packageId } and shows the balance it bought', async () => {
    let balances: TBalance[] = [];
    let order: unknown;
    stubApi(base, (url, init) => {
      if (url.pathname === '/api/balances') return jsonResponse({ balances });
      if (isPost(url, init, '/api/orders')) {
        order = JSON.parse(init.body as string);
        return jsonResponse({ id: 'ORDER-P', status: 'CREATED', amount: { currency_code: 'USD', value: '180.00' } });
      }
      if (isPost(url, init, '/api/orders/ORDER-P/capture')) {
        const balance = makeBalance({ amount: 180, sessionsLeft: 5 });
        balances = [balance];
        return jsonResponse({
          id: 'ORDER-P',
          status: 'COMPLETED',
          purchase_units: [{ payments: { captures: [{ id: 'CAPTURE-P', status: 'COMPLETED' }] } }],
          balance,
        });
      }
      return undefined;
    });
    const { user } = renderDialog();

    const list = await screen.findByRole('list', { name: 'Packages of Nadia' });
    expect(within(list).getByRole('listitem')).toHaveTextContent('5 sessions · $180 · $36 a session · save $20 · valid 3 months');
    await user.click(within(list).getByRole('button', { name: 'Buy 5 sessions with Nadia for $180' }));
    expect(await screen.findByText('Demo payment: no money moves')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pay $180' }));

    expect(await screen.findByText(/^Package bought/)).toBeInTheDocument();
    expect(order).toEqual({ packageId: 'p1' });
    expect(await screen.findByTestId('balance')).toHaveTextContent('Your package: $180 left · 5 of 5 sessions left');
    // one package at a time, and the free times keep their room: the balance instead of the packages
    expect(screen.queryByRole('list', { name: 'Packages of Nadia' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Buy / })).not.toBeInTheDocument();
  });

  it('shows the server’s refusal of the order (409: a balance is left)', async () => {
    stubApi(base, (url, init) => {
      if (url.pathname === '/api/balances') return jsonResponse({ balances: [] });
      if (isPost(url, init, '/api/orders'))
        return jsonResponse({ message: PACKAGE_MSG.haveBalance, statusCode: 409, code: 'CONFLICT' }, 409);
      return undefined;
    });
    const { user } = renderDialog();
    await user.click(await screen.findByRole('button', { name: 'Buy 5 sessions with Nadia for $180' }));
    await user.click(await screen.findByRole('button', { name: 'Pay $180' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not initiate PayPal Checkout...');
    expect(alert).toHaveTextContent(PACKAGE_MSG.haveBalance);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(screen.getByRole('list', { name: 'Packages of Nadia' })).toBeInTheDocument());
  });
});

describe('Booking a standing weekly series from a package', () => {
  const week = (n: number) => new Date(Date.parse(TUE_01) + n * 7 * 24 * 60 * 60_000).toISOString();

  it('offers “Just this session” or every week for 4 / 8 weeks, books { weeks, payWith } and lists the booked and left-out weeks', async () => {
    let sent: unknown;
    stubApi(base, (url, init) => {
      if (url.pathname === '/api/balances') return jsonResponse({ balances: [makeBalance({ sessionsLeft: 5, amount: 180 })] });
      if (isPost(url, init, '/api/bookings')) {
        sent = JSON.parse(init.body as string);
        const booked = [0, 2].map((n) =>
          makeBooking({
            _id: `b${n}`,
            startsAt: week(n),
            endsAt: new Date(Date.parse(week(n)) + 60 * 60_000).toISOString(),
            status: 'confirmed',
            holdExpiresAt: null,
            paidFromBalance: true,
            seriesId: 's1',
          }),
        );
        return jsonResponse(
          {
            bookings: booked,
            unavailable: [
              { startsAt: week(1), reason: 'taken' },
              { startsAt: week(3), reason: 'not-offered' },
            ],
          },
          201,
        );
      }
      return undefined;
    });
    const { user } = renderDialog();
    await screen.findByTestId('balance');
    await chooseAndContinue(user);

    const group = await screen.findByRole('group', { name: 'With your package, book' });
    const radios = within(group).getAllByRole('radio');
    // 12 weeks would book no more than 8 with 5 sessions left
    expect(radios.map((r) => r.closest('label')?.textContent)).toEqual([
      'Just this session',
      'Every week for 4 weeks',
      'Every week for 8 weeks',
    ]);
    expect(within(group).getByRole('radio', { name: 'Just this session' })).toBeChecked();
    await user.click(within(group).getByRole('radio', { name: 'Every week for 4 weeks' }));
    // keyboard: the arrows move the choice within the group
    await user.keyboard('{ArrowDown}');
    expect(within(group).getByRole('radio', { name: 'Every week for 8 weeks' })).toBeChecked();
    await user.keyboard('{ArrowUp}');
    await user.click(screen.getByRole('button', { name: 'Book 4 weeks with your package (5 sessions left)' }));

    expect(await screen.findByText('You are booked every week!')).toBeInTheDocument();
    expect(sent).toEqual({ trainerId: 't1', startsAt: TUE_01, weeks: 4, payWith: 'balance' });
    expect(screen.getByRole('list', { name: 'Booked' }).textContent).toBe('Tue 8 Jan, 01:00Tue 22 Jan, 01:00');
    const left = within(screen.getByRole('list', { name: 'Not booked' })).getAllByRole('listitem');
    expect(left.map((li) => li.textContent)).toEqual([
      'Tue 15 Jan, 01:00: Taken',
      'Tue 29 Jan, 01:00: Not among the trainer’s hours',
    ]);
    expect(within(screen.getByRole('dialog')).getByText(/^Booked and paid from your package/)).toHaveTextContent(
      'Booked and paid from your package: 2 weekly sessions (Tokyo time).',
    );
    expect(await findToast('Booked and paid from your package: 2 weekly sessions')).toHaveAttribute('data-type', 'success');
  });

  it('says “Past what your package pays for”, and shows the server’s refusal (409) in the step', async () => {
    let answer = 409;
    stubApi(base, (url, init) => {
      if (url.pathname === '/api/balances') return jsonResponse({ balances: [makeBalance({ sessionsLeft: 2, amount: 72 })] });
      if (isPost(url, init, '/api/bookings')) {
        if (answer === 409) {
          answer = 201;
          return jsonResponse({ message: BOOKING_MSG.seriesNoneFree, statusCode: 409, code: 'CONFLICT' }, 409);
        }
        return jsonResponse(
          {
            bookings: [makeBooking({ status: 'confirmed', holdExpiresAt: null, paidFromBalance: true, seriesId: 's1' })],
            unavailable: [{ startsAt: week(2), reason: 'no-balance-left' }],
          },
          201,
        );
      }
      return undefined;
    });
    const { user } = renderDialog();
    await screen.findByTestId('balance');
    await chooseAndContinue(user);
    const group = await screen.findByRole('group', { name: 'With your package, book' });
    // two sessions left: only 4 weeks is worth offering
    expect(within(group).getAllByRole('radio')).toHaveLength(2);
    await user.click(within(group).getByRole('radio', { name: 'Every week for 4 weeks' }));
    await user.click(screen.getByRole('button', { name: 'Book 4 weeks with your package (2 sessions left)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(BOOKING_MSG.seriesNoneFree);

    await user.click(await screen.findByRole('button', { name: /^Book 4 weeks with your package/ }));
    const left = await screen.findByRole('list', { name: 'Not booked' });
    expect(left).toHaveTextContent('Tue 22 Jan, 01:00: Past what your package pays for');
  });

  it('offers no weekly choice when the package has one session left', async () => {
    stubApi(base, (url) =>
      url.pathname === '/api/balances' ? jsonResponse({ balances: [makeBalance({ sessionsLeft: 1, amount: 36 })] }) : undefined,
    );
    const { user } = renderDialog();
    await screen.findByTestId('balance');
    await chooseAndContinue(user);
    expect(await screen.findByRole('button', { name: 'Pay with your package (1 session left)' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'With your package, book' })).not.toBeInTheDocument();
  });
});
