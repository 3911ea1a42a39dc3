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

  it('shows three plans, each leading to the trainer sign-up', () => {
    renderWithProviders(<PricingPage />);
    expect(screen.getAllByRole('heading', { level: 2, name: /^(Starter|Pro|Studio)$/ })).toHaveLength(3);
    expect(screen.getByRole('link', { name: 'Choose Pro' })).toHaveAttribute('href', '/trainers/register');
  });
});
