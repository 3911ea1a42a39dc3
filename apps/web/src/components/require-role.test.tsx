import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { renderWithProviders } from '@/testing/render';
import { RequireRole } from './require-role';

const page = (
  <RequireRole role="trainer">
    <h1>Trainer inbox</h1>
  </RequireRole>
);

describe('RequireRole', () => {
  afterEach(() => storage.clearSession());

  it('sends a user who opens a trainer page to their own profile, with no toast', async () => {
    storage.setToken('header.e30.signature');
    storage.setUserType('user');
    const { router } = renderWithProviders(page, { route: '/trainer/chat' });
    expect(await screen.findByTestId('location')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/user/profile');
    expect(screen.queryByRole('heading', { name: 'Trainer inbox' })).not.toBeInTheDocument();
    expect(document.querySelector('[data-sonner-toast]')).toBeNull();
  });

  it('sends a visitor to the login of that role and back afterwards', async () => {
    const { router } = renderWithProviders(page, { route: '/trainer/chat?with=u1' });
    expect(await screen.findByTestId('location')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/trainers/login');
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/trainer/chat?with=u1');
  });

  it('shows the page to its role', () => {
    storage.setToken('header.e30.signature');
    storage.setUserType('trainer');
    renderWithProviders(page, { route: '/trainer/chat' });
    expect(screen.getByRole('heading', { name: 'Trainer inbox' })).toBeInTheDocument();
  });
});
