import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { logInAs, makeConversation } from '@/features/chat/testing';
import { storage } from '@/lib/storage';
import { stubApi } from '@/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { TabBar } from './tab-bar';

const tabBar = () => screen.queryByRole('navigation', { name: 'App' });

describe('TabBar', () => {
  afterEach(() => storage.clearSession());

  it('is not there for a visitor', () => {
    stubApi();
    renderWithProviders(<TabBar />, { route: '/trainers' });
    expect(tabBar()).not.toBeInTheDocument();
  });

  it('gives a signed-in user Explore, Saved, Sessions, Inbox and Profile, marks the current one and counts unread messages', async () => {
    logInAs('u1', 'user');
    stubApi((url) =>
      url.pathname === '/api/conversations'
        ? jsonResponse({ conversations: [makeConversation({ counterpartId: 't1', unread: 3 })] })
        : undefined,
    );
    renderWithProviders(<TabBar />, { route: '/trainers?favorites=1', path: '/trainers' });
    const nav = tabBar()!;
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['Explore', 'Saved', 'Sessions', 'Inbox', 'Profile']);
    expect(within(nav).getByRole('link', { name: 'Saved' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Explore' })).not.toHaveAttribute('aria-current');
    expect(within(nav).getByRole('link', { name: 'Sessions' })).toHaveAttribute('href', '/user/profile');
    expect(await within(nav).findByRole('link', { name: 'Inbox, 3 unread' })).toHaveAttribute('href', '/user/chatOfUser');
  });

  it("gives a trainer their schedule, inbox, earnings and profile, and leaves a trainer's public page to its booking bar", () => {
    logInAs('t1', 'trainer');
    stubApi();
    const { unmount } = renderWithProviders(<TabBar />, { route: '/trainer/payments' });
    const nav = tabBar()!;
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Schedule', 'Inbox', 'Earnings', 'Profile']);
    expect(within(nav).getByRole('link', { name: 'Earnings' })).toHaveAttribute('aria-current', 'page');
    unmount();

    renderWithProviders(<TabBar />, { route: '/trainer/profile/t9', path: '/trainer/profile/:id' });
    expect(tabBar()).not.toBeInTheDocument();
  });
});
