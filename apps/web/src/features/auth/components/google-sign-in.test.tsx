import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authConfigKeys } from '@/lib/api/auth-config';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { GOOGLE_SCRIPT_SRC, type GoogleAccountsId } from '../utils/load-google-script';
import { LoginForm } from './login-form';

const CLIENT_ID = '1234567890-spotter.apps.googleusercontent.com';

const googleScripts = () => document.querySelectorAll('script[src*="accounts.google.com"]');

/** A fake server: the auth config, and POST /api/auth/google answering `google`. */
function stubServer(
  googleClientId: string | null,
  google: Response = jsonResponse({ message: 'Signed up with Google', token: 'google.session.token' }),
) {
  const fetchMock = vi.fn(async (url: string) => (url === '/api/auth/config' ? jsonResponse({ googleClientId }) : google));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Google Identity Services as the page sees it once its script ran; `signIn` plays the user picking an account. */
function stubGoogle() {
  let callback: ((response: { credential: string }) => void) | undefined;
  const id = {
    initialize: vi.fn((config: Parameters<GoogleAccountsId['initialize']>[0]) => {
      callback = config.callback;
    }),
    renderButton: vi.fn(),
    prompt: vi.fn(),
    cancel: vi.fn(),
  } satisfies GoogleAccountsId;
  vi.stubGlobal('google', { accounts: { id } });
  return { id, signIn: (credential: string) => callback?.({ credential }) };
}

describe('Google sign-in on the login screens', () => {
  afterEach(() => {
    googleScripts().forEach((s) => s.remove());
  });

  it('renders nothing and loads no script from Google without a configured client id', async () => {
    const fetchMock = stubServer(null);
    const { queryClient } = renderWithProviders(<LoginForm role="user" />, { route: '/users/login' });

    await waitFor(() => expect(queryClient.getQueryData(authConfigKeys.all)).toEqual({ googleClientId: null }));
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/config', expect.anything());
    expect(screen.queryByRole('group', { name: 'Sign in with Google' })).not.toBeInTheDocument();
    expect(googleScripts()).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
  });

  it("shows the button area and adds Google's script once a client id is configured", async () => {
    stubServer(CLIENT_ID);
    renderWithProviders(<LoginForm role="user" />, { route: '/users/login' });

    expect(await screen.findByRole('group', { name: 'Sign in with Google' })).toBeInTheDocument();
    await waitFor(() => expect(googleScripts()).toHaveLength(1));
    expect(googleScripts()[0]).toHaveAttribute('src', GOOGLE_SCRIPT_SRC);
  });

  it("draws Google's button and one tap, sends the credential untouched with the role, and logs in", async () => {
    const google = stubGoogle();
    const fetchMock = stubServer(CLIENT_ID);
    const { unmount } = renderWithProviders(<LoginForm role="trainer" />, { route: '/trainers/login' });

    const area = await screen.findByRole('group', { name: 'Sign in with Google' });
    await waitFor(() => expect(google.id.prompt).toHaveBeenCalled());
    expect(google.id.initialize).toHaveBeenCalledWith(expect.objectContaining({ client_id: CLIENT_ID }));
    expect(google.id.renderButton).toHaveBeenCalledWith(area, expect.objectContaining({ text: 'signin_with' }));
    expect(googleScripts()).toHaveLength(0); // already loaded: not added twice

    google.signIn('header.google-claims.signature');

    expect(await screen.findByRole('status')).toHaveTextContent('Signed up with Google');
    expect(localStorage.getItem('token')).toBe('google.session.token');
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/auth/google') as unknown as [string, RequestInit];
    expect(call[1].method).toBe('POST');
    expect(JSON.parse(call[1].body as string)).toEqual({ credential: 'header.google-claims.signature', role: 'trainer' });

    unmount();
    expect(google.id.cancel).toHaveBeenCalled();
  });

  it("shows the server's refusal in the red alert and stores nothing", async () => {
    const google = stubGoogle();
    stubServer(
      CLIENT_ID,
      jsonResponse(
        {
          message: 'Google sign-in failed: the credential is invalid or has expired',
          statusCode: 401,
          code: 'INVALID_CREDENTIALS',
        },
        401,
      ),
    );
    renderWithProviders(<LoginForm role="user" />, { route: '/users/login' });

    await waitFor(() => expect(google.id.initialize).toHaveBeenCalled());
    google.signIn('expired.google.token');

    expect(await screen.findByRole('alert')).toHaveTextContent('credential is invalid or has expired');
    expect(localStorage.getItem('token')).toBeNull();
  });
});
