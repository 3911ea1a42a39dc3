import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONSOLE_MSG, type TAuditEntry } from '@spotter/shared';
import { consoleSession } from '@/lib/api/console';
import { stubApi } from '@/testing/fake-api';
import { jsonResponse } from '@/testing/render';
import { captureDownloads, renderConsole, requestOf } from '../testing/render-console';
import { AUDIT_PAGE } from './console-audit-page';

const TOKEN = 'console.token.1';
const EMAIL = 'ops@example.com';

const entry = (overrides: Partial<TAuditEntry> = {}): TAuditEntry => ({
  _id: 'a1',
  at: '2026-11-28T10:00:00.000Z',
  operatorId: 'op1',
  operatorEmail: EMAIL,
  action: 'operator.sign-in',
  targetKind: 'operator',
  targetId: 'op1',
  reason: 'signed in with an authenticator code',
  before: null,
  after: { lastSignInAt: '2026-11-28T10:00:00.000Z' },
  ...overrides,
});

const ADDED = entry({
  _id: 'a0',
  at: '2026-11-28T09:00:00.000Z',
  operatorId: null,
  operatorEmail: null,
  action: 'operator.add',
  reason: 'added on the command line',
  before: null,
  after: { email: EMAIL },
});

const meRoute = (url: URL) =>
  url.pathname === '/api/console/me' ? jsonResponse({ operator: { _id: 'op1', email: EMAIL } }) : undefined;
const auditRoute = (answer: (url: URL) => Response) => (url: URL) =>
  url.pathname === '/api/console/audit' ? answer(url) : undefined;

const auditCalls = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls.map(requestOf).filter((r) => r.url.startsWith('/api/console/audit?') || r.url === '/api/console/audit');

beforeEach(() => consoleSession.signIn(TOKEN));
afterEach(() => {
  consoleSession.signOut();
  sessionStorage.clear();
});

describe('the console’s audit log', () => {
  it('lists the entries newest first: when, who, action, target and reason, with the state before and after', async () => {
    const fetchMock = stubApi(
      meRoute,
      auditRoute(() => jsonResponse({ entries: [entry(), ADDED] })),
    );
    const { user } = renderConsole('/console');

    const table = await screen.findByRole('table', { name: /Audit log entries/ });
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[0])
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['When', 'Who', 'Action', 'Target', 'Reason']);
    expect(rows[1]).toHaveTextContent(EMAIL);
    expect(rows[1]).toHaveTextContent('Signed in');
    expect(rows[1]).toHaveTextContent('operator.sign-in');
    expect(rows[1]).toHaveTextContent('signed in with an authenticator code');
    expect(within(rows[1]).getByText(/2026/).closest('time')).toHaveAttribute('dateTime', '2026-11-28T10:00:00.000Z');
    expect(rows[3]).toHaveTextContent('Command line');
    expect(rows[3]).toHaveTextContent('Operator added');

    const changes = within(rows[4]).getByText('Before and after');
    await user.click(changes);
    expect(within(rows[4]).getByText(/"email": "ops@example.com"/)).toBeVisible();

    expect(auditCalls(fetchMock)[0]).toEqual({
      method: 'GET',
      url: `/api/console/audit?limit=${AUDIT_PAGE}`,
      authorization: `Bearer ${TOKEN}`,
      body: undefined,
    });
    expect(screen.getByText('2 entries shown')).toBeInTheDocument();
    expect(screen.getByText('That is the oldest entry.')).toBeInTheDocument();
  });

  it('filters by action, target and operator, and loads older entries with the same filters', async () => {
    const page = Array.from({ length: AUDIT_PAGE }, (_, i) =>
      entry({ _id: `e${i}`, at: new Date(Date.UTC(2026, 10, 28, 12, 0, 0) - i * 1000).toISOString() }),
    );
    const fetchMock = stubApi(
      meRoute,
      auditRoute((url) => jsonResponse({ entries: url.searchParams.get('before') ? [ADDED] : page })),
    );
    const { user, router } = renderConsole('/console');
    await screen.findByText(`${AUDIT_PAGE} entries shown`);

    await user.selectOptions(screen.getByLabelText('Action'), 'operator.sign-in');
    await user.type(screen.getByLabelText('Target id'), ' op1 ');
    await user.type(screen.getByLabelText('Operator id'), 'op1');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await screen.findByText(`${AUDIT_PAGE} entries shown (filtered)`);
    expect(router.state.location.search).toBe('?action=operator.sign-in&targetId=op1&operatorId=op1');
    expect(auditCalls(fetchMock).at(-1)?.url).toBe(
      `/api/console/audit?action=operator.sign-in&targetId=op1&operatorId=op1&limit=${AUDIT_PAGE}`,
    );

    await user.click(screen.getByRole('button', { name: 'Load older' }));
    await screen.findByText(`${AUDIT_PAGE + 1} entries shown (filtered)`);
    const older = new URL(auditCalls(fetchMock).at(-1)!.url, 'http://localhost');
    expect(Object.fromEntries(older.searchParams)).toEqual({
      action: 'operator.sign-in',
      operatorId: 'op1',
      targetId: 'op1',
      before: page.at(-1)!.at,
      limit: String(AUDIT_PAGE),
    });
    expect(screen.queryByRole('button', { name: 'Load older' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(router.state.location.search).toBe('');
    expect(screen.getByLabelText('Action')).toHaveValue('');
  });

  it('says when nothing matches, and when the log could not be loaded, with a retry', async () => {
    let fails = true;
    stubApi(
      meRoute,
      auditRoute(() =>
        fails ? jsonResponse({ statusCode: 500, message: 'Something broke' }, 500) : jsonResponse({ entries: [] }),
      ),
    );
    const { user } = renderConsole('/console?action=operator.remove');
    expect(await screen.findByRole('alert')).toHaveTextContent('The audit log could not be loaded. Something broke');
    fails = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No entries match these filters.')).toBeInTheDocument();
    expect(screen.getByLabelText('Action')).toHaveValue('operator.remove');
  });

  it('exports the CSV with the filters and the console token, as a file download', async () => {
    const fetchMock = stubApi(
      meRoute,
      auditRoute(() => jsonResponse({ entries: [entry()] })),
      (url) =>
        url.pathname === '/api/console/audit.csv'
          ? new Response('at,action\n2026-11-28T10:00:00.000Z,operator.sign-in\n', {
              headers: {
                'Content-Type': 'text/csv; charset=utf-8',
                'Content-Disposition': 'attachment; filename="spotter-audit-log.csv"',
              },
            })
          : undefined,
    );
    const downloads = captureDownloads();
    try {
      const { user } = renderConsole('/console?action=operator.sign-in');
      await screen.findByText('1 entry shown (filtered)');
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      await vi.waitFor(() => expect(downloads.files).toHaveLength(1));
      expect(downloads.files[0].name).toBe('spotter-audit-log.csv');
      expect(await downloads.files[0].blob.text()).toContain('operator.sign-in');
      const csv = fetchMock.mock.calls.map(requestOf).find((r) => r.url.startsWith('/api/console/audit.csv'));
      expect(csv).toMatchObject({ url: '/api/console/audit.csv?action=operator.sign-in', authorization: `Bearer ${TOKEN}` });
    } finally {
      downloads.restore();
    }
  });

  it('signs the operator out to the sign-in page with the server’s message when the session ended', async () => {
    stubApi(
      meRoute,
      auditRoute(() => jsonResponse({ statusCode: 401, code: 'TOKEN_INVALID', message: CONSOLE_MSG.signedOut }, 401)),
    );
    const { router } = renderConsole('/console');
    expect(await screen.findByText(CONSOLE_MSG.signedOut)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/console/login');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeInTheDocument();
    expect(sessionStorage.getItem('spotter.console.token')).toBeNull();
  });

  it('signs out on request: the tab forgets the token and the server ends the console sessions', async () => {
    const fetchMock = stubApi(
      meRoute,
      auditRoute(() => jsonResponse({ entries: [] })),
      (url) => (url.pathname === '/api/console/logout' ? new Response(null, { status: 204 }) : undefined),
    );
    const { user, router } = renderConsole('/console');
    expect(await screen.findByText('The audit log has no entries yet.')).toBeInTheDocument();
    expect(await screen.findByText(EMAIL)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/console/login');
    expect(sessionStorage.getItem('spotter.console.token')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
    const logout = fetchMock.mock.calls.map(requestOf).filter((r) => r.url === '/api/console/logout');
    expect(logout).toEqual([expect.objectContaining({ method: 'POST', authorization: `Bearer ${TOKEN}` })]);
  });

  it('sends a visitor without a console session to the sign-in page, asking nothing', async () => {
    consoleSession.signOut();
    const fetchMock = stubApi();
    const { router } = renderConsole('/console');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/console/login');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows a list on a phone', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    stubApi(
      meRoute,
      auditRoute(() => jsonResponse({ entries: [entry(), ADDED] })),
    );
    renderConsole('/console');
    const list = await screen.findByRole('list', { name: /Audit log entries/ });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[1]).getByText('Command line')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
