import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { PersonalDetailsForm } from './personal-details-form';
import { testTrainer, testUser } from './test-account';

describe('PersonalDetailsForm', () => {
  it('starts from the saved details', () => {
    renderWithProviders(<PersonalDetailsForm role="user" account={testUser({ title: 'Runner' })} />);
    expect(screen.getByLabelText('First Name')).toHaveValue('Mona');
    expect(screen.getByLabelText('Email')).toHaveValue('mona@example.com');
    expect(screen.getByLabelText('Title')).toHaveValue('Runner');
    expect(screen.queryByLabelText('Price')).not.toBeInTheDocument();
  });

  it('shows the spec message once a 26-character title is touched, and sends nothing', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderWithProviders(<PersonalDetailsForm role="user" account={testUser()} />);

    await user.type(screen.getByLabelText('Title'), 'x'.repeat(26));
    expect(screen.queryByText('Max number of characters is 25')).not.toBeInTheDocument();
    await user.tab();

    expect(await screen.findByText('Max number of characters is 25')).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks trainers for a price of at least 100', async () => {
    const { user } = renderWithProviders(<PersonalDetailsForm role="trainer" account={testTrainer()} />);
    const price = screen.getByLabelText('Price');
    expect(price).toHaveValue(250);
    await user.clear(price);
    await user.type(price, '99');
    await user.tab();
    expect(await screen.findByText('Minimum is 100')).toBeInTheDocument();
  });

  it('saves the details, shows the server message and keeps the user profile in storage', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ message: 'Your details are saved' }));
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderWithProviders(<PersonalDetailsForm role="user" account={testUser()} />);

    const first = screen.getByLabelText('First Name');
    await user.clear(first);
    await user.type(first, 'Mariam');
    await user.click(screen.getByRole('button', { name: 'Save details' }));

    expect(await screen.findByText('Your details are saved')).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/user/edit');
    expect(init.method).toBe('PATCH');
    expect(JSON.parse(init.body as string)).toMatchObject({ firstName: 'Mariam', lastName: 'Adel', title: '' });
    expect(JSON.parse(localStorage.getItem('userData') ?? '{}')).toMatchObject({ firstName: 'Mariam' });
  });

  it('shows a taken e-mail under the Email field', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          { message: 'An account with this email already exists', statusCode: 409, errors: { email: 'An account with this email already exists' } },
          409,
        ),
      ),
    );
    const { user } = renderWithProviders(<PersonalDetailsForm role="user" account={testUser()} />);
    const email = screen.getByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'taken@example.com');
    await user.click(screen.getByRole('button', { name: 'Save details' }));

    expect(await screen.findByText('An account with this email already exists')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('Please check the highlighted fields.');
  });

  it('shows a failure that has no field', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const { user } = renderWithProviders(<PersonalDetailsForm role="user" account={testUser()} />);
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/could not reach/i);
  });
});
