import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONSOLE_MSG, DISPUTE_MSG, type TConsoleDispute } from '@spotter/shared';
import { consoleSession } from '@/lib/api/console';
import { stubApi } from '@/testing/fake-api';
import { jsonResponse } from '@/testing/render';
import { meRoute, TOKEN } from '../testing/console-fixtures';
import { renderConsole, requestOf } from '../testing/render-console';

beforeEach(() => consoleSession.signIn(TOKEN));
afterEach(() => {
  consoleSession.signOut();
  sessionStorage.clear();
});

const makeDispute = (overrides: Partial<TConsoleDispute> = {}): TConsoleDispute => ({
  _id: 'd1',
  bookingId: 'b1',
  reason: 'cut-short',
  note: 'Only 30 minutes, then she left',
  createdAt: '2026-12-05T12:00:00.000Z',
  status: 'open',
  rule: null,
  outcome: null,
  refunded: null,
  decidedAt: null,
  decisionReason: null,
  userId: 'p2',
  userName: 'Mariam Hassan',
  trainerId: 'p1',
  trainerName: 'Nadia Samir',
  startsAt: '2026-12-05T09:00:00.000Z',
  endsAt: '2026-12-05T10:00:00.000Z',
  bookingStatus: 'completed',
  paid: 150,
  refundable: 120,
  ...overrides,
});

const OPEN = makeDispute();
const DECIDE = 'Decide…: Mariam Hassan’s session with Nadia Samir';

/** A fake queue: GET answers the disputes of a status, decisions answer `decide`. */
function disputesServer(disputes: (status: string | null) => TConsoleDispute[], decide: (id: string, body: unknown) => Response) {
  return stubApi(meRoute, (url, init) => {
    const decision = /^\/api\/console\/disputes\/(\w+)\/decide$/.exec(url.pathname);
    if (decision && init.method === 'POST') return decide(decision[1], JSON.parse(String(init.body)));
    return url.pathname === '/api/console/disputes'
      ? jsonResponse({ disputes: disputes(url.searchParams.get('status')) })
      : undefined;
  });
}

describe('the console’s disputes', () => {
  it('shows the open disputes: the session, both people, what went wrong, the note, what was paid and what is left', async () => {
    const fetchMock = disputesServer(
      () => [OPEN],
      () => jsonResponse({}, 500),
    );
    renderConsole('/console/disputes');
    const list = await screen.findByRole('list', { name: 'Open disputes' });
    const [card] = within(list).getAllByRole('article');
    expect(within(card).getByRole('heading', { name: 'Mariam Hassan’s session with Nadia Samir' })).toBeInTheDocument();
    expect(card).toHaveTextContent('The session was cut short');
    expect(card).toHaveTextContent('Only 30 minutes, then she left');
    expect(card).toHaveTextContent('Paid$150');
    expect(card).toHaveTextContent('Refundable$120');
    expect(within(card).getByRole('link', { name: 'Mariam Hassan' })).toHaveAttribute('href', '/console/people/p2');
    expect(within(card).getByRole('link', { name: 'Nadia Samir' })).toHaveAttribute('href', '/console/people/p1');
    expect(within(card).getByRole('button', { name: DECIDE })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Show' })).toHaveValue('open');
    expect(screen.getByRole('link', { name: 'Disputes' })).toHaveAttribute('aria-current', 'page');
    expect(fetchMock.mock.calls.map(requestOf).find((r) => r.url.startsWith('/api/console/disputes'))).toMatchObject({
      url: '/api/console/disputes?status=open',
      authorization: `Bearer ${TOKEN}`,
    });
  });

  it('decides a part refund with an amount and a reason, announces the server’s message and asks for the queue again', async () => {
    let open = [OPEN];
    const fetchMock = disputesServer(
      () => open,
      () => {
        open = [];
        return jsonResponse({ dispute: { ...OPEN, status: 'decided' }, message: DISPUTE_MSG.decided });
      },
    );
    const { user } = renderConsole('/console/disputes');
    await user.click(await screen.findByRole('button', { name: DECIDE }));
    const dialog = screen.getByRole('dialog', { name: 'Decide this dispute' });
    expect(within(dialog).getByRole('radio', { name: 'Full refund of $120' })).toHaveFocus();

    // nothing chosen: said by field, nothing sent
    await user.click(within(dialog).getByRole('button', { name: 'Send decision' }));
    expect(dialog).toHaveTextContent('Choose full refund, part refund or no refund');
    expect(dialog).toHaveTextContent('Give a reason: the user and the trainer read it');

    await user.click(within(dialog).getByRole('radio', { name: 'Part refund' }));
    await user.type(within(dialog).getByLabelText('Reason'), 'Cut short by half');
    await user.click(within(dialog).getByRole('button', { name: 'Send decision' }));
    expect(within(dialog).getByLabelText('Amount to refund')).toHaveFocus();
    expect(within(dialog).getByLabelText('Amount to refund')).toHaveAccessibleDescription(/Give an amount for a part refund/);

    await user.type(within(dialog).getByLabelText('Amount to refund'), '40.50');
    await user.click(within(dialog).getByRole('button', { name: 'Send decision' }));
    const status = await screen.findByText(DISPUTE_MSG.decided);
    expect(status).toHaveFocus();
    expect(status).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('No open disputes.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(requestOf).find((r) => r.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/console/disputes/d1/decide',
      authorization: `Bearer ${TOKEN}`,
      body: { outcome: 'refund-part', amount: 40.5, reason: 'Cut short by half' },
    });
  });

  it('puts the server’s amount error under the amount field', async () => {
    disputesServer(
      () => [OPEN],
      () =>
        jsonResponse(
          {
            statusCode: 400,
            code: 'VALIDATION_ERROR',
            message: 'Check the highlighted fields',
            errors: { amount: 'At most $120.00 is left to refund' },
          },
          400,
        ),
    );
    const { user } = renderConsole('/console/disputes');
    await user.click(await screen.findByRole('button', { name: DECIDE }));
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Part refund' }));
    await user.type(within(dialog).getByLabelText('Amount to refund'), '500');
    await user.type(within(dialog).getByLabelText('Reason'), 'Cut short by half');
    await user.click(within(dialog).getByRole('button', { name: 'Send decision' }));
    const amount = within(dialog).getByLabelText('Amount to refund');
    await screen.findByText('At most $120.00 is left to refund');
    expect(amount).toHaveAccessibleDescription(/At most \$120\.00 is left to refund/);
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(amount).toHaveFocus();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Send decision' })).toBeEnabled();
  });

  it('shows a dispute decided meanwhile (409) in the dialog', async () => {
    disputesServer(
      () => [OPEN],
      () => jsonResponse({ statusCode: 409, code: 'CONFLICT', message: DISPUTE_MSG.decidedAlready }, 409),
    );
    const { user } = renderConsole('/console/disputes');
    await user.click(await screen.findByRole('button', { name: DECIDE }));
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'No refund' }));
    await user.type(within(dialog).getByLabelText('Reason'), 'The session took place');
    await user.click(within(dialog).getByRole('button', { name: 'Send decision' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(DISPUTE_MSG.decidedAlready);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: DECIDE })).toHaveFocus();
  });

  it('shows the decided disputes with their outcome, the refund, the rule and the reason, without Decide', async () => {
    const fetchMock = disputesServer(
      (status) =>
        status === 'decided'
          ? [
              makeDispute({
                status: 'decided',
                rule: 'operator',
                outcome: 'refund-part',
                refunded: 40.5,
                decidedAt: '2026-12-06T10:00:00.000Z',
                decisionReason: 'Cut short by half',
              }),
              makeDispute({
                _id: 'd2',
                userName: 'Omar Farouk',
                status: 'decided',
                rule: 'too-late',
                outcome: 'closed',
                refunded: 0,
                decidedAt: '2026-12-06T11:00:00.000Z',
              }),
            ]
          : [],
      () => jsonResponse({}, 500),
    );
    const { user } = renderConsole('/console/disputes');
    expect(await screen.findByText('No open disputes.')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'decided');
    const list = await screen.findByRole('list', { name: 'Decided disputes' });
    const [byOperator, byRule] = within(list).getAllByRole('article');
    expect(byOperator).toHaveTextContent('Part refund: $40.50 refunded');
    expect(byOperator).toHaveTextContent('Cut short by half');
    expect(byOperator).not.toHaveTextContent('Decided by rule');
    expect(byRule).toHaveTextContent('Closed');
    expect(byRule).toHaveTextContent('Decided by rule: too late');
    expect(within(list).queryByRole('button')).toBeNull();
    expect(fetchMock.mock.calls.map(requestOf).at(-1)?.url).toBe('/api/console/disputes?status=decided');
  });

  it('says when the disputes could not be loaded, with a retry', async () => {
    let fails = true;
    stubApi(meRoute, (url) =>
      url.pathname === '/api/console/disputes'
        ? fails
          ? jsonResponse({ statusCode: 500, message: 'Something broke' }, 500)
          : jsonResponse({ disputes: [] })
        : undefined,
    );
    const { user } = renderConsole('/console/disputes');
    expect(await screen.findByText('Loading the disputes…')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('The disputes could not be loaded. Something broke');
    fails = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No open disputes.')).toBeInTheDocument();
  });

  it('signs the operator out to the sign-in page when the session ended', async () => {
    stubApi(meRoute, (url) =>
      url.pathname === '/api/console/disputes'
        ? jsonResponse({ statusCode: 401, code: 'TOKEN_INVALID', message: CONSOLE_MSG.signedOut }, 401)
        : undefined,
    );
    const { router } = renderConsole('/console/disputes');
    expect(await screen.findByText(CONSOLE_MSG.signedOut)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/console/login');
  });
});
