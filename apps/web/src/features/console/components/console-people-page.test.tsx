import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONSOLE_MSG } from '@spotter/shared';
import { consoleSession } from '@/lib/api/console';
import { stubApi } from '@/testing/fake-api';
import { jsonResponse } from '@/testing/render';
import { makePersonSummary, meRoute, TOKEN } from '../testing/console-fixtures';
import { renderConsole, requestOf } from '../testing/render-console';

const peopleRoute = (answer: (url: URL) => Response) => (url: URL) =>
  url.pathname === '/api/console/people' ? answer(url) : undefined;
const peopleCalls = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls.map(requestOf).filter((r) => r.url.startsWith('/api/console/people'));

const NADIA = makePersonSummary({ openReports: 2 });
const OMAR = makePersonSummary({
  _id: 'p2',
  role: 'user',
  firstName: 'Omar',
  lastName: 'Fathy',
  email: 'omar@example.com',
  city: 'Giza',
  status: 'suspended',
});

beforeEach(() => consoleSession.signIn(TOKEN));
afterEach(() => {
  consoleSession.signOut();
  sessionStorage.clear();
});

describe('the console’s people', () => {
  it('lists people with a link to each, their e-mail, city, role, status and open reports', async () => {
    const fetchMock = stubApi(
      meRoute,
      peopleRoute(() => jsonResponse({ people: [NADIA, OMAR] })),
    );
    const { user, router } = renderConsole('/console/people');
    expect(screen.getByRole('heading', { level: 1, name: 'People' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'People, newest first' });
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[0])
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Name', 'E-mail', 'City', 'Role', 'Status', 'Open reports']);
    expect(rows[1]).toHaveTextContent('nadia@example.com');
    expect(rows[1]).toHaveTextContent('Trainer');
    expect(rows[1]).toHaveTextContent('Active');
    expect(rows[1]).toHaveTextContent('2');
    expect(rows[2]).toHaveTextContent('Member');
    expect(rows[2]).toHaveTextContent('Suspended');
    expect(screen.getByText('2 people shown')).toBeInTheDocument();
    expect(peopleCalls(fetchMock)[0]).toMatchObject({ url: '/api/console/people', authorization: `Bearer ${TOKEN}` });

    await user.click(within(rows[2]).getByRole('link', { name: 'Omar Fathy' }));
    expect(router.state.location.pathname).toBe('/console/people/p2');
  });

  it('searches by words, role and status, kept in the address', async () => {
    const fetchMock = stubApi(
      meRoute,
      peopleRoute((url) => jsonResponse({ people: url.searchParams.get('q') ? [OMAR] : [NADIA, OMAR] })),
    );
    const { user, router } = renderConsole('/console/people');
    await screen.findByText('2 people shown');

    await user.type(screen.getByLabelText('Name, e-mail or city'), '  omar ');
    await user.selectOptions(screen.getByLabelText('Role'), 'user');
    await user.selectOptions(screen.getByLabelText('Status'), 'suspended');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('1 person shown');
    expect(router.state.location.search).toBe('?q=omar&role=user&status=suspended');
    expect(peopleCalls(fetchMock).at(-1)?.url).toBe('/api/console/people?q=omar&role=user&status=suspended');

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(router.state.location.search).toBe('');
    expect(screen.getByLabelText('Role')).toHaveValue('');
  });

  it('says when no one matches, and when people could not be loaded, with a retry', async () => {
    let fails = true;
    stubApi(
      meRoute,
      peopleRoute(() =>
        fails ? jsonResponse({ statusCode: 500, message: 'Something broke' }, 500) : jsonResponse({ people: [] }),
      ),
    );
    const { user } = renderConsole('/console/people?q=nobody');
    expect(await screen.findByRole('alert')).toHaveTextContent('People could not be loaded. Something broke');
    fails = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No one matches.')).toBeInTheDocument();
    expect(screen.getByLabelText('Name, e-mail or city')).toHaveValue('nobody');
  });

  it('signs the operator out to the sign-in page with the server’s message when the session ended', async () => {
    stubApi(
      meRoute,
      peopleRoute(() => jsonResponse({ statusCode: 401, code: 'TOKEN_INVALID', message: CONSOLE_MSG.signedOut }, 401)),
    );
    const { router } = renderConsole('/console/people');
    expect(await screen.findByText(CONSOLE_MSG.signedOut)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/console/login');
  });

  it('shows a list on a phone', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    stubApi(
      meRoute,
      peopleRoute(() => jsonResponse({ people: [NADIA, OMAR] })),
    );
    renderConsole('/console/people');
    const list = await screen.findByRole('list', { name: 'People, newest first' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('has the console’s navigation, with People as the current page', async () => {
    stubApi(
      meRoute,
      peopleRoute(() => jsonResponse({ people: [] })),
    );
    renderConsole('/console/people');
    const nav = screen.getByRole('navigation', { name: 'Console' });
    expect(within(nav).getByRole('link', { name: 'People' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Reports' })).toHaveAttribute('href', '/console/reports');
    expect(within(nav).getByRole('link', { name: 'Audit log' })).not.toHaveAttribute('aria-current');
    expect(await screen.findByText('No one has an account yet.')).toBeInTheDocument();
  });
});
