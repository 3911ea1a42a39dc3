import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONSOLE_MSG } from '@spotter/shared';
import { consoleSession } from '@/lib/api/console';
import { stubApi } from '@/testing/fake-api';
import { jsonResponse } from '@/testing/render';
import { bookingsRoute, makeBooking } from '../testing/booking-fixtures';
import { meRoute, TOKEN } from '../testing/console-fixtures';
import { renderConsole, requestOf } from '../testing/render-console';

const bookingCalls = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls.map(requestOf).filter((r) => r.url.startsWith('/api/console/bookings'));

const CARD = makeBooking({ refunded: 25.5, refundable: 124.5, disputed: true });
const BALANCE = makeBooking({
  _id: 'b2',
  userId: 'u2',
  userName: 'Sara Adel',
  status: 'confirmed',
  price: 80,
  paidWith: 'balance',
  refunded: 80,
  refundable: 0,
});
/** A package's session with its price left to refund: refunded to the card through its package (docs/product.md#refunds-by-operators). */
const BALANCE_LEFT = makeBooking({
  _id: 'b3',
  userId: 'u3',
  userName: 'Hana Ali',
  status: 'confirmed',
  price: 90,
  paidWith: 'balance',
  refundable: 90,
});

beforeEach(() => consoleSession.signIn(TOKEN));
afterEach(() => {
  consoleSession.signOut();
  sessionStorage.clear();
});

describe('the console’s sessions and money', () => {
  it('lists sessions: time, member and trainer links, status, price, how paid, refunded, refundable, disputed', async () => {
    const fetchMock = stubApi(
      meRoute,
      bookingsRoute(() => jsonResponse({ bookings: [CARD, BALANCE, BALANCE_LEFT] })),
    );
    const { user, router } = renderConsole('/console/bookings');
    expect(screen.getByRole('heading', { level: 1, name: 'Sessions and money' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Sessions, newest first' });
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[0])
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Session', 'Member', 'Trainer', 'Status', 'Price', 'Paid with', 'Refunded', 'Refundable', 'Action']);
    expect(rows[1]).toHaveTextContent('Disputed');
    expect(rows[1]).toHaveTextContent('Completed');
    expect(rows[1]).toHaveTextContent('$150');
    expect(rows[1]).toHaveTextContent('Card');
    expect(rows[1]).toHaveTextContent('$25.50');
    expect(rows[1]).toHaveTextContent('$124.50');
    expect(within(rows[1]).getByRole('button', { name: /^Refund…/ })).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('Package or series');
    expect(rows[2]).not.toHaveTextContent('Disputed');
    // nothing left to refund: no action
    expect(within(rows[2]).queryByRole('button')).not.toBeInTheDocument();
    // paid from a balance with money left: refundable like a card payment
    expect(rows[3]).toHaveTextContent('Package or series');
    expect(within(rows[3]).getByRole('button', { name: /^Refund…/ })).toBeInTheDocument();
    expect(screen.getByText('3 sessions shown')).toBeInTheDocument();
    expect(bookingCalls(fetchMock)[0]).toMatchObject({ url: '/api/console/bookings', authorization: `Bearer ${TOKEN}` });

    expect(within(rows[1]).getByRole('link', { name: 'Nadia Samir' })).toHaveAttribute('href', '/console/people/t1');
    await user.click(within(rows[1]).getByRole('link', { name: 'Omar Fathy' }));
    expect(router.state.location.pathname).toBe('/console/people/u1');
  });

  it('searches by words and status, kept in the address', async () => {
    const fetchMock = stubApi(
      meRoute,
      bookingsRoute((url) => jsonResponse({ bookings: url.searchParams.get('q') ? [BALANCE] : [CARD, BALANCE] })),
    );
    const { user, router } = renderConsole('/console/bookings');
    await screen.findByText('2 sessions shown');

    await user.type(screen.getByLabelText('Session id, name or e-mail'), '  sara ');
    await user.selectOptions(screen.getByLabelText('Status'), 'no-show');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('1 session shown');
    expect(router.state.location.search).toBe('?q=sara&status=no-show');
    expect(bookingCalls(fetchMock).at(-1)?.url).toBe('/api/console/bookings?q=sara&status=no-show');

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(router.state.location.search).toBe('');
    expect(screen.getByLabelText('Status')).toHaveValue('');
  });

  it('says when no sessions match, and when they could not be loaded, with a retry', async () => {
    let fails = true;
    stubApi(
      meRoute,
      bookingsRoute(() =>
        fails ? jsonResponse({ statusCode: 500, message: 'Something broke' }, 500) : jsonResponse({ bookings: [] }),
      ),
    );
    const { user } = renderConsole('/console/bookings?q=nobody');
    expect(await screen.findByRole('alert')).toHaveTextContent('Sessions could not be loaded. Something broke');
    fails = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No sessions match.')).toBeInTheDocument();
    expect(screen.getByLabelText('Session id, name or e-mail')).toHaveValue('nobody');
  });

  it('signs the operator out to the sign-in page with the server’s message when the session ended', async () => {
    stubApi(
      meRoute,
      bookingsRoute(() => jsonResponse({ statusCode: 401, code: 'TOKEN_INVALID', message: CONSOLE_MSG.signedOut }, 401)),
    );
    const { router } = renderConsole('/console/bookings');
    expect(await screen.findByText(CONSOLE_MSG.signedOut)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/console/login');
  });

  it('sends a signed-out operator to the sign-in page', () => {
    consoleSession.signOut();
    stubApi(meRoute);
    const { router } = renderConsole('/console/bookings');
    expect(router.state.location.pathname).toBe('/console/login');
  });

  it('shows cards on a phone', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    stubApi(
      meRoute,
      bookingsRoute(() => jsonResponse({ bookings: [CARD, BALANCE] })),
    );
    renderConsole('/console/bookings');
    const list = await screen.findByRole('list', { name: 'Sessions, newest first' });
    const [card, balance] = within(list).getAllByRole('listitem');
    expect(card).toHaveTextContent('Disputed');
    expect(within(card).getByRole('button', { name: /^Refund…/ })).toBeInTheDocument();
    expect(within(balance).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('has Sessions in the console’s navigation, as the current page', async () => {
    stubApi(
      meRoute,
      bookingsRoute(() => jsonResponse({ bookings: [] })),
    );
    renderConsole('/console/bookings');
    const nav = screen.getByRole('navigation', { name: 'Console' });
    expect(within(nav).getByRole('link', { name: 'Sessions' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'People' })).not.toHaveAttribute('aria-current');
    expect(await screen.findByText('No sessions yet.')).toBeInTheDocument();
  });
});
