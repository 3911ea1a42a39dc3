import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { testTrainer, testUser } from '@/testing/accounts';
import { makeTrainer, stubApi } from '@/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { SettingsPage } from './settings-page';

const logIn = (role: 'user' | 'trainer') => {
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userType', role);
};

afterEach(() => localStorage.clear());

describe('SettingsPage navigation', () => {
  it('gives a trainer’s availability, packages and payouts their own places in the settings navigation, after contact info', async () => {
    logIn('trainer');
    stubApi((url) => {
      if (url.pathname === '/api/trainerData') return jsonResponse({ trainerData: testTrainer() });
      if (url.pathname === '/api/trainer/availability')
        return jsonResponse({
          timeZone: 'Africa/Cairo',
          weekly: [],
          minNoticeHours: 12,
          bufferMinutes: 0,
          overrides: [],
          location: null,
        });
      if (url.pathname === '/api/trainerData/t1')
        return jsonResponse({
          trainerData: makeTrainer({ packages: [{ _id: 'p1', sessions: 5, price: 900, perSession: 180, validityMonths: 3 }] }),
        });
      if (url.pathname === '/api/trainer/payout') return jsonResponse({ email: 'karim@paypal.example' });
      if (url.pathname === '/api/trainer/certificates') return jsonResponse({ certificates: [], verified: false });
      if (url.pathname === '/api/payouts')
        return jsonResponse({
          payouts: [
            {
              _id: 'p1',
              amount: 450,
              currency: 'USD',
              status: 'paid',
              createdAt: '2026-11-20T10:00:00.000Z',
              sessions: 2,
              email: 'karim@paypal.example',
            },
          ],
        });
      return undefined;
    });
    renderWithProviders(<SettingsPage role="trainer" />, { route: '/trainer/settings' });

    const nav = await screen.findByRole('navigation', { name: 'Settings sections' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual([
      'Personal Details',
      'Photo',
      'Contact Info',
      'Availability',
      'Packages',
      'Payouts',
      'Certificates',
      'Change password',
      'Notifications',
      'Delete Account',
    ]);
    expect(within(nav).getByRole('link', { name: 'Availability' })).toHaveAttribute('href', '#availability');
    expect(await screen.findByRole('region', { name: 'Availability' })).toHaveAttribute('id', 'availability');
    expect(within(nav).getByRole('link', { name: 'Packages' })).toHaveAttribute('href', '#packages');
    const packages = screen.getByRole('region', { name: 'Packages' });
    expect(packages).toHaveAttribute('id', 'packages');
    // against the trainer's own price ($250 a session)
    expect(await within(packages).findByRole('group', { name: 'Package 1' })).toHaveTextContent('$180 a session, saves $350');
    expect(within(nav).getByRole('link', { name: 'Payouts' })).toHaveAttribute('href', '#payouts');
    expect(screen.getByRole('region', { name: 'Payouts' })).toHaveAttribute('id', 'payouts');
    expect(await screen.findByLabelText('PayPal e-mail')).toHaveValue('karim@paypal.example');
    const history = await within(screen.getByRole('region', { name: 'Payouts' })).findByRole('list', { name: 'Payout history' });
    expect(within(history).getByRole('listitem')).toHaveTextContent(
      '20 Nov 2026For 2 sessionsPaid to karim@paypal.example.$450Paid',
    );
    expect(within(nav).getByRole('link', { name: 'Certificates' })).toHaveAttribute('href', '#certificates');
    const certificates = screen.getByRole('region', { name: 'Certificates' });
    expect(certificates).toHaveAttribute('id', 'certificates');
    expect(await within(certificates).findByText('You have not uploaded a certificate yet.')).toBeInTheDocument();
  });

  it('leaves availability, payouts and certificates out of a user’s settings', async () => {
    logIn('user');
    stubApi((url) => (url.pathname === '/api/userData' ? jsonResponse({ userData: testUser() }) : undefined));
    renderWithProviders(<SettingsPage role="user" />, { route: '/user/settings' });

    const nav = await screen.findByRole('navigation', { name: 'Settings sections' });
    expect(within(nav).queryByRole('link', { name: 'Availability' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Availability' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Payouts' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Payouts' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Packages' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Packages' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Certificates' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Certificates' })).not.toBeInTheDocument();
  });
});
