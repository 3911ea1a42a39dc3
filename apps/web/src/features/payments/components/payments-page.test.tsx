import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TPayment, TPayout, TPaymentsResponse } from '@spotter/shared';
import { testTrainer, testUser } from '@/testing/accounts';
import { callsOf, stubApi } from '@/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { PaymentsPage } from './payments-page';

const logInAsTrainer = () => {
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userType', 'trainer');
};

afterEach(() => localStorage.clear());

type Totals = TPaymentsResponse['totals'];

const earnings = (totals: Partial<Totals> = {}): TPaymentsResponse => ({
  role: 'trainer',
  feePercent: 10,
  currency: 'USD',
  payments: [],
  totals: { count: 3, charged: 750, refunded: 250, fees: 50, net: 450, ...totals },
  upcoming: { count: 1, amount: 250, bookings: [] },
});

const makePayout = (overrides: Partial<TPayout> = {}): TPayout => ({
  _id: 'p1',
  amount: 450,
  currency: 'USD',
  status: 'paid',
  createdAt: '2026-11-20T10:00:00.000Z',
  sessions: 2,
  email: 'omar@paypal.example',
  ...overrides,
});

/** An earnings row of Omar's client Lina, paid through PayPal; `overrides` make it another. */
const makePayment = (overrides: Partial<TPayment> = {}): TPayment => ({
  _id: 'pay1',
  bookingId: 'b1',
  trainerId: 't1',
  userId: 'u1',
  trainerFirstName: 'Omar',
  trainerLastName: 'Farouk',
  userFirstName: 'Lina',
  userLastName: 'Haddad',
  startsAt: '2026-11-30T10:00:00.000Z',
  provider: 'paypal',
  orderId: 'O1',
  captureId: 'CAP1',
  status: 'completed',
  currency: 'USD',
  amount: 200,
  refunded: 0,
  fee: 20,
  net: 180,
  paidAt: '2026-11-20T10:00:00.000Z',
  refundedAt: null,
  ...overrides,
});

type Server = {
  payments?: TPaymentsResponse;
  /** undefined: a server without these routes (404). */
  payouts?: TPayout[];
  payoutEmail?: string | null;
};

function serve(state: Server, ...routes: Parameters<typeof stubApi>) {
  return stubApi(...routes, (url) => {
    if (url.pathname === '/api/trainerData') return jsonResponse({ trainerData: testTrainer() });
    if (url.pathname === '/api/payments') return jsonResponse(state.payments ?? earnings());
    if (url.pathname === '/api/payouts' && state.payouts) return jsonResponse({ payouts: state.payouts });
    if (url.pathname === '/api/trainer/payout' && state.payoutEmail !== undefined)
      return jsonResponse({ email: state.payoutEmail });
    return undefined;
  });
}

const renderPage = () => renderWithProviders(<PaymentsPage role="trainer" />, { route: '/trainer/payments' });

/** The figures as a person reads them: label, amount, what it means. */
async function figures() {
  const stats = await screen.findByLabelText('Your earnings');
  return within(stats)
    .getAllByRole('term')
    .map((term) => {
      const card = term.parentElement as HTMLElement;
      const [value, hint] = within(card).getAllByRole('definition');
      return [term.textContent, value.textContent, hint?.textContent];
    });
}

describe('PaymentsPage (trainer)', () => {
  it('shows pending, payable, paid out and refunded, each with what it means, and the payouts with their status in words', async () => {
    logInAsTrainer();
    serve({
      payments: earnings({ pending: 225, payable: 112.5, paidOut: 450, refunded: 250 }),
      payoutEmail: 'omar@paypal.example',
      payouts: [
        makePayout({ _id: 'p1', status: 'paid', createdAt: '2026-11-10T10:00:00.000Z', amount: 450, sessions: 2 }),
        makePayout({ _id: 'p2', status: 'returned', createdAt: '2026-11-24T10:00:00.000Z', amount: 225, sessions: 1 }),
        makePayout({ _id: 'p3', status: 'sent', createdAt: '2026-11-26T10:00:00.000Z', amount: 112.5, sessions: 1 }),
        makePayout({ _id: 'p4', status: 'pending', createdAt: '2026-11-27T10:00:00.000Z', amount: 90, sessions: 3 }),
        makePayout({
          _id: 'p0',
          status: 'returned',
          refused: true,
          createdAt: '2026-11-01T10:00:00.000Z',
          amount: 100,
          sessions: 1,
        }),
      ],
    });
    renderPage();

    expect(await figures()).toEqual([
      [
        'Pending',
        '$225',
        'Your share of sessions not yet due: payable 48 hours after each ends, once it can no longer be disputed',
      ],
      ['Payable', '$112.50', 'Due to you, waiting for a payout or in one on its way'],
      ['Paid out', '$450', 'Paid to your PayPal account'],
      ['Refunded', '$250', 'Given back to clients: cancelled sessions, refunds and chargebacks'],
    ]);
    expect(screen.getByText('Your share of a session is its price less Spotter’s 10% fee.')).toBeInTheDocument();

    const payouts = await screen.findByRole('list', { name: 'Payouts' });
    const rows = within(payouts).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      '27 Nov 2026For 3 sessionsWaiting to be sent through PayPal.$90Pending',
      '26 Nov 2026For 1 sessionSent through PayPal to omar@paypal.example; PayPal has not confirmed it yet.$112.50Sent',
      '24 Nov 2026For 1 sessionA payout could not be delivered and is back in your payable balance. Check your payout address. Go to payout settings$225Returned',
      '10 Nov 2026For 2 sessionsPaid to omar@paypal.example.$450Paid',
      // PayPal refused the batch, not the address: nothing to fix, no link to the address
      '1 Nov 2026For 1 sessionPayPal did not accept this payout from Spotter; the amount goes out with the next daily payout.$100Returned',
    ]);
    expect(within(rows[4]).queryByRole('link')).not.toBeInTheDocument();
    expect(within(rows[2]).getByRole('link', { name: 'Go to payout settings' })).toHaveAttribute(
      'href',
      '/trainer/settings#payouts',
    );
    expect(screen.getByRole('region', { name: 'Payouts' })).toHaveAttribute('id', 'payouts');
    expect(screen.queryByText('Add a payout address')).not.toBeInTheDocument();
  });

  it('with no payouts yet says when a share becomes payable; without a payout address it says so and links to the setting', async () => {
    logInAsTrainer();
    serve({ payments: earnings({ pending: 0, payable: 0, paidOut: 0, refunded: 0 }), payouts: [], payoutEmail: null });
    renderPage();

    const region = await screen.findByRole('region', { name: 'Payouts' });
    expect(
      await within(region).findByText(
        'No payouts yet. Your share of a session becomes payable 48 hours after it ends, once its client can no longer dispute it.',
      ),
    ).toBeInTheDocument();
    expect(within(region).queryByRole('list', { name: 'Payouts' })).not.toBeInTheDocument();
    expect((await figures()).map(([label, value]) => [label, value])).toEqual([
      ['Pending', '$0'],
      ['Payable', '$0'],
      ['Paid out', '$0'],
      ['Refunded', '$0'],
    ]);
    const notice = (await screen.findByText('Add a payout address')).parentElement?.parentElement as HTMLElement;
    expect(notice).toHaveTextContent('Payouts wait until you add the e-mail of the PayPal account they go to.');
    expect(within(notice).getByRole('link', { name: 'Add payout address' })).toHaveAttribute('href', '/trainer/settings#payouts');
  });

  it('from a server without payout totals shows the earnings it always did, and the payouts as not loaded, with Retry', async () => {
    logInAsTrainer();
    const state: Server = {};
    serve(state);
    const { user } = renderPage();

    expect((await figures()).map(([label, value]) => [label, value])).toEqual([
      ['Earned', '$450'],
      ['Upcoming', '$250'],
      ['Refunded', '$250'],
      ['Spotter fee', '$50'],
    ]);
    const region = screen.getByRole('region', { name: 'Payouts' });
    const alert = await within(region).findByRole('alert');
    expect(alert).toHaveTextContent('Could not load your payouts');
    expect(screen.queryByText('Add a payout address')).not.toBeInTheDocument();

    state.payouts = [makePayout()];
    await user.click(within(region).getByRole('button', { name: 'Retry' }));
    expect(await within(region).findByRole('list', { name: 'Payouts' })).toHaveTextContent('Paid to omar@paypal.example.');
  });

  it('a payment refunded in part through PayPal shows what was refunded and what the trainer keeps', async () => {
    logInAsTrainer();
    const payment = makePayment({ refunded: 50, fee: 15, net: 135 });
    serve({ payments: { ...earnings({ pending: 135, refunded: 50 }), payments: [payment] }, payouts: [], payoutEmail: null });
    renderPage();

    const row = within(await screen.findByRole('list', { name: 'Earnings' })).getByRole('listitem');
    expect(row).toHaveTextContent('$50 refunded through PayPal');
    expect(row).toHaveTextContent('fee $15 · you get $135');
    expect(row).toHaveTextContent('Paid');
  });

  it('a session paid from a package and refunded in part says what went back, without naming PayPal', async () => {
    logInAsTrainer();
    const payment = makePayment({
      _id: 'tx9',
      provider: 'package',
      orderId: 'O9',
      captureId: '',
      amount: 100,
      refunded: 25,
      fee: 7.5,
      net: 67.5,
    });
    serve({ payments: { ...earnings({ pending: 67.5, refunded: 25 }), payments: [payment] }, payouts: [], payoutEmail: null });
    renderPage();

    const row = within(await screen.findByRole('list', { name: 'Earnings' })).getByRole('listitem');
    expect(row).toHaveTextContent('$25 refunded');
    expect(row).not.toHaveTextContent('PayPal');
    expect(row).toHaveTextContent('fee $7.50 · you get $67.50');
  });

  it('a session paid from a client’s package is a row saying so, with the fee and what the trainer gets', async () => {
    logInAsTrainer();
    const row = makePayment({
      _id: 'tx1',
      bookingId: 'b2',
      startsAt: '2026-12-01T10:00:00.000Z',
      provider: 'package',
      orderId: 'O9',
      captureId: '',
      amount: 80,
      fee: 8,
      net: 72,
      paidAt: '2026-11-21T10:00:00.000Z',
    });
    serve({ payments: { ...earnings({ pending: 72 }), payments: [row] }, payouts: [], payoutEmail: null });
    renderPage();
    const item = within(await screen.findByRole('list', { name: 'Earnings' })).getByRole('listitem');
    expect(item).toHaveTextContent('paid from a package');
    expect(item).toHaveTextContent('fee $8 · you get $72');
    expect(item).not.toHaveTextContent(/·\s*$/);
  });

  it('says the payouts are loading while they are', async () => {
    logInAsTrainer();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fetchMock = serve({ payouts: [], payoutEmail: 'omar@paypal.example' });
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      if (input.startsWith('/api/payouts')) await gate;
      return fetchMock(input, init);
    });
    renderPage();

    expect(await screen.findByText('Loading your payouts…')).toBeInTheDocument();
    release();
    expect(await screen.findByText(/^No payouts yet\./)).toBeInTheDocument();
    expect(screen.queryByText('Loading your payouts…')).not.toBeInTheDocument();
  });
});

describe('PaymentsPage (user)', () => {
  it('has no payouts and asks nothing about them', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('userType', 'user');
    const fetchMock = stubApi((url) => {
      if (url.pathname === '/api/userData') return jsonResponse({ userData: testUser() });
      if (url.pathname === '/api/payments') return jsonResponse({ ...earnings(), role: 'user' });
      return undefined;
    });
    renderWithProviders(<PaymentsPage role="user" />, { route: '/user/payments' });

    expect(await screen.findByLabelText('Your payments')).toHaveTextContent('Charged in all');
    expect(screen.queryByRole('region', { name: 'Payouts' })).not.toBeInTheDocument();
    expect(callsOf(fetchMock).filter((call) => /payout/.test(call))).toEqual([]);
  });
});
