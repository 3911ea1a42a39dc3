import { screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PACKAGE_MSG, type TBalance, type TPaymentsResponse } from '@spotter/shared';
import { testUser } from '@/testing/accounts';
import { callsOf, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { PaymentsPage } from './payments-page';

beforeEach(() => {
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userType', 'user');
});
afterEach(() => localStorage.clear());

const payments: TPaymentsResponse = {
  role: 'user',
  feePercent: 10,
  currency: 'USD',
  payments: [],
  totals: { count: 1, charged: 180, refunded: 0, fees: 0, net: 180 },
  upcoming: { count: 0, amount: 0, bookings: [] },
};

const makeBalance = (overrides: Partial<TBalance> = {}): TBalance => ({
  trainerId: 't1',
  trainerFirstName: 'Nadia',
  trainerLastName: 'Samir',
  amount: 144,
  perSession: 36,
  sessionsLeft: 4,
  sessions: 5,
  expiresAt: '2027-02-28T10:00:00.000Z',
  status: 'active',
  entries: [],
  ...overrides,
});

const account = (url: URL) => {
  if (url.pathname === '/api/userData') return jsonResponse({ userData: testUser() });
  if (url.pathname === '/api/payments') return jsonResponse(payments);
  return undefined;
};

const renderPage = () => renderWithProviders(<PaymentsPage role="user" />, { route: '/user/payments' });

describe('Package balances on the payments page', () => {
  it('lists each balance: trainer, amount left, sessions left of sessions, per session, expiry or no end date, a refund in progress', async () => {
    stubApi(account, (url) =>
      url.pathname === '/api/balances'
        ? jsonResponse({
            balances: [
              makeBalance(),
              makeBalance({
                trainerId: 't2',
                trainerFirstName: 'Omar',
                trainerLastName: 'Farouk',
                amount: 70,
                perSession: 35,
                sessionsLeft: 2,
                sessions: 10,
                expiresAt: null,
                status: 'refunding',
              }),
            ],
          })
        : undefined,
    );
    renderPage();

    const section = await screen.findByRole('region', { name: 'Package balances' });
    const rows = within(await within(section).findByRole('list', { name: 'Package balances' })).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Nadia Samir');
    expect(rows[0]).toHaveTextContent('4 of 5 sessions left · $36 a session');
    expect(rows[0]).toHaveTextContent('Valid until 28 Feb 2027');
    expect(rows[0]).toHaveTextContent('$144 left');
    expect(within(rows[0]).getByRole('link', { name: 'Nadia Samir' })).toHaveAttribute('href', '/trainer/profile/t1');
    expect(within(rows[0]).getByRole('button', { name: 'Refund the rest of your package with Nadia Samir' })).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('2 of 10 sessions left · $35 a session');
    expect(rows[1]).toHaveTextContent('No end date');
    expect(rows[1]).toHaveTextContent('Refund in progress');
    expect(within(rows[1]).queryByRole('button', { name: /Refund the rest/ })).not.toBeInTheDocument();
  });

  it('refunds the rest after a confirmation that states the amount, and shows the server’s message', async () => {
    let isRefunded = false;
    const fetchMock = stubApi(account, (url, init) => {
      if (url.pathname === '/api/balances')
        return jsonResponse({ balances: [makeBalance(isRefunded ? { status: 'refunding' } : {})] });
      if (url.pathname === '/api/balances/t1/refund' && init.method === 'POST') {
        isRefunded = true;
        return jsonResponse({ message: PACKAGE_MSG.refundStarted, refundedAmount: 144 });
      }
      return undefined;
    });
    const { user } = renderPage();

    await user.click(await screen.findByRole('button', { name: 'Refund the rest of your package with Nadia Samir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund $144?' });
    expect(dialog).toHaveTextContent('The unused $144 goes back to the card or PayPal account you paid with');
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(callsOf(fetchMock)).not.toContain('POST /api/balances/t1/refund');

    await user.click(screen.getByRole('button', { name: 'Refund the rest of your package with Nadia Samir' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Refund $144' }));
    expect(await findToast(PACKAGE_MSG.refundStarted)).toHaveAttribute('data-type', 'success');
    const section = screen.getByRole('region', { name: 'Package balances' });
    expect(within(section).getByRole('status')).toHaveTextContent(PACKAGE_MSG.refundStarted);
    expect(await within(section).findByText('Refund in progress')).toBeInTheDocument();
  });

  it('shows a refusal (409) in the dialog', async () => {
    stubApi(account, (url, init) => {
      if (url.pathname === '/api/balances') return jsonResponse({ balances: [makeBalance()] });
      if (url.pathname === '/api/balances/t1/refund' && init.method === 'POST')
        return jsonResponse({ message: PACKAGE_MSG.nothingToRefund, statusCode: 409, code: 'CONFLICT' }, 409);
      return undefined;
    });
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Refund the rest of your package with Nadia Samir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund $144?' });
    await user.click(within(dialog).getByRole('button', { name: 'Refund $144' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(PACKAGE_MSG.nothingToRefund);
  });

  it('says when there are none, and shows a failed load with Retry', async () => {
    let calls = 0;
    stubApi(account, (url) => {
      if (url.pathname !== '/api/balances') return undefined;
      calls += 1;
      return calls === 1
        ? jsonResponse({ message: 'Service unavailable', statusCode: 503 }, 503)
        : jsonResponse({ balances: [] });
    });
    const { user } = renderPage();
    const section = await screen.findByRole('region', { name: 'Package balances' });
    const alert = await within(section).findByRole('alert');
    expect(alert).toHaveTextContent('Could not load your package balances');
    expect(alert).toHaveTextContent('Service unavailable');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await within(section).findByText(/^No packages yet\./)).toBeInTheDocument();
  });
});

describe('The ledger entries of a balance', () => {
  // the visitor is in Tokyo (UTC+9): 01:00Z on 1 December is 10:00 there
  const zone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Asia/Tokyo';
  });
  afterAll(() => {
    process.env.TZ = zone;
  });

  const entries: TBalance['entries'] = [
    { at: '2026-11-20T08:00:00.000Z', kind: 'package', amount: 1200, startsAt: null },
    { at: '2026-11-21T08:00:00.000Z', kind: 'redeem', amount: -240, startsAt: '2026-12-01T01:00:00.000Z' },
    { at: '2026-11-22T08:00:00.000Z', kind: 'unredeem', amount: 240, startsAt: '2026-12-01T01:00:00.000Z' },
    { at: '2026-11-23T08:00:00.000Z', kind: 'refund', amount: -720.5, startsAt: null },
    { at: '2027-02-20T08:00:00.000Z', kind: 'expire', amount: -479.5, startsAt: null },
  ];
  const serve = (balances: TBalance[]) =>
    stubApi(account, (url) => (url.pathname === '/api/balances' ? jsonResponse({ balances }) : undefined));
  const cells = (row: HTMLElement) =>
    within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);

  it('shows a few entries at once as a table: when, what, and the money in (+) or out (−)', async () => {
    serve([makeBalance({ sessions: 5, entries: entries.slice(0, 3) })]);
    renderPage();
    const table = await screen.findByRole('table', { name: 'History of your package with Nadia Samir' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Date', 'Entry', 'Amount']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map(cells)).toEqual([
      ['20 Nov 2026', 'Bought 5 sessions', '+$1,200.00'],
      ['21 Nov 2026', 'Session on Tue 1 Dec, 10:00', '\u2212$240.00'],
      ['22 Nov 2026', 'Cancelled session returned (Tue 1 Dec, 10:00)', '+$240.00'],
    ]);
    expect(screen.queryByText(/^History \(/)).not.toBeInTheDocument();
  });

  it('folds a long history into a “History” disclosure, refunds and expiry included', async () => {
    serve([makeBalance({ sessions: 5, entries })]);
    const { user } = renderPage();
    const summary = await screen.findByText('History (5 entries)');
    const details = summary.closest('details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    await user.click(summary);
    expect(details.open).toBe(true);
    const table = within(details).getByRole('table', { name: 'History of your package with Nadia Samir' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map(cells).slice(3)).toEqual([
      ['23 Nov 2026', 'Refunded to you', '\u2212$720.50'],
      ['20 Feb 2027', 'Expired (went to the trainer)', '\u2212$479.50'],
    ]);
  });

  it('shows no table for a balance without entries', async () => {
    serve([makeBalance()]);
    renderPage();
    await screen.findByRole('list', { name: 'Package balances' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
