import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PACKAGE_MSG, type TTrainerPackage } from '@spotter/shared';
import { makeTrainer, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { ProfilePackages } from './trainer-packages';

const packages: TTrainerPackage[] = [
  { _id: 'p1', sessions: 5, price: 180, perSession: 36, validityMonths: 3 },
  { _id: 'p2', sessions: 10, price: 399, perSession: 39.9, validityMonths: null },
];
const trainer = makeTrainer({ price: 40, packages });

const logInAs = (role: 'user' | 'trainer') => {
  localStorage.setItem('token', 'tok');
  localStorage.setItem('userType', role);
};

const renderSection = (shown = trainer) =>
  renderWithProviders(<ProfilePackages trainer={shown} />, { route: '/trainer/profile/t1' });

describe('ProfilePackages', () => {
  it('shows a visitor the packages in words, with a log-in link instead of Buy', async () => {
    stubApi();
    renderSection();
    const section = screen.getByRole('region', { name: 'Packages' });
    const rows = within(within(section).getByRole('list', { name: 'Packages of Nadia' })).getAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('p')?.textContent)).toEqual([
      '5 sessions · $180 · $36 a session · save $20 · valid 3 months',
      '10 sessions · $399 · $39.90 a session · save $1 · no end date',
    ]);
    expect(within(rows[0]).getByRole('link', { name: 'Log in to buy' })).toHaveAttribute(
      'href',
      `/users/login?next=${encodeURIComponent('/trainer/profile/t1')}`,
    );
    expect(within(section).queryByRole('button', { name: /^Buy/ })).not.toBeInTheDocument();
  });

  it('offers a trainer nothing to buy', async () => {
    logInAs('trainer');
    stubApi();
    renderSection();
    expect(screen.getByRole('list', { name: 'Packages of Nadia' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Buy/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log in to buy' })).not.toBeInTheDocument();
  });

  it('is not there when the trainer sells no packages', () => {
    stubApi();
    renderSection(makeTrainer({ packages: [] }));
    expect(screen.queryByRole('region', { name: 'Packages' })).not.toBeInTheDocument();
  });

  it('lets a user buy one in a dialog: a toast, then the balance shows on the profile', async () => {
    logInAs('user');
    let isBought = false;
    stubApi((url, init) => {
      if (url.pathname === '/api/balances')
        return jsonResponse({
          balances: isBought
            ? [
                {
                  trainerId: 't1',
                  trainerFirstName: 'Nadia',
                  trainerLastName: 'Samir',
                  amount: 399,
                  perSession: 39.9,
                  sessionsLeft: 10,
                  sessions: 10,
                  expiresAt: null,
                  status: 'active',
                  entries: [],
                },
              ]
            : [],
        });
      if (url.pathname === '/api/payments/config') return jsonResponse({ provider: 'demo', currency: 'USD' });
      if (url.pathname === '/api/orders' && init.method === 'POST') {
        expect(JSON.parse(init.body as string)).toEqual({ packageId: 'p2' });
        return jsonResponse({ id: 'O1', status: 'CREATED', amount: { currency_code: 'USD', value: '399.00' } });
      }
      if (url.pathname === '/api/orders/O1/capture') {
        isBought = true;
        return jsonResponse({
          id: 'O1',
          status: 'COMPLETED',
          purchase_units: [{ payments: { captures: [{ id: 'C1', status: 'COMPLETED' }] } }],
        });
      }
      return undefined;
    });
    const { user } = renderSection();

    await user.click(screen.getByRole('button', { name: 'Buy 10 sessions with Nadia for $399' }));
    const dialog = await screen.findByRole('dialog', { name: 'Buy a package from Nadia' });
    expect(await within(dialog).findByText('10 sessions')).toBeInTheDocument();
    expect(within(dialog).getByText('No end date')).toBeInTheDocument();
    expect(within(dialog).getByText(/What you pay is kept as your balance with Nadia/)).toBeInTheDocument();
    await user.click(await within(dialog).findByRole('button', { name: 'Pay $399' }));

    expect(await findToast('Package bought: your balance with Nadia is ready to book from')).toHaveAttribute(
      'data-type',
      'success',
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByTestId('balance')).toHaveTextContent('Your package: $399 left · 10 of 10 sessions left');
    expect(screen.getByTestId('balance')).toHaveTextContent('$39.90 a session · No end date');
    // one package at a time: no Buy while the balance is open, and why
    expect(screen.getByRole('list', { name: 'Packages of Nadia' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Buy / })).not.toBeInTheDocument();
    expect(screen.getByText(`${PACKAGE_MSG.haveBalance}.`)).toBeInTheDocument();
  });
});

describe('Buying a package with PayPal', () => {
  it('makes PayPal’s order from { packageId } and captures it through Spotter’s server', async () => {
    logInAs('user');
    let isBought = false;
    // PayPal's SDK, as little of it as the buttons use: one button that creates the order and approves it
    const sdk = {
      Buttons: (options: {
        createOrder: () => Promise<string>;
        onApprove: (data: { orderID: string }, actions: { restart: () => Promise<void> }) => Promise<void>;
      }) => ({
        render: (container: HTMLElement) => {
          const button = document.createElement('button');
          button.textContent = 'PayPal';
          button.addEventListener('click', () => {
            void options.createOrder().then((orderID) => options.onApprove({ orderID }, { restart: () => Promise.resolve() }));
          });
          container.append(button);
          return Promise.resolve();
        },
        close: () => Promise.resolve(),
      }),
    };
    (window as { paypal?: unknown }).paypal = sdk;
    let order: unknown;
    stubApi((url, init) => {
      if (url.pathname === '/api/balances') return jsonResponse({ balances: [] });
      if (url.pathname === '/api/payments/config')
        return jsonResponse({ provider: 'paypal', clientId: 'client', currency: 'USD' });
      if (url.pathname === '/api/orders' && init.method === 'POST') {
        order = JSON.parse(init.body as string);
        return jsonResponse({ id: 'PP1', status: 'CREATED', amount: { currency_code: 'USD', value: '180.00' } });
      }
      if (url.pathname === '/api/orders/PP1/capture' && init.method === 'POST') {
        isBought = true;
        return jsonResponse({
          id: 'PP1',
          status: 'COMPLETED',
          purchase_units: [{ payments: { captures: [{ id: 'C1', status: 'COMPLETED' }] } }],
        });
      }
      return undefined;
    });
    const { user } = renderSection();
    try {
      await user.click(screen.getByRole('button', { name: 'Buy 5 sessions with Nadia for $180' }));
      const dialog = await screen.findByRole('dialog', { name: 'Buy a package from Nadia' });
      await user.click(await within(dialog).findByRole('button', { name: 'PayPal' }));
      expect(await findToast('Package bought: your balance with Nadia is ready to book from')).toBeInTheDocument();
      expect(order).toEqual({ packageId: 'p1' });
      expect(isBought).toBe(true);
    } finally {
      delete (window as { paypal?: unknown }).paypal;
    }
  });
});
