import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { PricingPage } from './pricing-page';

describe('PricingPage', () => {
  it('switches the visible prices between monthly and yearly', async () => {
    const { user } = renderWithProviders(<PricingPage />);
    const pro = () => screen.getByTestId('price-Pro');

    expect(screen.getByRole('radio', { name: 'Monthly' })).toBeChecked();
    expect(pro()).toHaveTextContent('$19/ month');

    await user.click(screen.getByRole('radio', { name: 'Yearly 2 months free' }));

    expect(screen.getByRole('radio', { name: 'Yearly 2 months free' })).toBeChecked();
    expect(pro()).toHaveTextContent('$190/ year');
    expect(pro()).toHaveTextContent('$15.83 a month, billed once a year');
    expect(screen.getByTestId('price-Studio')).toHaveTextContent('$490/ year');
    expect(screen.queryByText('$19')).not.toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Monthly' }));
    expect(pro()).toHaveTextContent('$19/ month');
  });

  it('shows three plans; only Starter, with the 10% fee the server takes, can be chosen today', () => {
    renderWithProviders(<PricingPage />);
    expect(screen.getAllByRole('heading', { level: 2, name: /^(Starter|Pro|Studio)$/ })).toHaveLength(3);
    expect(screen.getByRole('link', { name: 'Start for free' })).toHaveAttribute('href', '/trainers/register');
    expect(screen.getByText('10% fee per paid session')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Choose Pro' })).not.toBeInTheDocument();
    expect(screen.getAllByText('Coming soon')).toHaveLength(2);
  });

  it('promises a refund only for a cancellation more than 24 hours ahead', () => {
    renderWithProviders(<PricingPage />);
    expect(screen.getByText(/cancelled more than 24 hours before it starts is refunded/)).toBeInTheDocument();
  });
});
