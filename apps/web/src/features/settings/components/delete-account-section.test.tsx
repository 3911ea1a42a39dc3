import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { DeleteAccountSection } from './delete-account-section';

describe('DeleteAccountSection', () => {
  it('asks for the password in a dialog and sends nothing without it', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderWithProviders(<DeleteAccountSection role="user" />, { route: '/user/settings' });

    await user.click(screen.getByRole('button', { name: 'Delete Account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    expect(dialog).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));

    expect(await screen.findByText('Please enter your password')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows a wrong password under the field and stays signed in', async () => {
    localStorage.setItem('token', 'tok');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          {
            message: 'Your current password is not correct',
            statusCode: 400,
            errors: { password: 'Your current password is not correct' },
          },
          400,
        ),
      ),
    );
    const { user } = renderWithProviders(<DeleteAccountSection role="user" />, { route: '/user/settings' });
    await user.click(screen.getByRole('button', { name: 'Delete Account' }));
    await user.type(await screen.findByLabelText('Password'), 'Wrong123');
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));

    expect(await screen.findByText('Your current password is not correct')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('tok');
  });

  it('deletes with the password, signs out and goes home', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('userType', 'trainer');
    const fetchMock = vi.fn(async () => jsonResponse({ message: 'Your account is deleted' }));
    vi.stubGlobal('fetch', fetchMock);
    const { user, router } = renderWithProviders(<DeleteAccountSection role="trainer" />, { route: '/trainer/settings' });

    await user.click(screen.getByRole('button', { name: 'Delete Account' }));
    await user.type(await screen.findByLabelText('Password'), 'Demo1234');
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));

    expect(await screen.findByTestId('location')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/trainer');
    expect(init.method).toBe('DELETE');
    expect(JSON.parse(init.body as string)).toEqual({ password: 'Demo1234' });
    expect([localStorage.getItem('token'), localStorage.getItem('userType')]).toEqual([null, null]);
  });
});
