import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { ContactForm } from './contact-form';
import { testUser } from '@/testing/accounts';

describe('ContactForm', () => {
  it('starts from the account and saves the numbers as numbers with the Add button', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ message: 'Your contact info is saved' }));
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderWithProviders(<ContactForm role="user" account={testUser()} />);

    expect(screen.getByLabelText('Phone')).toHaveValue('01012345678');
    expect(screen.getByLabelText('Height')).toHaveValue(170);
    const weight = screen.getByLabelText('Weight');
    await user.clear(weight);
    await user.type(weight, '63');
    await user.type(screen.getByLabelText('Website'), 'https://mona.example.com');
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await screen.findByText('Your contact info is saved')).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/user/contact');
    expect(JSON.parse(init.body as string)).toEqual({
      phone: '01012345678',
      website: 'https://mona.example.com',
      weight: 63,
      height: 170,
    });
  });

  it('validates the phone once touched', async () => {
    const { user } = renderWithProviders(<ContactForm role="user" account={testUser()} />);
    const phone = screen.getByLabelText('Phone');
    await user.clear(phone);
    await user.type(phone, '0301234567');
    await user.tab();
    expect(await screen.findByText('Invalid phone number')).toBeInTheDocument();
  });
});
