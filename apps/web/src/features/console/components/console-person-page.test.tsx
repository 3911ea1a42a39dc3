import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONSOLE_MSG, PEOPLE_MSG, type TPersonPageResponse } from '@spotter/shared';
import { consoleSession } from '@/lib/api/console';
import { stubApi } from '@/testing/fake-api';
import { jsonResponse } from '@/testing/render';
import { makeAuditEntry, makePerson, makePersonPage, makeReport, meRoute, TOKEN } from '../testing/console-fixtures';
import { renderConsole, requestOf } from '../testing/render-console';

beforeEach(() => consoleSession.signIn(TOKEN));
afterEach(() => {
  consoleSession.signOut();
  sessionStorage.clear();
});

const FULL_PAGE = makePersonPage({
  bookings: [
    {
      _id: 'b1',
      withId: 'p2',
      withName: 'Mariam Hassan',
      startsAt: '2026-12-10T09:00:00.000Z',
      status: 'confirmed',
      priceCents: 15050,
    },
  ],
  payments: [
    {
      _id: 'pay1',
      bookingId: 'b1',
      amountCents: 15050,
      refundedCents: 5000,
      status: 'partially_refunded',
      createdAt: '2026-12-01T09:00:00.000Z',
    },
  ],
  reviews: [
    {
      _id: 'rv1',
      trainerId: 'p1',
      userId: 'p2',
      by: 'other',
      rating: 1,
      comment: 'Terrible trainer, do not go',
      hidden: true,
      createdAt: '2026-11-20T09:00:00.000Z',
    },
  ],
  reports: [makeReport({ itemHidden: true, itemReports: 3 })],
  audit: [makeAuditEntry({ action: 'report.hide', reason: 'looked at it' })],
});

/** A fake server for one person: GET answers `page`, the actions answer `act`. */
function personServer(page: () => TPersonPageResponse, act: (action: string, body: unknown) => Response) {
  return stubApi(meRoute, (url, init) => {
    const action = /^\/api\/console\/people\/p1\/(suspend|restore|delete)$/.exec(url.pathname)?.[1];
    if (action && init.method === 'POST') return act(action, JSON.parse(String(init.body)));
    return url.pathname === '/api/console/people/p1' ? jsonResponse(page()) : undefined;
  });
}

describe('a person’s page in the console', () => {
  it('shows their facts, bookings, payments in money, reviews, the reports against them and the audit entries', async () => {
    personServer(
      () => FULL_PAGE,
      () => jsonResponse({}, 500),
    );
    renderConsole('/console/people/p1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Nadia Samir' })).toBeInTheDocument();
    expect(screen.getByText('nadia@example.com (verified)')).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Strength coach')).toBeInTheDocument();

    const bookings = screen.getByRole('region', { name: 'Bookings' });
    expect(within(bookings).getByRole('link', { name: 'Mariam Hassan' })).toHaveAttribute('href', '/console/people/p2');
    expect(bookings).toHaveTextContent('$150.50');

    const payments = screen.getByRole('region', { name: 'Payments' });
    expect(payments).toHaveTextContent('$150.50');
    expect(payments).toHaveTextContent('$50');

    const reviews = screen.getByRole('region', { name: 'Reviews' });
    expect(reviews).toHaveTextContent('About them');
    expect(within(reviews).getByText('Hidden')).toBeInTheDocument();

    const reports = screen.getByRole('list', { name: 'Reports against them' });
    expect(reports).toHaveTextContent('Hidden automatically after 3 reports');
    expect(reports).toHaveTextContent('Harassment or hate');
    expect(reports).toHaveTextContent('3 people reported it');

    const audit = screen.getByRole('region', { name: 'Audit log entries about them' });
    expect(audit).toHaveTextContent('report.hide');
    expect(audit).toHaveTextContent('looked at it');
    expect(screen.getByRole('link', { name: 'Open in the audit log' })).toHaveAttribute('href', '/console?targetId=p1');
  });

  it('suspends with a reason: the dialog says what happens, needs a reason, and the server’s message is announced', async () => {
    let person = makePerson();
    const fetchMock = personServer(
      () => makePersonPage({ person }),
      (_action, body) => {
        person = makePerson({
          status: 'suspended',
          suspendedAt: '2026-12-06T10:00:00.000Z',
          suspensionReason: (body as { reason: string }).reason,
        });
        return jsonResponse({ person, message: PEOPLE_MSG.suspended });
      },
    );
    const { user } = renderConsole('/console/people/p1');
    const suspend = await screen.findByRole('button', { name: 'Suspend' });
    await user.click(suspend);

    const dialog = screen.getByRole('dialog', { name: 'Suspend Nadia Samir?' });
    expect(dialog).toHaveTextContent('They cannot sign in');
    expect(dialog).toHaveTextContent('refunded in full');
    const reason = within(dialog).getByLabelText('Reason');
    expect(reason).toHaveFocus();

    await user.type(reason, 'no');
    await user.click(within(dialog).getByRole('button', { name: 'Suspend the account' }));
    expect(within(dialog).getByText('Give a reason: it is kept in the audit log')).toBeInTheDocument();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock.mock.calls.map(requestOf).some((r) => r.method === 'POST')).toBe(false);

    await user.type(reason, 't paying, spam');
    await user.click(within(dialog).getByRole('button', { name: 'Suspend the account' }));
    const status = await screen.findByText(PEOPLE_MSG.suspended);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(status).toHaveFocus();
    expect(fetchMock.mock.calls.map(requestOf).find((r) => r.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/console/people/p1/suspend',
      authorization: `Bearer ${TOKEN}`,
      body: { reason: 'not paying, spam' },
    });
    expect(await screen.findByRole('button', { name: 'Restore' })).toBeInTheDocument();
    expect(screen.getByText(/The reason they read when they try to sign in: not paying, spam/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Suspend' })).not.toBeInTheDocument();
  });

  it('shows the server’s refusal in the dialog, and Escape closes it with the focus back on the button', async () => {
    personServer(
      () => makePersonPage(),
      () => jsonResponse({ statusCode: 409, code: 'CONFLICT', message: PEOPLE_MSG.alreadySuspended }, 409),
    );
    const { user } = renderConsole('/console/people/p1');
    const suspend = await screen.findByRole('button', { name: 'Suspend' });
    await user.click(suspend);
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText('Reason'), 'spam again');
    await user.click(within(dialog).getByRole('button', { name: 'Suspend the account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(PEOPLE_MSG.alreadySuspended);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(suspend).toHaveFocus();
  });

  it('says deleting cannot be undone, and cancelling sends nothing', async () => {
    const fetchMock = personServer(
      () => makePersonPage(),
      () => jsonResponse({}, 500),
    );
    const { user } = renderConsole('/console/people/p1');
    const remove = await screen.findByRole('button', { name: 'Delete' });
    await user.click(remove);
    const dialog = screen.getByRole('dialog', { name: 'Delete Nadia Samir?' });
    expect(dialog).toHaveTextContent('This cannot be undone');
    expect(dialog).toHaveTextContent('anonymised');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(remove).toHaveFocus();
    expect(fetchMock.mock.calls.map(requestOf).some((r) => r.method === 'POST')).toBe(false);
  });

  it('offers nothing to do to a deleted account', async () => {
    personServer(
      () => makePersonPage({ person: makePerson({ status: 'deleted' }) }),
      () => jsonResponse({}, 500),
    );
    renderConsole('/console/people/p1');
    expect(await screen.findByText('Deleted')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Suspend|Restore|Delete/ })).not.toBeInTheDocument();
    expect(screen.getByText('No bookings.')).toBeInTheDocument();
  });

  it('says when there is no such person', async () => {
    stubApi(meRoute, (url) =>
      url.pathname === '/api/console/people/nobody'
        ? jsonResponse({ statusCode: 404, code: 'NOT_FOUND', message: PEOPLE_MSG.notFound }, 404)
        : undefined,
    );
    renderConsole('/console/people/nobody');
    expect(await screen.findByRole('heading', { level: 1, name: 'No such person' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(PEOPLE_MSG.notFound);
    expect(screen.getByRole('link', { name: 'Back to people' })).toHaveAttribute('href', '/console/people');
  });

  it('signs the operator out to the sign-in page when the session ended', async () => {
    stubApi(meRoute, (url) =>
      url.pathname === '/api/console/people/p1'
        ? jsonResponse({ statusCode: 401, code: 'TOKEN_INVALID', message: CONSOLE_MSG.signedOut }, 401)
        : undefined,
    );
    const { router } = renderConsole('/console/people/p1');
    expect(await screen.findByText(CONSOLE_MSG.signedOut)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/console/login');
  });
});
