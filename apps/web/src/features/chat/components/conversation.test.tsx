import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearChatOutbox } from '@/lib/clear-chat-outbox';
import { callsOf, stubApi } from '@/testing/fake-api';
import { goOnline } from '@/testing/online';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { logInAs, makeMessage, UUID } from '../testing';
import { Conversation } from './conversation';

afterEach(() => {
  clearChatOutbox();
  vi.restoreAllMocks();
});

/** A server that stores each clientMessageId once; `refuse` answers a message with a 403. */
function chatServer({ refuse }: { refuse?: string } = {}) {
  const stored = new Map<string, ReturnType<typeof makeMessage>>();
  const fetchMock = stubApi((url, init) => {
    if (url.pathname === '/api/chats/t1') return jsonResponse({ allMessages: [], hasMore: false });
    if (url.pathname === '/api/chats' && init.method === 'POST') {
      const body = JSON.parse(String(init.body)) as { message: string; recipientId: string; clientMessageId: string };
      if (body.message === refuse) return jsonResponse({ message: 'You cannot message this trainer', statusCode: 403 }, 403);
      const message =
        stored.get(body.clientMessageId) ??
        makeMessage({
          _id: `m${stored.size + 1}`,
          message: body.message,
          recipientId: 't1',
          clientMessageId: body.clientMessageId,
        });
      stored.set(body.clientMessageId, message);
      return jsonResponse({ message }, 201);
    }
    if (url.pathname === '/api/conversations') return jsonResponse({ conversations: [] });
    return undefined;
  });
  return { fetchMock, stored };
}

const renderConversation = () =>
  renderWithProviders(
    <Conversation
      viewer={{ id: 'u1', role: 'user' }}
      counterpart={{ id: 't1', firstName: 'Nadia' }}
      emptyText="Say hi"
      sentMessage="Sent"
    />,
  );

describe('Conversation offline', () => {
  it('shows messages written offline at once as waiting, in order, and sends them once and in order when back online', async () => {
    logInAs('u1', 'user');
    const { fetchMock, stored } = chatServer();
    const { user } = renderConversation();
    await screen.findByText('Say hi');
    goOnline(false);

    const input = screen.getByLabelText('Your message');
    for (const text of ['First offline', 'Second offline']) {
      await user.type(input, text);
      await user.click(screen.getByRole('button', { name: 'Send' }));
    }
    const log = screen.getByRole('log');
    const pending = await within(log).findAllByTestId('pending-message');
    expect(pending.map((p) => p.textContent)).toEqual([
      'You: First offlineWaiting for connection',
      'You: Second offlineWaiting for connection',
    ]);
    expect(input).toHaveValue('');
    expect(callsOf(fetchMock)).not.toContain('POST /api/chats');
    expect(JSON.parse(localStorage.getItem('chatOutbox:u1') ?? '[]')).toHaveLength(2);

    goOnline(true);
    await waitFor(() => expect(within(log).queryAllByTestId('pending-message')).toHaveLength(0));
    expect(
      within(log)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.replace(/\d.*$/, '')),
    ).toEqual(['You: First offline', 'You: Second offline']);
    const posts = fetchMock.mock.calls.filter(([path, init]) => path === '/api/chats' && init?.method === 'POST');
    expect(posts.map(([, init]) => (JSON.parse(String(init?.body)) as { message: string }).message)).toEqual([
      'First offline',
      'Second offline',
    ]);
    expect([...stored.keys()].every((id) => UUID.test(id))).toBe(true);
    expect(localStorage.getItem('chatOutbox:u1')).toBeNull();
  });

  it('offers Retry and Delete for a message the server refuses', async () => {
    logInAs('u1', 'user');
    const { fetchMock } = chatServer({ refuse: 'Not allowed' });
    const { user } = renderConversation();
    await screen.findByText('Say hi');
    goOnline(false);
    await user.type(screen.getByLabelText('Your message'), 'Not allowed');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    goOnline(true);

    const item = await screen.findByText('Not sent: You cannot message this trainer');
    expect(item.closest('li')).toHaveAttribute('data-state', 'failed');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(callsOf(fetchMock).filter((c) => c === 'POST /api/chats')).toHaveLength(2));
    await screen.findByText('Not sent: You cannot message this trainer');

    // a later message of the conversation waits behind it, to keep the order
    await user.type(screen.getByLabelText('Your message'), 'Next one');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Waiting for the message above')).toBeInTheDocument();
    expect(callsOf(fetchMock).filter((c) => c === 'POST /api/chats')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('pending-message')).not.toBeInTheDocument());
    expect(within(screen.getByRole('log')).getByText('Next one')).toBeInTheDocument();
    expect(screen.queryByText('Not allowed')).not.toBeInTheDocument();
  });
});
