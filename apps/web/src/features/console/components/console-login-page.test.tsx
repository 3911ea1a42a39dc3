import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CONSOLE_MSG } from '@spotter/shared';
import { consoleSession } from '@/lib/api/console';
import { stubApi } from '@/testing/fake-api';
import { jsonResponse } from '@/testing/render';
import { renderConsole, requestOf } from '../testing/render-console';

const EMAIL = 'ops@example.com';
const PASSWORD = 'Console-pass-12';

const loginRoute = (answer: () => Response) => (url: URL, init: RequestInit) =>
  url.pathname === '/api/console/login' && init.method === 'POST' ? answer() : undefined;
const signedInRoutes = (url: URL) => {
  if (url.pathname === '/api/console/me') return jsonResponse({ operator: { _id: 'op1', email: EMAIL } });
  if (url.pathname === '/api/console/audit') return jsonResponse({ entries: [] });
  return undefined;
};

afterEach(() => {
  consoleSession.signOut();
  sessionStorage.clear();
});

async function fillIn(user: ReturnType<typeof renderConsole>['user'], code: string) {
  await user.type(await screen.findByLabelText('E-mail'), EMAIL);
  await user.type(screen.getByLabelText('Password'), PASSWORD);
  await user.type(screen.getByLabelText('Authenticator code'), code);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('the console’s sign-in', () => {
  it('asks for a code fit for an authenticator app or a recovery code', async () => {
    stubApi();
    const { user } = renderConsole('/console/login');
    const code = await screen.findByLabelText('Authenticator code');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    await user.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    expect(screen.getByLabelText('Recovery code')).toHaveAttribute('inputmode', 'text');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeInTheDocument();
    expect(screen.getByText('Spotter console')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
  });

  it('says what is missing without sending anything', async () => {
    const fetchMock = stubApi();
    const { user } = renderConsole('/console/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Enter your e-mail');
    expect(screen.getByLabelText('E-mail')).toHaveFocus();
    expect(screen.getByLabelText('Authenticator code')).toHaveAccessibleDescription(
      expect.stringContaining(CONSOLE_MSG.codeRequired),
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the e-mail, the password and the code, keeps the token for this tab only and opens the audit log', async () => {
    const fetchMock = stubApi(
      loginRoute(() => jsonResponse({ token: 'console.token.1' })),
      signedInRoutes,
    );
    const { user, router } = renderConsole('/console/login');
    await fillIn(user, '123456');

    expect(await screen.findByRole('heading', { level: 1, name: 'Audit log' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/console');
    expect(requestOf(fetchMock.mock.calls[0])).toMatchObject({
      method: 'POST',
      url: '/api/console/login',
      authorization: null,
      body: { email: EMAIL, password: PASSWORD, code: '123456' },
    });
    expect(sessionStorage.getItem('spotter.console.token')).toBe('console.token.1');
    // the member's session is not touched
    expect(localStorage.getItem('token')).toBeNull();
    expect(await screen.findByText(EMAIL)).toBeInTheDocument();
    const me = fetchMock.mock.calls.map(requestOf).find((r) => r.url === '/api/console/me');
    expect(me?.authorization).toBe('Bearer console.token.1');
  });

  it('shows the server’s message on a failure and empties the code', async () => {
    stubApi(loginRoute(() => jsonResponse({ statusCode: 401, code: 'UNAUTHENTICATED', message: CONSOLE_MSG.signInFailed }, 401)));
    const { user } = renderConsole('/console/login');
    await fillIn(user, '654321');
    expect(await screen.findByText(CONSOLE_MSG.signInFailed)).toBeInTheDocument();
    expect(screen.getByText(CONSOLE_MSG.signInFailed).closest('[aria-live]')).toHaveAttribute('aria-live', 'assertive');
    expect(screen.getByLabelText('Authenticator code')).toHaveValue('');
    expect(sessionStorage.getItem('spotter.console.token')).toBeNull();
  });

  it('says how long to wait when sign-ins are throttled, and waits', async () => {
    stubApi(
      loginRoute(
        () =>
          new Response(JSON.stringify({ statusCode: 429, code: 'RATE_LIMITED', message: 'Too many attempts' }), {
            status: 429,
            headers: { 'Content-Type': 'application/json', 'Retry-After': '30' },
          }),
      ),
    );
    const { user } = renderConsole('/console/login');
    await fillIn(user, '654321');
    expect(await screen.findByText(/Too many sign-in attempts\. Try again in (30|29) seconds\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDisabled();
  });
});
