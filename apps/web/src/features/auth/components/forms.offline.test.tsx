import { screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { VALIDATION_UNAVAILABLE } from '@/lib/lazy-resolver';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { LoginForm } from './login-form';
import { SignUpForm } from './sign-up-form';

// The validation chunks cannot be downloaded (offline, or a release replaced them). vi.mock is
// hoisted above the imports, and its factory with it.
const { unavailable } = vi.hoisted(() => ({
  unavailable: () => {
    throw new TypeError('Failed to fetch dynamically imported module');
  },
}));
vi.mock('./login-resolver', unavailable);
vi.mock('./sign-up-resolver', unavailable);

type Case = {
  form: string;
  element: ReactElement;
  route: string;
  field: string;
  value: string;
  button: string;
  endpoint: string;
};
const cases: Case[] = [
  {
    form: 'LoginForm',
    element: <LoginForm role="user" />,
    route: '/users/login',
    field: 'Email',
    value: 'user@spotter.test',
    button: 'Login',
    endpoint: '/api/users/login',
  },
  {
    form: 'SignUpForm',
    element: <SignUpForm role="trainer" />,
    route: '/trainers/register',
    field: 'First Name',
    value: 'Omar',
    button: 'Sign Up',
    endpoint: '/api/trainers/register',
  },
];

describe.each(cases)('$form without its validation code', ({ element, route, field, value, button, endpoint }) => {
  it('says what to do and sends nothing', async () => {
    const fetchMock = vi.fn(async (_url: string) => jsonResponse({ googleClientId: null }));
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderWithProviders(element, { route });
    await user.type(screen.getByLabelText(field), value);
    await user.click(screen.getByRole('button', { name: button }));

    expect(await screen.findByRole('alert')).toHaveTextContent(VALIDATION_UNAVAILABLE);
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain(endpoint);
  });
});
