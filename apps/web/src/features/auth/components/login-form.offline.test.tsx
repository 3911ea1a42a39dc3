import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { VALIDATION_UNAVAILABLE } from '@/lib/lazy-resolver';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { LoginForm } from './login-form';

// The validation chunk cannot be downloaded (offline, or a release replaced it).
vi.mock('./login-resolver', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

describe('LoginForm without its validation code', () => {
  it('says what to do and sends nothing', async () => {
    const fetchMock = vi.fn(async (_url: string) => jsonResponse({ googleClientId: null }));
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderWithProviders(<LoginForm role="user" />, { route: '/users/login' });
    await user.type(screen.getByLabelText('Email'), 'user@spotter.test');
    await user.type(screen.getByLabelText('Password'), 'Demo1234');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(VALIDATION_UNAVAILABLE);
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain('/api/users/login');
  });
});
