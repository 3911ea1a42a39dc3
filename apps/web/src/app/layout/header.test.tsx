import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bookingUpdates } from '@/lib/booking-updates';
import { renderWithProviders } from '@/testing/render';
import { Header } from './header';

describe('Header', () => {
  it('offers "Become A Trainer" and the login icon when logged out', () => {
    renderWithProviders(<Header />);

    expect(screen.getByRole('link', { name: 'Become A Trainer' })).toHaveAttribute('href', '/trainers/register');
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/users/register');
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/users/login');
    expect(screen.queryByRole('link', { name: 'My profile' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log out' })).not.toBeInTheDocument();
  });

  it('links to the trainer profile when a trainer is logged in', () => {
    localStorage.setItem('token', 'header.payload.signature');
    localStorage.setItem('userType', 'trainer');
    renderWithProviders(<Header />);

    expect(screen.getByRole('link', { name: 'My profile' })).toHaveAttribute('href', '/trainer/profile');
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Become A Trainer' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign up' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
  });

  it('counts booking changes pushed while the tab is open on the profile icon, until the profile is opened', async () => {
    localStorage.setItem('token', 'header.payload.signature');
    localStorage.setItem('userType', 'user');
    const { user } = renderWithProviders(<Header />, { route: '/trainers', path: '*' });

    act(() => {
      bookingUpdates.add();
      bookingUpdates.add();
    });
    const link = screen.getByRole('link', { name: 'My profile, 2 booking updates' });
    expect(screen.getByTestId('booking-updates-badge')).toHaveTextContent('2');
    await user.click(link);
    expect(await screen.findByRole('link', { name: 'My profile' })).toHaveAttribute('href', '/user/profile');
    expect(screen.queryByTestId('booking-updates-badge')).not.toBeInTheDocument();
  });

  it('logs out: forgets the session and goes home', async () => {
    localStorage.setItem('token', 'header.payload.signature');
    localStorage.setItem('userType', 'user');
    localStorage.setItem('userData', '{"firstName":"Mona"}');
    localStorage.setItem('favorites', '["t1"]');
    const { user, router } = renderWithProviders(<Header />, { route: '/trainers', path: '*' });

    await user.click(screen.getByRole('button', { name: 'Log out' }));

    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
    expect(router.state.location.pathname).toBe('/');
    expect(localStorage.getItem('userType')).toBeNull();
    expect(localStorage.getItem('userData')).toBeNull();
    expect(localStorage.getItem('favorites')).toBe('["t1"]');
    expect(screen.getByRole('link', { name: 'Become A Trainer' })).toBeInTheDocument();
  });

  it('marks the entry of the current page', () => {
    renderWithProviders(<Header />, { route: '/trainers' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(nav.querySelector('[aria-current="page"]')).toHaveTextContent('Trainers');
  });

  it('marks the Pages menu on a static page', () => {
    renderWithProviders(<Header />, { route: '/pricing' });
    expect(screen.getByRole('button', { name: 'Pages' })).toHaveAttribute('aria-current', 'true');
  });

  it('returns focus to the menu button when the phone menu is closed with Escape', async () => {
    const { user } = renderWithProviders(<Header />);
    const menuButton = screen.getByRole('button', { name: 'Open menu' });
    menuButton.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Menu' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(menuButton).toHaveFocus();
  });
});
