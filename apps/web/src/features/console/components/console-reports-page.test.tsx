import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONSOLE_MSG, REPORT_MSG, type TConsoleReport } from '@spotter/shared';
import { consoleSession } from '@/lib/api/console';
import { stubApi } from '@/testing/fake-api';
import { jsonResponse } from '@/testing/render';
import { makeReport, meRoute, TOKEN } from '../testing/console-fixtures';
import { renderConsole, requestOf } from '../testing/render-console';

beforeEach(() => consoleSession.signIn(TOKEN));
afterEach(() => {
  consoleSession.signOut();
  sessionStorage.clear();
});

const REVIEW = makeReport();
const MESSAGE = makeReport({
  _id: 'r2',
  kind: 'message',
  itemId: 'm1',
  reason: 'spam',
  note: '',
  itemText: 'Buy cheap pills',
  itemRating: null,
  itemHidden: true,
  itemReports: 3,
  subjectId: 'p3',
  subjectName: 'Sam Spammer',
});

/** A fake queue: GET answers the reports of a status, decisions answer `decide`. */
function reportsServer(reports: (status: string | null) => TConsoleReport[], decide: (id: string, decision: string) => Response) {
  return stubApi(meRoute, (url, init) => {
    const decision = /^\/api\/console\/reports\/(\w+)\/(hide|restore|dismiss)$/.exec(url.pathname);
    if (decision && init.method === 'POST') return decide(decision[1], decision[2]);
    return url.pathname === '/api/console/reports'
      ? jsonResponse({ reports: reports(url.searchParams.get('status')) })
      : undefined;
  });
}

describe('the console’s reports', () => {
  it('shows the open reports: kind, reason, note, reporter, whose it is, the item, whether hidden and how many reported it', async () => {
    const fetchMock = reportsServer(
      () => [REVIEW, MESSAGE],
      () => jsonResponse({}, 500),
    );
    renderConsole('/console/reports');
    const list = await screen.findByRole('list', { name: 'Open reports' });
    const [review, message] = within(list).getAllByRole('article');
    expect(within(review).getByRole('heading', { name: 'Review of Nadia Samir' })).toBeInTheDocument();
    expect(review).toHaveTextContent('Harassment or hate');
    expect(review).toHaveTextContent('Rude words about me');
    expect(review).toHaveTextContent('1 of 5 stars');
    expect(review).toHaveTextContent('Terrible trainer, do not go');
    expect(review).toHaveTextContent('1 person reported it');
    expect(review).toHaveTextContent('Visible');
    expect(within(review).getByRole('link', { name: 'Nadia Samir' })).toHaveAttribute('href', '/console/people/p1');
    expect(within(review).getByRole('link', { name: 'Mariam Hassan' })).toHaveAttribute('href', '/console/people/p2');
    expect(within(review).getByRole('button', { name: /^Hide/ })).toBeInTheDocument();
    expect(within(review).getByRole('button', { name: /^Dismiss/ })).toBeInTheDocument();

    expect(within(message).getByRole('heading', { name: 'Message from Sam Spammer' })).toBeInTheDocument();
    expect(message).toHaveTextContent('Spam or advertising');
    expect(message).toHaveTextContent('Hidden automatically after 3 reports');
    expect(message).toHaveTextContent('3 people reported it');
    expect(within(message).getByRole('button', { name: /^Keep hidden/ })).toBeInTheDocument();
    expect(within(message).getByRole('button', { name: /^Restore/ })).toBeInTheDocument();

    expect(fetchMock.mock.calls.map(requestOf).find((r) => r.url.startsWith('/api/console/reports'))).toMatchObject({
      url: '/api/console/reports?status=open',
      authorization: `Bearer ${TOKEN}`,
    });
    const tabs = screen.getByRole('navigation', { name: 'Reports by status' });
    expect(within(tabs).getByRole('link', { name: 'Open' })).toHaveAttribute('aria-current', 'page');
  });

  it('hides a reported item with a reason, announces the server’s message and asks for the queue again', async () => {
    let open = [REVIEW];
    const fetchMock = reportsServer(
      () => open,
      () => {
        open = [];
        return jsonResponse({ report: { ...REVIEW, status: 'hidden', itemHidden: true }, message: REPORT_MSG.hidden });
      },
    );
    const { user } = renderConsole('/console/reports');
    await user.click(await screen.findByRole('button', { name: 'Hide: review of Nadia Samir' }));
    const dialog = screen.getByRole('dialog', { name: 'Hide it?' });
    expect(dialog).toHaveTextContent('Only its author and operators will see it');
    await user.click(within(dialog).getByRole('button', { name: 'Hide it' }));
    expect(within(dialog).getByText('Give a reason: it is kept in the audit log')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Reason'), 'insults the trainer');
    await user.click(within(dialog).getByRole('button', { name: 'Hide it' }));
    const status = await screen.findByText(REPORT_MSG.hidden);
    expect(status).toHaveFocus();
    expect(await screen.findByText('No open reports.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(requestOf).find((r) => r.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/console/reports/r1/hide',
      authorization: `Bearer ${TOKEN}`,
      body: { reason: 'insults the trainer' },
    });
  });

  it('shows a refusal in the dialog (a report decided meanwhile)', async () => {
    reportsServer(
      () => [REVIEW],
      () => jsonResponse({ statusCode: 409, code: 'CONFLICT', message: REPORT_MSG.closed }, 409),
    );
    const { user } = renderConsole('/console/reports');
    await user.click(await screen.findByRole('button', { name: 'Dismiss: review of Nadia Samir' }));
    const dialog = screen.getByRole('dialog', { name: 'Dismiss the report?' });
    await user.type(within(dialog).getByLabelText('Reason'), 'nothing wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Dismiss the report' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(REPORT_MSG.closed);
  });

  it('shows the decided reports by status, without actions, with the decision', async () => {
    const fetchMock = reportsServer(
      (status) =>
        status === 'dismissed'
          ? [makeReport({ status: 'dismissed', decidedAt: '2026-11-30T10:00:00.000Z', decisionReason: 'fair criticism' })]
          : [],
      () => jsonResponse({}, 500),
    );
    const { user } = renderConsole('/console/reports');
    expect(await screen.findByText('No open reports.')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Dismissed' }));
    const list = await screen.findByRole('list', { name: 'Dismissed reports' });
    expect(list).toHaveTextContent('fair criticism');
    expect(within(list).queryByRole('button')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.map(requestOf).at(-1)?.url).toBe('/api/console/reports?status=dismissed');
  });

  it('says when the reports could not be loaded, with a retry', async () => {
    let fails = true;
    stubApi(meRoute, (url) =>
      url.pathname === '/api/console/reports'
        ? fails
          ? jsonResponse({ statusCode: 500, message: 'Something broke' }, 500)
          : jsonResponse({ reports: [] })
        : undefined,
    );
    const { user } = renderConsole('/console/reports');
    expect(await screen.findByRole('alert')).toHaveTextContent('The reports could not be loaded. Something broke');
    fails = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No open reports.')).toBeInTheDocument();
  });

  it('signs the operator out to the sign-in page when the session ended', async () => {
    stubApi(meRoute, (url) =>
      url.pathname === '/api/console/reports'
        ? jsonResponse({ statusCode: 401, code: 'TOKEN_INVALID', message: CONSOLE_MSG.signedOut }, 401)
        : undefined,
    );
    const { router } = renderConsole('/console/reports');
    expect(await screen.findByText(CONSOLE_MSG.signedOut)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/console/login');
  });
});
