import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { PasswordForm } from './password-form';

async function fillIn(user: ReturnType<typeof renderWithProviders>['user'], old: string, next: string, again = next) {
  await user.type(screen.getByLabelText('Old password'), old);
  await user.type(screen.getByLabelText('New password'), next);
  await user.type(screen.getByLabelText('Re-type new password'), again);
  await user.click(screen.getByRole('button', { name: 'Save password' }));
}

describe('PasswordForm', () => {
  it("shows the server's wrong-old-password message under the old password", async () => {
    localStorage.setItem('token', 'old-token');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          {
            message: 'Your current password is not correct',
            statusCode: 400,
            errors: { oldPassword: 'Your current password is not correct' },
          },
          400,
        ),
      ),
    );
    const { user } = renderWithProviders(<PasswordForm role="user" email="mona@example.com" />);

    await fillIn(user, 'Wrong123', 'Fresh123');

    expect(await screen.findByText('Your current password is not correct')).toBeInTheDocument();
    expect(screen.getByLabelText('Old password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Old password')).toHaveAccessibleDescription('Your current password is not correct');
    expect(localStorage.getItem('token')).toBe('old-token');
  });

  it('checks that the new password is typed twice the same', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderWithProviders(<PasswordForm role="user" email="mona@example.com" />);
    await fillIn(user, 'Demo1234', 'Fresh123', 'Fresh124');
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('stores the fresh token and empties the form on success', async () => {
    localStorage.setItem('token', 'old-token');
    const fetchMock = vi.fn(async () => jsonResponse({ message: 'Your password is changed', token: 'fresh-token' }));
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderWithProviders(<PasswordForm role="trainer" email="omar@example.com" />);

    await fillIn(user, 'Demo1234', 'Fresh123');

    expect(await screen.findByText('Your password is changed')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('fresh-token');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/trainer/password');
    expect(JSON.parse(init.body as string)).toEqual({
      oldPassword: 'Demo1234',
      newPassword: 'Fresh123',
      confirmPassword: 'Fresh123',
    });
    expect(screen.getByLabelText('Old password')).toHaveValue('');
  });
});
