import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleSession } from '@/lib/api/console';
import { stubApi } from '@/testing/fake-api';
import { jsonResponse } from '@/testing/render';
import { bookingsRoute } from '../testing/booking-fixtures';
import { meRoute, TOKEN } from '../testing/console-fixtures';
import { renderConsole, requestOf } from '../testing/render-console';

beforeEach(() => consoleSession.signIn(TOKEN));
afterEach(() => {
  consoleSession.signOut();
  sessionStorage.clear();
});

const CHECKED_AT = '2026-12-06T10:00:00.000Z';

function ledgerServer(ledger: () => Response) {
  return stubApi(
    meRoute,
    bookingsRoute(() => jsonResponse({ bookings: [] }), undefined, ledger),
  );
}

describe('the ledger check', () => {
  it('runs on demand and says when everything adds up', async () => {
    const fetchMock = ledgerServer(() => jsonResponse({ checkedAt: CHECKED_AT, differences: [] }));
    const { user } = renderConsole('/console/bookings');
    const panel = screen.getByRole('region', { name: 'Ledger' });
    expect(fetchMock.mock.calls.map(requestOf).some((r) => r.url === '/api/console/ledger')).toBe(false);
    await user.click(within(panel).getByRole('button', { name: 'Check the ledger now' }));
    expect(await within(panel).findByText('Everything adds up.')).toBeInTheDocument();
    expect(
      within(panel).getByText((_, el) => el?.tagName === 'TIME' && el.getAttribute('datetime') === CHECKED_AT),
    ).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(requestOf).find((r) => r.url === '/api/console/ledger')).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
    });
  });

  it('lists the differences it found', async () => {
    ledgerServer(() =>
      jsonResponse({
        checkedAt: CHECKED_AT,
        differences: [
          { kind: 'unbalanced', message: 'Transaction tx1 does not balance (off by $0.01)', key: 'tx1' },
          { kind: 'negative', message: 'Account trainer:t1 is below zero (-$12.00)', account: 'trainer:t1' },
        ],
      }),
    );
    const { user } = renderConsole('/console/bookings');
    await user.click(screen.getByRole('button', { name: 'Check the ledger now' }));
    const list = await screen.findByRole('list', { name: 'Differences' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('unbalanced');
    expect(items[0]).toHaveTextContent('Transaction tx1 does not balance (off by $0.01)');
    expect(items[1]).toHaveTextContent('negative');
    expect(screen.getByText('2 differences')).toBeInTheDocument();
    expect(screen.queryByText('Everything adds up.')).not.toBeInTheDocument();
  });

  it('says when the check could not run', async () => {
    ledgerServer(() => jsonResponse({ statusCode: 500, message: 'Something broke' }, 500));
    const { user } = renderConsole('/console/bookings');
    await user.click(screen.getByRole('button', { name: 'Check the ledger now' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The ledger could not be checked. Something broke');
  });
});
