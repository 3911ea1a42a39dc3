import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '@/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { logInAs, makeConversation, makeMessage, tokenFor } from '../testing';
import { ChatLink } from './chat-link';

/** The browser's WebSocket, replaced: the server side is lib/ws-client.test.ts's business. */
class FakeSocket {
  static last: FakeSocket | undefined;
  readyState = 1;
  sent: string[] = [];
  onopen: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  push(frame: unknown) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(frame) }));
  }
}

describe('ChatLink', () => {
  it('shows the unread count on the chat icon and keeps it live from the socket', async () => {
    logInAs('u1', 'user');
    vi.stubGlobal('WebSocket', FakeSocket);
    stubApi((url) =>
      url.pathname === '/api/conversations'
        ? jsonResponse({
            conversations: [
              makeConversation({ counterpartId: 't1', unread: 2, lastMessageDate: '2025-01-10T10:00:00.000Z' }),
              makeConversation({ counterpartId: 't2', unread: 1 }),
            ],
          })
        : undefined,
    );
    renderWithProviders(<ChatLink role="user" />);

    const link = await screen.findByRole('link', { name: 'Messages, 3 unread' });
    expect(link).toHaveAttribute('href', '/user/chatOfUser');

    const socket = FakeSocket.last!;
    expect(socket.url).toMatch(/\/api\/ws$/);
    act(() => socket.onopen?.(new Event('open')));
    expect(JSON.parse(socket.sent[0])).toEqual({ type: 'auth', token: tokenFor('u1', 'user') });
    act(() => socket.push({ type: 'ready' }));
    act(() =>
      socket.push({
        type: 'message',
        message: makeMessage({ _id: 'm5', senderId: 't1', recipientId: 'u1', messageDate: '2025-01-10T11:00:00.000Z' }),
      }),
    );
    expect(await screen.findByRole('link', { name: 'Messages, 4 unread' })).toBeInTheDocument();

    act(() => socket.push({ type: 'read', userId: 'u1', trainerId: 't1', readerId: 'u1', readAt: '2025-01-10T11:01:00.000Z' }));
    expect(await screen.findByRole('link', { name: 'Messages, 1 unread' })).toBeInTheDocument();
  });

  it('says just Messages when nothing is unread', async () => {
    logInAs('t1', 'trainer');
    vi.stubGlobal('WebSocket', FakeSocket);
    stubApi((url) => (url.pathname === '/api/conversations' ? jsonResponse({ conversations: [makeConversation()] }) : undefined));
    renderWithProviders(<ChatLink role="trainer" />);
    expect(await screen.findByRole('link', { name: 'Messages' })).toHaveAttribute('href', '/trainer/chat');
  });
});
