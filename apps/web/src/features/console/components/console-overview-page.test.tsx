import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONSOLE_MSG, type TConsoleOverviewDay, type TConsoleOverviewResponse } from '@spotter/shared';
import { consoleSession } from '@/lib/api/console';
import { stubApi } from '@/testing/fake-api';
import { jsonResponse } from '@/testing/render';
import { meRoute, TOKEN } from '../testing/console-fixtures';
import { renderConsole, requestOf } from '../testing/render-console';
import { formatDay } from './overview-chart';

const ZERO = { bookings: 0, cancellations: 0, paid: 0, refunded: 0, paidOut: 0, fees: 0, newUsers: 0, newTrainers: 0 };
const DAY = 24 * 60 * 60_000;
const DAYS = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 10, 8) + i * DAY).toISOString().slice(0, 10));

function makeOverview(
  busy: Record<number, Partial<TConsoleOverviewDay>> = {},
  waiting = { openReports: 2, openDisputes: 1, pendingVerifications: 3 },
) {
  const days = DAYS.map((day, i) => ({ day, ...ZERO, ...busy[i] }));
  const totals = { ...ZERO };
  for (const d of days) for (const key of Object.keys(ZERO) as Array<keyof typeof ZERO>) totals[key] += d[key];
  return { from: DAYS[0], to: DAYS[29], days, totals, waiting } satisfies TConsoleOverviewResponse;
}

const BUSY = makeOverview({
  3: { bookings: 1, paid: 150, fees: 15, newUsers: 1 },
  27: { bookings: 4, cancellations: 1, paid: 600, refunded: 150, fees: 60, newTrainers: 2 },
  29: { paidOut: 135.5, newUsers: 3 },
});

const overviewRoute = (answer: () => Response) => (url: URL) => (url.pathname === '/api/console/overview' ? answer() : undefined);

beforeEach(() => consoleSession.signIn(TOKEN));
afterEach(() => {
  consoleSession.signOut();
  sessionStorage.clear();
});

describe('the console’s overview', () => {
  it('shows the 30 days’ sums and what waits, with links to the queues', async () => {
    const fetchMock = stubApi(
      meRoute,
      overviewRoute(() => jsonResponse(BUSY)),
    );
    renderConsole('/console/overview');
    expect(screen.getByRole('heading', { level: 1, name: 'Overview' })).toBeInTheDocument();
    const totals = await screen.findByRole('region', { name: 'Last 30 days' });
    const tile = (label: string) => within(totals).getByText(label).closest('div')!;
    expect(tile('Sessions booked')).toHaveTextContent('5');
    expect(tile('Cancellations')).toHaveTextContent('1');
    expect(tile('Paid')).toHaveTextContent('$750');
    expect(tile('Refunded')).toHaveTextContent('$150');
    expect(tile('Paid out')).toHaveTextContent('$135.50');
    expect(tile('Platform fees')).toHaveTextContent('$75');
    expect(tile('New members')).toHaveTextContent('4');
    expect(tile('New trainers')).toHaveTextContent('2');

    const waiting = screen.getByRole('region', { name: 'Waiting' });
    expect(within(waiting).getByRole('link', { name: /Open reports\s*2/ })).toHaveAttribute('href', '/console/reports');
    expect(within(waiting).getByRole('link', { name: /Verifications waiting\s*3/ })).toHaveAttribute(
      'href',
      '/console/certificates',
    );
    expect(within(waiting).getByText('Open disputes').parentElement).toHaveTextContent('1');
    expect(fetchMock.mock.calls.map(requestOf).find((r) => r.url === '/api/console/overview')).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
    });
    // the console's navigation starts with it
    const nav = screen.getByRole('navigation', { name: 'Console' });
    expect(within(nav).getAllByRole('link')[0]).toHaveTextContent('Overview');
    expect(within(nav).getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  });

  it('summarises each chart for screen readers and shows its numbers as a table', async () => {
    stubApi(
      meRoute,
      overviewRoute(() => jsonResponse(BUSY)),
    );
    const { user } = renderConsole('/console/overview');
    const chart = await screen.findByRole('region', { name: 'Bookings and cancellations per day' });
    const picture = within(chart).getByRole('img');
    expect(picture).toHaveAccessibleName(
      `Bookings and cancellations per day, ${formatDay(DAYS[0])} to ${formatDay(DAYS[29])}. ` +
        `Sessions booked: 5 in all, most on ${formatDay(DAYS[27])} (4); Cancellations: 1 in all, most on ${formatDay(DAYS[27])} (1).`,
    );
    expect(screen.getByRole('region', { name: 'Money per day' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'New members and trainers per day' })).toBeInTheDocument();

    await user.click(within(chart).getByText('Show as table'));
    const table = within(chart).getByRole('table', { name: 'Bookings and cancellations per day, by day' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(31);
    expect(
      within(rows[0])
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Day', 'Sessions booked', 'Cancellations']);
    expect(within(rows[28]).getByRole('rowheader')).toHaveTextContent(formatDay(DAYS[27]));
    expect(
      within(rows[28])
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['4', '1']);
    expect(
      within(rows[1])
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['0', '0']);

    const money = screen.getByRole('region', { name: 'Money per day' });
    await user.click(within(money).getByText('Show as table'));
    const moneyRows = within(within(money).getByRole('table')).getAllByRole('row');
    expect(
      within(moneyRows[30])
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['$0', '$0', '$135.50', '$0']);
  });

  it('draws a day whose refunds gave back more fees than it took below zero, inside the chart', async () => {
    stubApi(
      meRoute,
      overviewRoute(() => jsonResponse(makeOverview({ 3: { paid: 150, fees: 15 }, 20: { refunded: 50.5, fees: -5.05 } }))),
    );
    const { user } = renderConsole('/console/overview');
    const money = await screen.findByRole('region', { name: 'Money per day' });
    const totals = screen.getByRole('region', { name: 'Last 30 days' });
    expect(within(totals).getByText('Platform fees').closest('div')).toHaveTextContent('$9.95');
    // the scale runs from -$6 to $200; every line stays inside the picture
    expect(within(money).getByText('-$6')).toBeInTheDocument();
    expect(within(money).getByText('$200')).toBeInTheDocument();
    const heights = [...money.querySelectorAll('polyline')].flatMap((line) =>
      line
        .getAttribute('points')!
        .split(' ')
        .map((point) => Number(point.split(',')[1])),
    );
    expect(heights.length).toBe(4 * 30);
    for (const h of heights) {
      expect(h).toBeGreaterThanOrEqual(0);
      expect(h).toBeLessThanOrEqual(180);
    }
    await user.click(within(money).getByText('Show as table'));
    const rows = within(within(money).getByRole('table')).getAllByRole('row');
    expect(
      within(rows[21])
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['$0', '$50.50', '$0', '-$5.05']);
  });

  it('says so when nothing happened in the 30 days, and still shows what waits', async () => {
    stubApi(
      meRoute,
      overviewRoute(() => jsonResponse(makeOverview({}, { openReports: 0, openDisputes: 0, pendingVerifications: 0 }))),
    );
    renderConsole('/console/overview');
    expect(await screen.findByText('No bookings, payments or sign-ups in the last 30 days.')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Open reports\s*0/ })).toBeInTheDocument();
  });

  it('says when the overview could not be loaded, and tries again', async () => {
    let fails = true;
    stubApi(
      meRoute,
      overviewRoute(() => (fails ? jsonResponse({ statusCode: 500, message: 'Something broke' }, 500) : jsonResponse(BUSY))),
    );
    const { user } = renderConsole('/console/overview');
    expect(await screen.findByRole('alert')).toHaveTextContent('The overview could not be loaded. Something broke');
    fails = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Last 30 days' })).toBeInTheDocument();
  });

  it('signs the operator out to the sign-in page when the session ended', async () => {
    stubApi(
      meRoute,
      overviewRoute(() => jsonResponse({ statusCode: 401, code: 'TOKEN_INVALID', message: CONSOLE_MSG.signedOut }, 401)),
    );
    const { router } = renderConsole('/console/overview');
    expect(await screen.findByText(CONSOLE_MSG.signedOut)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/console/login');
  });

  it('sends a visitor without a console session to the sign-in page', async () => {
    consoleSession.signOut();
    stubApi(meRoute);
    const { router } = renderConsole('/console/overview');
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/console/login');
  });
});
