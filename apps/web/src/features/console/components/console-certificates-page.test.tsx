import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CERTIFICATE_MSG, CONSOLE_MSG, type TConsoleCertificate } from '@spotter/shared';
import { consoleSession } from '@/lib/api/console';
import { stubApi } from '@/testing/fake-api';
import { jsonResponse } from '@/testing/render';
import { makeCertificate, meRoute, TOKEN } from '../testing/console-fixtures';
import { renderConsole, requestOf } from '../testing/render-console';

beforeEach(() => consoleSession.signIn(TOKEN));
afterEach(() => {
  consoleSession.signOut();
  sessionStorage.clear();
  vi.restoreAllMocks();
});

/** A fake queue: GET answers the certificates of a status, decisions answer `decide`. */
function certificatesServer(
  certificates: (status: string | null) => TConsoleCertificate[],
  decide: (id: string, decision: string) => Response = () => jsonResponse({}, 500),
) {
  return stubApi(meRoute, (url, init) => {
    const decision = /^\/api\/console\/certificates\/(\w+)\/(approve|reject)$/.exec(url.pathname);
    if (decision && init.method === 'POST') return decide(decision[1], decision[2]);
    if (url.pathname === '/api/console/certificates/c1/file') {
      return new Response('%PDF-1.7', { headers: { 'Content-Type': 'application/pdf' } });
    }
    return url.pathname === '/api/console/certificates'
      ? jsonResponse({ certificates: certificates(url.searchParams.get('status')) })
      : undefined;
  });
}

describe('the console’s certificates', () => {
  it('shows the pending certificates: trainer, issuer, expiry, upload date, the file, and approve or reject', async () => {
    const fetchMock = certificatesServer(() => [makeCertificate()]);
    renderConsole('/console/certificates');
    expect(screen.getByRole('link', { name: 'Certificates' })).toHaveAttribute('aria-current', 'page');
    const list = await screen.findByRole('list', { name: 'Pending certificates' });
    const [card] = within(list).getAllByRole('article');
    expect(
      within(card).getByRole('heading', { name: 'National Academy of Sports Medicine, certificate of Nadia Samir' }),
    ).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Nadia Samir' })).toHaveAttribute('href', '/console/people/p1');
    expect(card).toHaveTextContent('nadia@example.com');
    expect(card).toHaveTextContent('30 Jun 2027');
    expect(card).toHaveTextContent('Pending');
    expect(within(card).getByRole('button', { name: /^Open the file/ })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Approve: certificate of Nadia Samir' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Reject: certificate of Nadia Samir' })).toBeInTheDocument();
    expect(screen.getByText('1 pending certificate, oldest first')).toBeInTheDocument();
    expect(screen.getByLabelText('Status')).toHaveValue('pending');
    expect(fetchMock.mock.calls.map(requestOf).find((r) => r.url.startsWith('/api/console/certificates'))).toMatchObject({
      url: '/api/console/certificates?status=pending',
      authorization: `Bearer ${TOKEN}`,
    });
  });

  it('says when none are waiting', async () => {
    certificatesServer(() => []);
    renderConsole('/console/certificates');
    expect(await screen.findByText('No certificates waiting.')).toBeInTheDocument();
  });

  it('approves without a reason, announces the server’s message, focuses it and asks for the queue again', async () => {
    let pending = [makeCertificate()];
    const fetchMock = certificatesServer(
      () => pending,
      () => {
        pending = [];
        return jsonResponse({ certificate: { ...makeCertificate(), status: 'approved' }, message: CERTIFICATE_MSG.approved });
      },
    );
    const { user } = renderConsole('/console/certificates');
    const approve = await screen.findByRole('button', { name: 'Approve: certificate of Nadia Samir' });
    await user.click(approve);
    const dialog = screen.getByRole('dialog', { name: 'Approve the certificate?' });
    expect(within(dialog).getByLabelText('Reason (optional)')).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    const status = await screen.findByText(CERTIFICATE_MSG.approved);
    expect(status).toHaveFocus();
    expect(await screen.findByText('No certificates waiting.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(requestOf).find((r) => r.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/console/certificates/c1/approve',
      authorization: `Bearer ${TOKEN}`,
      body: {},
    });
  });

  it('rejects only with a reason, which is sent; Escape closes the dialog and gives the focus back', async () => {
    const fetchMock = certificatesServer(
      () => [makeCertificate()],
      () => jsonResponse({ certificate: { ...makeCertificate(), status: 'rejected' }, message: CERTIFICATE_MSG.rejected }),
    );
    const { user } = renderConsole('/console/certificates');
    const reject = await screen.findByRole('button', { name: 'Reject: certificate of Nadia Samir' });
    await user.click(reject);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(reject).toHaveFocus();

    await user.click(reject);
    const dialog = screen.getByRole('dialog', { name: 'Reject the certificate?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByText('Give a reason: it is kept in the audit log')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Reason'), 'The name on it is not the trainer’s');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText(CERTIFICATE_MSG.rejected)).toHaveFocus();
    expect(fetchMock.mock.calls.map(requestOf).find((r) => r.method === 'POST')).toMatchObject({
      url: '/api/console/certificates/c1/reject',
      body: { reason: 'The name on it is not the trainer’s' },
    });
  });

  it('shows a refusal in the dialog (decided meanwhile)', async () => {
    certificatesServer(
      () => [makeCertificate()],
      () => jsonResponse({ statusCode: 409, code: 'CONFLICT', message: CERTIFICATE_MSG.alreadyDecided }, 409),
    );
    const { user } = renderConsole('/console/certificates');
    await user.click(await screen.findByRole('button', { name: 'Approve: certificate of Nadia Samir' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve the certificate?' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(CERTIFICATE_MSG.alreadyDecided);
  });

  it('opens the file with the console’s token in a new tab through an object URL', async () => {
    const fetchMock = certificatesServer(() => [makeCertificate()]);
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() };
    const openSpy = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    URL.createObjectURL = vi.fn(() => 'blob:test/1');
    URL.revokeObjectURL = vi.fn();
    const { user } = renderConsole('/console/certificates');
    await user.click(await screen.findByRole('button', { name: /^Open the file/ }));
    await vi.waitFor(() => expect(tab.location.href).toBe('blob:test/1'));
    expect(openSpy).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    expect(fetchMock.mock.calls.map(requestOf).find((r) => r.url.endsWith('/file'))).toMatchObject({
      url: '/api/console/certificates/c1/file',
      authorization: `Bearer ${TOKEN}`,
    });
  });

  it('lists the decided ones by status, without decisions, with the reason', async () => {
    const fetchMock = certificatesServer((status) =>
      status === 'rejected'
        ? [makeCertificate({ status: 'rejected', decidedAt: '2026-11-30T10:00:00.000Z', decisionReason: 'Blurry scan' })]
        : [],
    );
    const { user } = renderConsole('/console/certificates');
    expect(await screen.findByText('No certificates waiting.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Status'), 'rejected');
    const list = await screen.findByRole('list', { name: 'Rejected certificates' });
    expect(list).toHaveTextContent('Blurry scan');
    expect(within(list).queryByRole('button', { name: /Approve|Reject/ })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.map(requestOf).at(-1)?.url).toBe('/api/console/certificates?status=rejected');
  });

  it('says when the queue could not be loaded, with a retry, and signs out when the session ended', async () => {
    let answer = () => jsonResponse({ statusCode: 500, message: 'Something broke' }, 500);
    stubApi(meRoute, (url) => (url.pathname === '/api/console/certificates' ? answer() : undefined));
    const { user, router } = renderConsole('/console/certificates');
    expect(await screen.findByRole('alert')).toHaveTextContent('The certificates could not be loaded. Something broke');
    answer = () => jsonResponse({ statusCode: 401, code: 'TOKEN_INVALID', message: CONSOLE_MSG.signedOut }, 401);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(CONSOLE_MSG.signedOut)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/console/login');
  });
});
