import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TPayout } from '@spotter/shared';
import { callsOf, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { PayoutsSection } from './payouts-section';

const logInAsTrainer = () => {
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userType', 'trainer');
};

afterEach(() => localStorage.clear());

const makePayout = (overrides: Partial<TPayout> = {}): TPayout => ({
  _id: 'p1',
  amount: 450,
  currency: 'USD',
  status: 'paid',
  createdAt: '2026-11-20T10:00:00.000Z',
  sessions: 2,
  email: 'karim@paypal.example',
  ...overrides,
});

/** GET /api/payouts answering these payouts. */
const servePayouts =
  (payouts: TPayout[] = []) =>
  (url: URL) =>
    url.pathname === '/api/payouts' ? jsonResponse({ payouts }) : undefined;

const renderSection = () => renderWithProviders(<PayoutsSection />, { route: '/trainer/settings' });

describe('PayoutsSection', () => {
  it('says payouts wait without an address, checks the e-mail with the shared rules, saves it and shows the server’s message', async () => {
    logInAsTrainer();
    let sent: unknown;
    let saved: string | null = null;
    const fetchMock = stubApi(servePayouts(), (url, init) => {
      if (url.pathname !== '/api/trainer/payout') return undefined;
      if (init.method === 'PUT') {
        sent = JSON.parse(init.body as string);
        saved = (sent as { email: string }).email;
        return jsonResponse({ email: saved, message: 'Your payout address is saved' });
      }
      return jsonResponse({ email: saved });
    });
    const { user } = renderSection();

    const section = screen.getByRole('region', { name: 'Payouts' });
    expect(section).toHaveTextContent(
      'Your share of a session becomes payable 48 hours after it ends, once its client can no longer dispute it.',
    );
    expect(section).toHaveTextContent('Payouts are sent regularly, in batches, through PayPal to this address.');
    expect(await within(section).findByText('No payout address yet')).toBeInTheDocument();
    expect(within(section).getByText('Payouts wait until you add the e-mail of your PayPal account.')).toBeInTheDocument();

    const field = within(section).getByLabelText('PayPal e-mail');
    await user.type(field, 'karim@paypal');
    await user.click(within(section).getByRole('button', { name: 'Save payout address' }));
    expect(await within(section).findByText('Invalid email format')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(callsOf(fetchMock)).not.toContain('PUT /api/trainer/payout');

    await user.clear(field);
    await user.type(field, ' Karim@PayPal.example ');
    await user.click(within(section).getByRole('button', { name: 'Save payout address' }));

    expect(await findToast('Your payout address is saved')).toHaveAttribute('data-type', 'success');
    expect(sent).toEqual({ email: 'karim@paypal.example' });
    expect(await within(section).findByText('karim@paypal.example')).toBeInTheDocument();
    expect(within(section).getByText(/^Payouts go to/)).toHaveTextContent('Payouts go to karim@paypal.example.');
    expect(within(section).getByText('Your payout address is saved')).toBeInTheDocument();
    expect(within(section).queryByText('No payout address yet')).not.toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'See your earnings and payouts' })).toHaveAttribute(
      'href',
      '/trainer/payments#payouts',
    );
  });

  it('starts from the saved address', async () => {
    logInAsTrainer();
    stubApi(servePayouts(), (url) =>
      url.pathname === '/api/trainer/payout' ? jsonResponse({ email: 'karim@paypal.example' }) : undefined,
    );
    renderSection();
    expect(await screen.findByLabelText('PayPal e-mail')).toHaveValue('karim@paypal.example');
    expect(screen.getByText(/^Payouts go to/)).toHaveTextContent('Payouts go to karim@paypal.example.');
  });

  it('shows the server’s refusal: a field message under the field, any other in the banner', async () => {
    logInAsTrainer();
    let puts = 0;
    stubApi(servePayouts(), (url, init) => {
      if (url.pathname !== '/api/trainer/payout') return undefined;
      if (init.method !== 'PUT') return jsonResponse({ email: null });
      puts += 1;
      return puts === 1
        ? jsonResponse(
            {
              message: 'Validation failed',
              statusCode: 400,
              code: 'VALIDATION_FAILED',
              errors: { email: 'Invalid email format' },
            },
            400,
          )
        : jsonResponse({ message: 'Only trainers receive payouts', statusCode: 403, code: 'FORBIDDEN_ROLE' }, 403);
    });
    const { user } = renderSection();

    const field = await screen.findByLabelText('PayPal e-mail');
    await user.type(field, 'karim@paypal.example');
    await user.click(screen.getByRole('button', { name: 'Save payout address' }));
    expect(await screen.findByText('Invalid email format')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Please check the highlighted field.');

    await user.click(screen.getByRole('button', { name: 'Save payout address' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Only trainers receive payouts');
  });

  it('shows a failed load with Retry', async () => {
    logInAsTrainer();
    let calls = 0;
    stubApi(servePayouts(), (url) => {
      if (url.pathname !== '/api/trainer/payout') return undefined;
      calls += 1;
      return calls === 1
        ? jsonResponse({ message: 'Service unavailable', statusCode: 503 }, 503)
        : jsonResponse({ email: 'karim@paypal.example' });
    });
    const { user } = renderSection();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load your payout address');
    expect(alert).toHaveTextContent('Service unavailable');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByLabelText('PayPal e-mail')).toHaveValue('karim@paypal.example');
  });

  it('shows the payout history under the address, newest first: date, sessions, where it went, amount and status in words', async () => {
    logInAsTrainer();
    stubApi(
      servePayouts([
        makePayout({ _id: 'p1', status: 'paid', createdAt: '2026-11-10T10:00:00.000Z', amount: 450, sessions: 2 }),
        makePayout({ _id: 'p2', status: 'returned', createdAt: '2026-11-24T10:00:00.000Z', amount: 225, sessions: 1 }),
        makePayout({ _id: 'p3', status: 'sent', createdAt: '2026-11-26T10:00:00.000Z', amount: 112.5, sessions: 1 }),
        makePayout({ _id: 'p4', status: 'pending', createdAt: '2026-11-27T10:00:00.000Z', amount: 90, sessions: 3 }),
      ]),
      (url) => (url.pathname === '/api/trainer/payout' ? jsonResponse({ email: 'karim@paypal.example' }) : undefined),
    );
    renderSection();

    const section = screen.getByRole('region', { name: 'Payouts' });
    expect(within(section).getByRole('heading', { level: 3, name: 'Payout history' })).toBeInTheDocument();
    const history = await within(section).findByRole('list', { name: 'Payout history' });
    const rows = within(history).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      '27 Nov 2026For 3 sessionsWaiting to be sent through PayPal.$90Pending',
      '26 Nov 2026For 1 sessionSent through PayPal to karim@paypal.example; PayPal has not confirmed it yet.$112.50Sent',
      '24 Nov 2026For 1 sessionA payout could not be delivered and is back in your payable balance. Check your payout address.$225Returned',
      '10 Nov 2026For 2 sessionsPaid to karim@paypal.example.$450Paid',
    ]);
    // the address to check is right above: no link back to this same section
    expect(within(rows[2]).queryByRole('link')).not.toBeInTheDocument();
    expect(within(rows[0]).getByText('27 Nov 2026')).toHaveAttribute('datetime', '2026-11-27T10:00:00.000Z');
    expect(await within(section).findByLabelText('PayPal e-mail')).toHaveValue('karim@paypal.example');
  });

  it('says while the history loads, then that there are no payouts yet and when a share becomes payable', async () => {
    logInAsTrainer();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fetchMock = stubApi(servePayouts([]), (url) =>
      url.pathname === '/api/trainer/payout' ? jsonResponse({ email: null }) : undefined,
    );
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      if (input.startsWith('/api/payouts')) await gate;
      return fetchMock(input, init);
    });
    renderSection();

    const section = screen.getByRole('region', { name: 'Payouts' });
    expect(await within(section).findByText('Loading your payouts…')).toBeInTheDocument();
    release();
    expect(
      await within(section).findByText(
        'No payouts yet. Your share of a session becomes payable 48 hours after it ends, once its client can no longer dispute it.',
      ),
    ).toBeInTheDocument();
    expect(within(section).queryByText('Loading your payouts…')).not.toBeInTheDocument();
    expect(within(section).queryByRole('list', { name: 'Payout history' })).not.toBeInTheDocument();
    expect(within(section).getByText('No payout address yet')).toBeInTheDocument();
  });

  it('shows a failed history load with Retry, beside a working address form', async () => {
    logInAsTrainer();
    let payouts: TPayout[] | null = null;
    stubApi((url) => {
      if (url.pathname === '/api/trainer/payout') return jsonResponse({ email: 'karim@paypal.example' });
      if (url.pathname !== '/api/payouts') return undefined;
      return payouts ? jsonResponse({ payouts }) : jsonResponse({ message: 'Service unavailable', statusCode: 503 }, 503);
    });
    const { user } = renderSection();

    const section = screen.getByRole('region', { name: 'Payouts' });
    const alert = await within(section).findByRole('alert');
    expect(alert).toHaveTextContent('Could not load your payouts');
    expect(alert).toHaveTextContent('Service unavailable');
    expect(await within(section).findByLabelText('PayPal e-mail')).toHaveValue('karim@paypal.example');

    payouts = [makePayout()];
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await within(section).findByRole('list', { name: 'Payout history' })).toHaveTextContent(
      'Paid to karim@paypal.example.',
    );
    expect(within(section).queryByRole('alert')).not.toBeInTheDocument();
  });
});
