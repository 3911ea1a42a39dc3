import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';

// lazy route chunks can take more than findBy's 1 s default on a busy machine
const slow = { timeout: 10_000 };
import { describeError } from './error-page';
import { routes } from './router';

function renderAt(url: string) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('route table', () => {
  it('shows the not-found page inside the layout for an unknown address', async () => {
    renderAt('/no-such-page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' }, slow)).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });

  it('shows the not-found page for a malformed trainer address', async () => {
    renderAt('/trainer/profile/%E0%A4%A');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' }, slow)).toBeInTheDocument();
  });

  it('renders the landing page at /', async () => {
    renderAt('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Shape Your Ideal Body' }, slow)).toBeInTheDocument();
    expect(screen.getByText('Since 2010')).toBeInTheDocument();
  });

  it.each([
    ['/trainers', 'Find your trainer'],
    ['/trainer/profile/abc', 'Trainer profile'],
    ['/BMI', 'BMI Calculator'],
    ['/team', 'Our team'],
    ['/blog/your-first-session-with-a-personal-trainer', 'What to expect from your first session with a personal trainer'],
    ['/blog/no-such-post', 'Post not found'],
  ])('renders the page at %s', async (url, heading) => {
    renderAt(url);
    expect(await screen.findByRole('heading', { level: 1, name: heading }, slow)).toBeInTheDocument();
  });

  it('links the verified page to the login of the role in the address', async () => {
    renderAt('/verification/success?role=user');
    expect(await screen.findByText('Your account has been verified successfully!', {}, slow)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login now!' })).toHaveAttribute('href', '/users/login');
  });

  it('offers someone already signed in to continue, not to log in', async () => {
    storage.setToken('header.e30.signature');
    storage.setUserType('trainer');
    try {
      renderAt('/verification/success?role=trainer');
      expect(await screen.findByRole('link', { name: 'Continue' }, slow)).toHaveAttribute('href', '/trainer/profile');
      expect(screen.queryByRole('link', { name: 'Login now!' })).not.toBeInTheDocument();
    } finally {
      storage.clearSession();
    }
  });

  it('tells a person who opens the verification link twice that the account is already verified', async () => {
    renderAt('/verification/success?role=trainer&already=1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account is already verified' }, slow)).toBeInTheDocument();
    expect(screen.queryByText(/invalid or expired/i)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login now!' })).toHaveAttribute('href', '/trainers/login');
  });

  it('sends a visitor of the trainer inbox to the trainer login', async () => {
    const router = renderAt('/trainer/chatOfTrainer');
    expect(await screen.findByRole('button', { name: 'Login' }, slow)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/trainers/login');
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent('/trainer/chatOfTrainer')}`);
  });

  it('sends a visitor of the user inbox to the user login with the inbox as return address', async () => {
    const router = renderAt('/user/chatOfUser?with=abc');
    expect(await screen.findByRole('button', { name: 'Login' }, slow)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/users/login');
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/user/chatOfUser?with=abc');
  });

  it('sends a logged-in user away from trainer-only pages and the login pages to their profile', async () => {
    window.localStorage.setItem('token', 'header.e30.sig');
    window.localStorage.setItem('userType', 'user');
    try {
      for (const url of ['/trainer/settings', '/users/login', '/trainers/register']) {
        const router = renderAt(url);
        await waitFor(() => expect(router.state.location.pathname).toBe('/user/profile'), slow);
        cleanup();
      }
    } finally {
      window.localStorage.clear();
    }
  });

  it('sends a visitor of a profile page to the login of that role', async () => {
    const router = renderAt('/trainer/profile');
    expect(await screen.findByRole('button', { name: 'Login' }, slow)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/trainers/login');
  });
});

describe('describeError', () => {
  it('prefers the status, then the message, then the serialised value', () => {
    expect(describeError({ status: 404, statusText: 'Not Found', internal: true, data: '' })).toBe('404 Not Found');
    expect(describeError(new Error('Boom'))).toBe('Boom');
    expect(describeError({ reason: 'odd' })).toBe('{"reason":"odd"}');
  });
});
