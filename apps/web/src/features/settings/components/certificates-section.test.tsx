import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CERTIFICATE_MSG, type TCertificate } from '@spotter/shared';
import { callsOf, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { CertificatesSection } from './certificates-section';

const logInAsTrainer = () => {
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userType', 'trainer');
};

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

const makeCertificate = (overrides: Partial<TCertificate> = {}): TCertificate => ({
  _id: 'c1',
  issuer: 'National Academy of Sports Medicine',
  expiresOn: '2030-06-30',
  status: 'pending',
  current: false,
  mime: 'application/pdf',
  bytes: 120_000,
  createdAt: '2026-11-28T10:00:00.000Z',
  decidedAt: null,
  decisionReason: null,
  ...overrides,
});

/** GET /api/trainer/certificates answering these; POST answering `upload`. */
const serveCertificates =
  (list: () => { certificates: TCertificate[]; verified: boolean }, upload?: (body: FormData) => Response) =>
  (url: URL, init: RequestInit) => {
    if (url.pathname !== '/api/trainer/certificates') return undefined;
    if (init.method === 'POST') return upload?.(init.body as FormData);
    return jsonResponse(list());
  };

const pdf = (name = 'first-aid.pdf', type = 'application/pdf', size = 1000) => new File([new Uint8Array(size)], name, { type });

const renderSection = () =>
  renderWithProviders(<CertificatesSection />, { route: '/trainer/settings', userEventOptions: { applyAccept: false } });

describe('CertificatesSection', () => {
  it('lists the certificates with their status in words, and says whether the trainer is a verified coach', async () => {
    logInAsTrainer();
    stubApi(
      serveCertificates(() => ({
        verified: true,
        certificates: [
          makeCertificate(),
          makeCertificate({ _id: 'c2', issuer: 'Egyptian Fitness Federation', status: 'approved', current: true }),
          makeCertificate({ _id: 'c3', issuer: 'Gym Co', status: 'rejected', decisionReason: 'The scan is blurry' }),
          makeCertificate({ _id: 'c4', issuer: 'Old Academy', status: 'approved', current: false, expiresOn: '2025-01-31' }),
        ],
      })),
    );
    renderSection();
    const section = screen.getByRole('region', { name: 'Certificates' });
    expect(section).toHaveTextContent('An operator will check it');
    expect(
      await within(section).findByText('You are a verified coach: your card and profile show the badge.'),
    ).toBeInTheDocument();
    const list = within(section).getByRole('region', { name: 'Your certificates' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(4);
    expect(items[0]).toHaveTextContent('Waiting for review');
    expect(items[1]).toHaveTextContent('Approved until 30 Jun 2030');
    expect(items[2]).toHaveTextContent('Rejected: The scan is blurry');
    expect(items[3]).toHaveTextContent('Expired');
    expect(within(items[0]).getByRole('button', { name: /^Open file: National Academy of Sports Medicine/ })).toBeInTheDocument();
  });

  it('says when there are none, and that the trainer is not verified yet', async () => {
    logInAsTrainer();
    stubApi(serveCertificates(() => ({ verified: false, certificates: [] })));
    renderSection();
    expect(await screen.findByText('You have not uploaded a certificate yet.')).toBeInTheDocument();
    expect(screen.getByText(/^You are not a verified coach yet/)).toBeInTheDocument();
  });

  it('checks the file, the issuer and the date before sending, with the shared words by each field', async () => {
    logInAsTrainer();
    const fetchMock = stubApi(serveCertificates(() => ({ verified: false, certificates: [] })));
    const { user } = renderSection();
    await screen.findByText('You have not uploaded a certificate yet.');
    const file = screen.getByLabelText('Certificate file');
    expect(file).toHaveAttribute('accept', '.pdf,.jpg,.jpeg,.png,.webp');

    await user.click(screen.getByRole('button', { name: 'Upload certificate' }));
    expect(screen.getByText(CERTIFICATE_MSG.fileRequired)).toBeInTheDocument();
    expect(screen.getByText(CERTIFICATE_MSG.issuerRequired)).toBeInTheDocument();
    expect(screen.getByText(CERTIFICATE_MSG.expiresRequired)).toBeInTheDocument();
    expect(file).toHaveFocus();
    expect(file).toHaveAttribute('aria-invalid', 'true');
    expect(file).toHaveAccessibleDescription(expect.stringContaining(CERTIFICATE_MSG.fileRequired));

    await user.upload(file, pdf('notes.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'));
    expect(screen.getByText(CERTIFICATE_MSG.fileType)).toBeInTheDocument();
    await user.upload(file, pdf('big.pdf', 'application/pdf', 5 * 1024 * 1024 + 1));
    expect(screen.getByText(CERTIFICATE_MSG.fileTooLarge)).toBeInTheDocument();

    await user.upload(file, pdf());
    await user.type(screen.getByLabelText('Issuer'), 'NASM');
    await user.type(screen.getByLabelText('Expiry date'), '2020-01-31');
    await user.click(screen.getByRole('button', { name: 'Upload certificate' }));
    expect(screen.getByText(CERTIFICATE_MSG.expired)).toBeInTheDocument();
    expect(screen.getByLabelText('Expiry date')).toHaveFocus();
    expect(callsOf(fetchMock)).not.toContain('POST /api/trainer/certificates');
  });

  it('uploads the file with its issuer and expiry date, says the server’s words and shows it waiting for review', async () => {
    logInAsTrainer();
    let list: TCertificate[] = [];
    let sent: FormData | null = null;
    const fetchMock = stubApi(
      serveCertificates(
        () => ({ verified: false, certificates: list }),
        (body) => {
          sent = body;
          list = [makeCertificate({ issuer: 'NASM' })];
          return jsonResponse({ certificate: list[0], message: CERTIFICATE_MSG.uploaded }, 201);
        },
      ),
    );
    const { user } = renderSection();
    await screen.findByText('You have not uploaded a certificate yet.');
    await user.upload(screen.getByLabelText('Certificate file'), pdf());
    await user.type(screen.getByLabelText('Issuer'), '  NASM ');
    await user.type(screen.getByLabelText('Expiry date'), '2030-06-30');
    await user.click(screen.getByRole('button', { name: 'Upload certificate' }));

    expect(await findToast(CERTIFICATE_MSG.uploaded)).toHaveAttribute('data-type', 'success');
    expect(await screen.findByText('Waiting for review')).toBeInTheDocument();
    expect(screen.getByLabelText('Issuer')).toHaveValue('');
    const form = sent as FormData | null;
    expect(form?.get('issuer')).toBe('NASM');
    expect(form?.get('expiresOn')).toBe('2030-06-30');
    expect((form?.get('file') as File).name).toBe('first-aid.pdf');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(new Headers(post?.[1]?.headers).get('authorization')).toBe('Bearer tok');
  });

  it('shows the server’s field messages by their fields, and its other refusals as they are', async () => {
    logInAsTrainer();
    let answer = () =>
      jsonResponse(
        { statusCode: 400, code: 'VALIDATION', message: 'Check the form', errors: { file: CERTIFICATE_MSG.fileUnreadable } },
        400,
      );
    stubApi(
      serveCertificates(
        () => ({ verified: false, certificates: [] }),
        () => answer(),
      ),
    );
    const { user } = renderSection();
    await screen.findByText('You have not uploaded a certificate yet.');
    await user.upload(screen.getByLabelText('Certificate file'), pdf());
    await user.type(screen.getByLabelText('Issuer'), 'NASM');
    await user.type(screen.getByLabelText('Expiry date'), '2030-06-30');
    await user.click(screen.getByRole('button', { name: 'Upload certificate' }));
    expect(await screen.findByText(CERTIFICATE_MSG.fileUnreadable)).toBeInTheDocument();
    expect(screen.getByLabelText('Certificate file')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('Please check the highlighted fields.');

    answer = () => jsonResponse({ statusCode: 409, code: 'CONFLICT', message: CERTIFICATE_MSG.tooManyPending }, 409);
    await user.click(screen.getByRole('button', { name: 'Upload certificate' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(CERTIFICATE_MSG.tooManyPending);
  });

  it('says when the certificates could not be loaded, with a retry', async () => {
    logInAsTrainer();
    let fails = true;
    stubApi((url) =>
      url.pathname === '/api/trainer/certificates'
        ? fails
          ? jsonResponse({ statusCode: 500, message: 'Something broke' }, 500)
          : jsonResponse({ verified: false, certificates: [] })
        : undefined,
    );
    const { user } = renderSection();
    expect(await screen.findByRole('alert')).toHaveTextContent('Your certificates could not be loaded. Something broke');
    fails = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('You have not uploaded a certificate yet.')).toBeInTheDocument();
  });

  it('opens a certificate’s file with the trainer’s token in a new tab', async () => {
    logInAsTrainer();
    const fetchMock = stubApi(
      serveCertificates(() => ({ verified: false, certificates: [makeCertificate()] })),
      (url) =>
        url.pathname === '/api/trainer/certificates/c1/file'
          ? new Response('%PDF-1.7', { headers: { 'Content-Type': 'application/pdf' } })
          : undefined,
    );
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() };
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    URL.createObjectURL = vi.fn(() => 'blob:test/2');
    URL.revokeObjectURL = vi.fn();
    const { user } = renderSection();
    await user.click(await screen.findByRole('button', { name: /^Open file/ }));
    await vi.waitFor(() => expect(tab.location.href).toBe('blob:test/2'));
    const call = fetchMock.mock.calls.find(([input]) => input === '/api/trainer/certificates/c1/file');
    expect(new Headers(call?.[1]?.headers).get('authorization')).toBe('Bearer tok');
  });
});
