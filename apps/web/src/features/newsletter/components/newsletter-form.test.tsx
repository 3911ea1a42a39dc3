import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { NewsletterForm } from './newsletter-form';

describe('NewsletterForm', () => {
  it('shows the confirmation next to the form and empties the field', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ message: 'Thanks for subscribing!' })),
    );
    const { user } = renderWithProviders(<NewsletterForm />);

    await user.type(screen.getByLabelText('Write your email'), 'mona@example.com');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));

    const form = screen.getByLabelText('Write your email').closest('form');
    const status = await screen.findByText('Thanks for subscribing!');
    expect(form).toContainElement(status);
    expect(status).toHaveAttribute('role', 'status');
    expect(screen.getByLabelText('Write your email')).toHaveValue('');
  });

  it('shows a refusal next to the form as an alert', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ message: 'You are already subscribed', statusCode: 409 }, 409)),
    );
    const { user } = renderWithProviders(<NewsletterForm />);

    await user.type(screen.getByLabelText('Write your email'), 'mona@example.com');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('You are already subscribed');
  });
});
