import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { testTrainer, testUser } from '@/testing/accounts';
import { callsOf, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { logInAs, makeConversation, makeMessage, UUID } from '../testing';
import { InboxPage } from './inbox-page';

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000 - 5_000).toISOString();

const renderInbox = (role: 'user' | 'trainer', route = role === 'trainer' ? '/trainer/chat' : '/user/chatOfUser') =>
  renderWithProviders(<InboxPage role={role} />, { route, path: route.split('?')[0] });

/** Fifty messages of a page, ids `${prefix}1`…, oldest first. */
const page = (prefix: string, from: number) =>
  Array.from({ length: 50 }, (_, i) =>
    makeMessage({
      _id: `${prefix}${i + 1}`,
      message: `${prefix} message ${i + 1}`,
      messageDate: new Date(Date.UTC(2025, 0, 10, 10, from + i)).toISOString(),
      readAt: '2025-01-11T00:00:00.000Z',
    }),
  );

describe('InboxPage', () => {
  it('sends a visitor to the login of the role', async () => {
    stubApi();
    const { router } = renderInbox('trainer');
    expect(await screen.findByTestId('location')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/trainers/login');
  });

  it('shows a trainer one row per user with the latest message, its age and the unread badge; opening one reads it and a reply toasts', async () => {
    logInAs('t1', 'trainer');
    let isRead = false;
    const fetchMock = stubApi((url, init) => {
      if (url.pathname === '/api/trainerData') return jsonResponse({ trainerData: testTrainer({ title: '' }) });
      if (url.pathname === '/api/conversations') {
        return jsonResponse({
          conversations: [
            makeConversation({
              counterpartId: 'u1',
              lastMessage: 'Can we train at 7?',
              lastMessageDate: minutesAgo(5),
              unread: isRead ? 0 : 2,
            }),
            makeConversation({
              counterpartId: 'u2',
              firstName: 'Karim',
              lastName: 'Nabil',
              lastMessage: 'Thanks!',
              lastMessageDate: minutesAgo(42),
            }),
          ],
        });
      }
      if (url.pathname === '/api/chats/t1' && url.searchParams.get('userId') === 'u1') {
        return jsonResponse({ allMessages: [makeMessage({ message: 'Can we train at 7?' })], hasMore: false });
      }
      if (url.pathname === '/api/conversations/u1/read' && init.method === 'POST') {
        isRead = true;
        return jsonResponse({ message: 'Conversation marked as read', read: 2 });
      }
      if (url.pathname === '/api/chats' && init.method === 'POST') {
        return jsonResponse(
          {
            message: makeMessage({
              _id: 'm2',
              senderId: 't1',
              recipientId: 'u1',
              message: 'Yes, see you',
              messageDate: new Date().toISOString(),
            }),
          },
          201,
        );
      }
      return undefined;
    });
    const { user } = renderInbox('trainer');

    expect(await screen.findByRole('heading', { level: 1, name: 'Messages' })).toBeInTheDocument();
    expect(screen.getByText('Go to profile settings to edit your Title')).toBeInTheDocument();
    const rows = within(await screen.findByRole('list', { name: 'Conversations' })).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Mona Adel');
    expect(rows[0]).toHaveTextContent('Can we train at 7?');
    expect(rows[0]).toHaveTextContent('5 min');
    expect(within(rows[0]).getByText('2')).toHaveTextContent('2 unread');
    expect(rows[1]).toHaveTextContent('Karim Nabil');
    expect(rows[1]).toHaveTextContent('42 min');
    expect(rows[1]).not.toHaveTextContent('unread');

    await user.click(within(rows[0]).getByRole('link'));
    const log = await screen.findByRole('log', { name: 'Conversation with Mona' });
    expect(within(log).getByText('Can we train at 7?')).toBeInTheDocument();
    await waitFor(() => expect(callsOf(fetchMock)).toContain('POST /api/conversations/u1/read'));
    await waitFor(() => expect(rows[0]).not.toHaveTextContent('unread'));
    expect(within(rows[0]).getByRole('link')).toHaveAttribute('aria-current', 'true');

    const input = screen.getByLabelText('Your message');
    await user.type(input, 'Yes, see you');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await findToast('Message sent successfully!')).toHaveAttribute('data-type', 'success');
    expect(input).toHaveValue('');
    expect(within(log).getByText('Yes, see you')).toBeInTheDocument();
    // the row follows the conversation
    expect(rows[0]).toHaveTextContent('Yes, see you');
    const post = fetchMock.mock.calls.find(([path, init]) => path === '/api/chats' && init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      recipientId: 'u1',
      message: 'Yes, see you',
      clientMessageId: expect.stringMatching(UUID),
    });
  });

  it('opens a conversation not started yet from a link that names the person (the schedule’s Message <client>)', async () => {
    logInAs('t1', 'trainer');
    stubApi((url) => {
      if (url.pathname === '/api/trainerData') return jsonResponse({ trainerData: testTrainer() });
      if (url.pathname === '/api/conversations') return jsonResponse({ conversations: [] });
      if (url.pathname === '/api/chats/t1' && url.searchParams.get('userId') === 'u9')
        return jsonResponse({ allMessages: [], hasMore: false });
      return undefined;
    });
    renderInbox('trainer', '/trainer/chat?with=u9&name=Mariam');

    expect(await screen.findByRole('heading', { level: 2, name: 'Mariam' })).toBeInTheDocument();
    expect(await screen.findByRole('log', { name: 'Conversation with Mariam' })).toBeInTheDocument();
    expect(screen.getByLabelText('Your message')).toBeInTheDocument();
  });

  it('shows a user one row per trainer, with a link to the profile, and says when there is nothing yet', async () => {
    logInAs('u1', 'user');
    stubApi((url) => {
      if (url.pathname === '/api/userData') return jsonResponse({ userData: testUser() });
      if (url.pathname === '/api/conversations') {
        return jsonResponse({
          conversations: [makeConversation({ counterpartId: 't1', firstName: 'Nadia', lastName: 'Samir', lastMessage: 'Sure' })],
        });
      }
      if (url.pathname === '/api/chats/t1') return jsonResponse({ allMessages: [], hasMore: false });
      return undefined;
    });
    const { user } = renderInbox('user', '/user/chatOfUser');
    const list = await screen.findByRole('list', { name: 'Conversations' });
    await user.click(within(list).getByRole('link', { name: /Nadia Samir/ }));
    expect(await screen.findByRole('link', { name: 'View profile' })).toHaveAttribute('href', '/trainer/profile/t1');
    expect(await screen.findByText('No messages yet.')).toBeInTheDocument();
  });

  it('on a phone opens a conversation as a full-screen thread, with the page behind it out of reach, and Back returns', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    logInAs('u1', 'user');
    stubApi((url) => {
      if (url.pathname === '/api/userData') return jsonResponse({ userData: testUser() });
      if (url.pathname === '/api/conversations') {
        return jsonResponse({
          conversations: [makeConversation({ counterpartId: 't1', firstName: 'Nadia', lastName: 'Samir' })],
        });
      }
      if (url.pathname === '/api/chats/t1') return jsonResponse({ allMessages: [], hasMore: false });
      return undefined;
    });
    const { user } = renderInbox('user', '/user/chatOfUser');
    const list = await screen.findByRole('list', { name: 'Conversations' });
    await user.click(within(list).getByRole('link', { name: /Nadia Samir/ }));
    const composer = await screen.findByLabelText('Your message');
    const thread = composer.closest('[data-fullscreen]');
    expect(thread).toHaveClass('fixed', 'inset-0');
    // the heading and the list behind the thread are inert: no focus, not read out
    expect(screen.getByRole('heading', { level: 1, name: 'Messages', hidden: true }).closest('[inert]')).not.toBeNull();
    expect(composer.closest('[inert]')).toBeNull();

    await user.click(screen.getByRole('link', { name: 'Back to conversations' }));
    await screen.findByRole('list', { name: 'Conversations' });
    expect(document.querySelector('[data-fullscreen]')).toBeNull();
    expect(document.querySelector('[inert]')).toBeNull();
  });

  it('pages backwards 50 at a time and keeps the reading position', async () => {
    logInAs('t1', 'trainer');
    const newest = page('b', 60);
    const older = page('a', 0);
    const fetchMock = stubApi((url, init) => {
      if (url.pathname === '/api/trainerData') return jsonResponse({ trainerData: testTrainer() });
      if (url.pathname === '/api/conversations') return jsonResponse({ conversations: [makeConversation()] });
      if (url.pathname === '/api/chats/t1' && url.searchParams.get('before') === 'b1')
        return jsonResponse({ allMessages: older, hasMore: false });
      if (url.pathname === '/api/chats/t1') return jsonResponse({ allMessages: newest, hasMore: true });
      if (init.method === 'POST') return jsonResponse({ message: 'ok' });
      return undefined;
    });
    const { user } = renderInbox('trainer', '/trainer/chat?with=u1');
    const log = await screen.findByRole('log');
    expect(within(log).getAllByRole('listitem')).toHaveLength(50);

    // jsdom lays nothing out: give the log a height that grows with its messages
    let scrollTop = 0;
    Object.defineProperty(log, 'scrollHeight', { configurable: true, get: () => log.querySelectorAll('li').length * 40 });
    Object.defineProperty(log, 'clientHeight', { configurable: true, get: () => 500 });
    Object.defineProperty(log, 'scrollTop', { configurable: true, get: () => scrollTop, set: (v: number) => (scrollTop = v) });
    scrollTop = 120; // reading near the top: 1880 px above the bottom

    await user.click(within(log).getByRole('button', { name: 'Load earlier messages' }));
    await waitFor(() => expect(within(log).getAllByRole('listitem')).toHaveLength(100));
    expect(callsOf(fetchMock)).toContain('GET /api/chats/t1?userId=u1&before=b1');
    const texts = within(log)
      .getAllByRole('listitem')
      .map((li) => li.querySelector('p')?.textContent);
    expect(texts[0]).toBe('Mona: a message 1');
    expect(texts[99]).toBe('Mona: b message 50');
    // the same message stays where it was: 50 messages (2000 px) came in above it
    expect(scrollTop).toBe(120 + 2000);
    expect(within(log).queryByRole('button', { name: 'Load earlier messages' })).not.toBeInTheDocument();
  });
});
