import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SETTINGS_MSG } from '@spotter/shared';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { PersonalDetailsForm } from './personal-details-form';
import { testTrainer, testUser } from '@/testing/accounts';

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

  it.each(['user', 'trainer'] as const)('lets a %s change the city, with the list as suggestions', async (role) => {
    const fetchMock = vi.fn(async () => jsonResponse({ message: 'Your details are saved' }));
    vi.stubGlobal('fetch', fetchMock);
    const account = role === 'user' ? testUser({ city: '', country: '' }) : testTrainer({ city: '', country: '' });
    const { user } = renderWithProviders(<PersonalDetailsForm role={role} account={account} />);

    const city = screen.getByLabelText('City');
    expect(city).toHaveValue('');
    expect(screen.getByLabelText('Country')).toHaveValue('Egypt');
    expect(document.getElementById(city.getAttribute('list') ?? '')?.querySelectorAll('option').length).toBeGreaterThan(5);
    await user.type(city, 'Tanta');
    await user.click(screen.getByRole('button', { name: 'Save details' }));

    expect(await screen.findByText('Your details are saved')).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(`/api/${role}/edit`);
    expect(JSON.parse(init.body as string)).toMatchObject({ city: 'Tanta', country: 'Egypt' });
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
    // a blank title is sent as null: the server reads an empty string as "unchanged"
    expect(JSON.parse(init.body as string)).toEqual({
      firstName: 'Mariam',
      lastName: 'Adel',
      email: 'mona@example.com',
      title: null,
      description: null,
      city: 'Cairo',
      country: 'Egypt',
    });
    expect(JSON.parse(localStorage.getItem('userData') ?? '{}')).toMatchObject({ firstName: 'Mariam' });
  });

  it('asks for the current password only when the e-mail changes, and sends it', async () => {
    const fetchMock = vi.fn(async () =>
      jsonResponse({ message: 'Your details are saved. We sent a verification link to your new e-mail' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderWithProviders(<PersonalDetailsForm role="user" account={testUser()} />);
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();

    const email = screen.getByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'new@example.com');
    const current = screen.getByLabelText('Current password');
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText(SETTINGS_MSG.currentPasswordForEmail)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.type(current, 'Strong12');
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText(/We sent a verification link/)).toBeInTheDocument();
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(init.body as string)).toMatchObject({ email: 'new@example.com', currentPassword: 'Strong12' });
    // the new address is now the saved one: no password field until it changes again
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
  });

  it('does not send a password when the e-mail is unchanged, and shows a wrong one under its field', async () => {
    const fetchMock = vi.fn(async () =>
      jsonResponse(
        { message: SETTINGS_MSG.wrongPassword, statusCode: 400, errors: { currentPassword: SETTINGS_MSG.wrongPassword } },
        400,
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderWithProviders(<PersonalDetailsForm role="user" account={testUser()} />);
    const email = screen.getByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'new@example.com');
    await user.type(screen.getByLabelText('Current password'), 'Wrong123');
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText(SETTINGS_MSG.wrongPassword)).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');

    await user.clear(email);
    await user.type(email, 'MONA@example.com');
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
    fetchMock.mockImplementation(async () => jsonResponse({ message: 'Your details are saved' }));
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText('Your details are saved')).toBeInTheDocument();
    const [, init] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect(JSON.parse(init.body as string)).not.toHaveProperty('currentPassword');
  });

  it('shows a taken e-mail under the Email field', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          {
            message: 'An account with this email already exists',
            statusCode: 409,
            errors: { email: 'An account with this email already exists' },
          },
          409,
        ),
      ),
    );
    const { user } = renderWithProviders(<PersonalDetailsForm role="user" account={testUser()} />);
    const email = screen.getByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'taken@example.com');
    await user.type(screen.getByLabelText('Current password'), 'Strong12');
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
