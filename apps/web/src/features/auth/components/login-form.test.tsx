import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { suspendedMessage } from '@spotter/shared';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { LOGIN_REDIRECT_MS, LoginForm } from './login-form';

const userData = {
  _id: 'u1',
  role: 'user',
  firstName: 'Mona',
  lastName: 'Adel',
  email: 'user@spotter.test',
  emailVerified: true,
};

/** A fake server: login answers `login`, GET /api/userData the profile, Google sign-in is off. */
function stubServer(login: Response) {
  const fetchMock = vi.fn(async (url: string) =>
    url === '/api/userData'
      ? jsonResponse({ userData })
      : url === '/api/auth/config'
        ? jsonResponse({ googleClientId: null })
        : login,
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function logIn(user: ReturnType<typeof renderWithProviders>['user']) {
  await user.type(screen.getByLabelText('Email'), 'user@spotter.test');
  await user.type(screen.getByLabelText('Password'), 'Demo1234');
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('LoginForm', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the red alert with the server message on 401 and stores nothing', async () => {
    stubServer(jsonResponse({ message: 'Invalid email or password', statusCode: 401 }, 401));
    const { user } = renderWithProviders(<LoginForm role="user" />, { route: '/users/login' });

    await logIn(user);

    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  it("tells a suspended person why, in the operator's words, and stores nothing", async () => {
    const message = suspendedMessage('Repeated spam in reviews');
    stubServer(jsonResponse({ message, statusCode: 403, code: 'ACCOUNT_SUSPENDED' }, 403));
    const { user } = renderWithProviders(<LoginForm role="user" />, { route: '/users/login' });

    await logIn(user);

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('alert')).toHaveTextContent('Repeated spam in reviews');
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  it('shows the red alert when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const { user } = renderWithProviders(<LoginForm role="trainer" />, { route: '/trainers/login' });
    await logIn(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(/could not reach/i);
  });

  it('shows the green alert on 200 and stores the token at once', async () => {
    const fetchMock = stubServer(jsonResponse({ message: 'Logged in successfully', token: 'header.payload.signature' }));
    const { user } = renderWithProviders(<LoginForm role="user" />, { route: '/users/login' });

    await logIn(user);

    expect(await screen.findByRole('status')).toHaveTextContent('Logged in successfully');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('header.payload.signature');
    expect(localStorage.getItem('userType')).toBeNull();
    const [url, init] = fetchMock.mock.calls.find(([u]) => u.endsWith('/login')) as unknown as [string, RequestInit];
    expect(url).toBe('/api/users/login');
    expect(JSON.parse(init.body as string)).toEqual({ email: 'user@spotter.test', password: 'Demo1234' });
  });

  it('after 3 s stores the user type and profile and opens the profile', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubServer(jsonResponse({ message: 'Logged in successfully', token: 'header.payload.signature' }));
    const { user, router } = renderWithProviders(<LoginForm role="user" />, {
      route: '/users/login',
      userEventOptions: { advanceTimers: vi.advanceTimersByTime },
    });

    await logIn(user);
    await screen.findByRole('status');
    expect(localStorage.getItem('userType')).toBeNull();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(LOGIN_REDIRECT_MS);
    });

    expect(localStorage.getItem('userType')).toBe('user');
    expect(JSON.parse(localStorage.getItem('userData') ?? '{}')).toMatchObject({ firstName: 'Mona' });
    expect(await screen.findByTestId('location')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/user/profile');
  });

  it('returns to the page in ?next= after logging in, and ignores an address off the site', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubServer(jsonResponse({ message: 'Logged in successfully', token: 'header.payload.signature' }));
    const { user, router } = renderWithProviders(<LoginForm role="user" />, {
      route: `/users/login?next=${encodeURIComponent('/user/chatOfUser?with=t1')}`,
      userEventOptions: { advanceTimers: vi.advanceTimersByTime },
    });
    await logIn(user);
    await screen.findByRole('status');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(LOGIN_REDIRECT_MS);
    });
    expect(await screen.findByTestId('location')).toBeInTheDocument();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/user/chatOfUser?with=t1');
  });

  it('does not follow a ?next= that leaves the site', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubServer(jsonResponse({ message: 'Logged in successfully', token: 'header.payload.signature' }));
    const { user, router } = renderWithProviders(<LoginForm role="user" />, {
      route: `/users/login?next=${encodeURIComponent('//evil.example/x')}`,
      userEventOptions: { advanceTimers: vi.advanceTimersByTime },
    });
    await logIn(user);
    await screen.findByRole('status');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(LOGIN_REDIRECT_MS);
    });
    expect(await screen.findByTestId('location')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/user/profile');
  });

  it('validates a touched field with the login messages', async () => {
    const { user } = renderWithProviders(<LoginForm role="user" />, { route: '/users/login' });
    await user.type(screen.getByLabelText('Password'), 'demo');
    await user.tab();
    expect(await screen.findByText('Password should start with an uppercase letter')).toBeInTheDocument();
  });

  it('links to the password reset of its role', () => {
    renderWithProviders(<LoginForm role="trainer" />, { route: '/trainers/login' });
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password?role=trainer');
  });
});
