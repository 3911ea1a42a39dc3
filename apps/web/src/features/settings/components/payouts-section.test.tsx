import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { callsOf, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { PayoutsSection } from './payouts-section';

const logInAsTrainer = () => {
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userType', 'trainer');
};

afterEach(() => localStorage.clear());

const renderSection = () => renderWithProviders(<PayoutsSection />, { route: '/trainer/settings' });

describe('PayoutsSection', () => {
  it('says payouts wait without an address, checks the e-mail with the shared rules, saves it and shows the server’s message', async () => {
    logInAsTrainer();
    let sent: unknown;
    let saved: string | null = null;
    const fetchMock = stubApi((url, init) => {
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
    expect(section).toHaveTextContent('Your share of a session becomes payable 24 hours after it ends.');
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
    stubApi((url) => (url.pathname === '/api/trainer/payout' ? jsonResponse({ email: 'karim@paypal.example' }) : undefined));
    renderSection();
    expect(await screen.findByLabelText('PayPal e-mail')).toHaveValue('karim@paypal.example');
    expect(screen.getByText(/^Payouts go to/)).toHaveTextContent('Payouts go to karim@paypal.example.');
  });

  it('shows the server’s refusal: a field message under the field, any other in the banner', async () => {
    logInAsTrainer();
    let puts = 0;
    stubApi((url, init) => {
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
    stubApi((url) => {
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
});
