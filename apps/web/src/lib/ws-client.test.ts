import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TChatMessage, TConversation, TWsServerFrame } from '@spotter/shared';
import { callsOf, stubApi } from '@/testing/fake-api';
import { jsonResponse } from '@/testing/render';
import { chatKeys, receiveMessage, type ChatViewer, type MessagePages } from './api/chats';
import { backoffDelay, connectChatSocket, type ChatSocket, type SocketLike } from './ws-client';

class FakeSocket implements SocketLike {
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  closedWith: number | undefined;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;

  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code = 1005) {
    this.closedWith = code;
    this.readyState = 3;
  }
  /** The server accepts the connection and the token. */
  accept() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
    this.push({ type: 'ready' });
  }
  push(frame: TWsServerFrame) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(frame) }));
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.(new CloseEvent('close', { code }));
  }
}

const latest = () => FakeSocket.instances.at(-1)!;
const viewer: ChatViewer = { id: 'u1', role: 'user' };
const TOKEN = 'the.secret.token';

const message = (id: string, overrides: Partial<TChatMessage> = {}): TChatMessage => ({
  _id: id,
  senderId: 't1',
  recipientId: 'u1',
  message: `message ${id}`,
  messageDate: `2025-01-10T10:00:0${id.slice(1)}.000Z`,
  senderFirstName: 'Nadia',
  senderLastName: 'Samir',
  senderPicture: '',
  readAt: null,
  ...overrides,
});

const row = (overrides: Partial<TConversation> = {}): TConversation => ({
  counterpartId: 't1',
  firstName: 'Nadia',
  lastName: 'Samir',
  picture: '',
  lastMessage: 'message m2',
  lastMessageDate: '2025-01-10T10:00:02.000Z',
  unread: 0,
  ...overrides,
});

function setup({ random = (): number => 0 } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData<MessagePages>(chatKeys.messages('u1', 't1'), {
    pages: [{ allMessages: [message('m1'), message('m2', { senderId: 'u1', recipientId: 't1' })], hasMore: false }],
    pageParams: [undefined],
  });
  queryClient.setQueryData(chatKeys.conversations('u1'), [row()]);
  const socket = connectChatSocket({
    token: TOKEN,
    viewer,
    queryClient,
    url: 'ws://localhost/api/ws',
    WebSocketImpl: FakeSocket,
    random,
  });
  sockets.push(socket);
  // what the cache holds, oldest first, duplicates included
  const messages = () =>
    [...(queryClient.getQueryData<MessagePages>(chatKeys.messages('u1', 't1'))?.pages ?? [])]
      .reverse()
      .flatMap((p) => p.allMessages.map((m) => m._id));
  const conversations = () => queryClient.getQueryData<TConversation[]>(chatKeys.conversations('u1'));
  return { queryClient, socket, messages, conversations };
}

const sockets: ChatSocket[] = [];
afterEach(() => {
  sockets.splice(0).forEach((s) => s.close());
  FakeSocket.instances = [];
  vi.useRealTimers();
});

describe('chat socket', () => {
  it('authenticates with its first frame; the token is never in the URL', () => {
    setup();
    const socket = latest();
    expect(socket.url).toBe('ws://localhost/api/ws');
    expect(socket.url).not.toContain(TOKEN);
    socket.accept();
    expect(socket.sent[0]).toEqual({ type: 'auth', token: TOKEN });
  });

  it('puts a pushed message into its conversation and row once, however often it arrives', () => {
    const { messages, conversations, queryClient } = setup();
    latest().accept();

    latest().push({ type: 'message', message: message('m3') });
    latest().push({ type: 'message', message: message('m3') });
    expect(messages()).toEqual(['m1', 'm2', 'm3']);
    expect(conversations()).toEqual([row({ lastMessage: 'message m3', lastMessageDate: message('m3').messageDate, unread: 1 })]);

    // the viewer's own message: the send answer adds it, its push is a duplicate and unread stays
    const mine = message('m4', { senderId: 'u1', recipientId: 't1' });
    receiveMessage(queryClient, viewer, mine);
    latest().push({ type: 'message', message: mine });
    expect(messages()).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(conversations()?.[0]).toMatchObject({ lastMessage: 'message m4', unread: 1 });

    // read on another device: the badge clears
    latest().push({ type: 'read', userId: 'u1', trainerId: 't1', readerId: 'u1', readAt: '2025-01-10T11:00:00.000Z' });
    expect(conversations()?.[0].unread).toBe(0);
  });

  it('reconnects after a drop with a jittered, doubling delay capped at 30 s, and starts over once ready', () => {
    vi.useFakeTimers();
    expect([0, 1, 2, 5, 10].map((n) => backoffDelay(n, () => 1))).toEqual([1000, 2000, 4000, 30_000, 30_000]);
    expect(backoffDelay(3, () => 0.5)).toBe(4000);

    setup({ random: () => 1 });
    latest().drop();
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(999);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);

    latest().drop();
    vi.advanceTimersByTime(1999);
    expect(FakeSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(3);

    // accepted: the next drop waits the first delay again
    latest().accept();
    latest().drop();
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.instances).toHaveLength(4);
  });

  it('does not retry a refused token, and closes for good on logout', () => {
    vi.useFakeTimers();
    const { socket } = setup();
    latest().drop(4401);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(socket.state).toBe('closed');

    const second = setup();
    const open = latest();
    open.accept();
    second.socket.close();
    expect(open.closedWith).toBe(1000);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.instances).toHaveLength(2);
  });

  it('after a reconnect asks for what it missed (?after=) and shows each message once', async () => {
    const fetchMock = stubApi((url) => {
      if (url.pathname === '/api/chats/t1' && url.searchParams.get('after') === 'm3') {
        return jsonResponse({ allMessages: [message('m4'), message('m5')], hasMore: false });
      }
      if (url.pathname === '/api/conversations')
        return jsonResponse({ conversations: [row({ lastMessage: 'message m5', unread: 3 })] });
      return undefined;
    });
    const { messages, conversations, queryClient } = setup();
    latest().accept();
    latest().push({ type: 'message', message: message('m3') });
    latest().drop();

    await vi.waitFor(() => expect(FakeSocket.instances).toHaveLength(2));
    latest().accept();
    // m4 also arrives as a push while the catch-up is under way
    latest().push({ type: 'message', message: message('m4') });

    await vi.waitFor(() => expect(messages()).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']));
    expect(callsOf(fetchMock)).toContain('GET /api/chats/t1?after=m3');
    // the first connection had nothing to catch up
    expect(callsOf(fetchMock).filter((c) => c.startsWith('GET /api/chats'))).toHaveLength(1);
    // the list is marked stale, so the next screen showing it reloads it
    expect(queryClient.getQueryState(chatKeys.conversations('u1'))?.isInvalidated).toBe(true);
    expect(conversations()?.[0].counterpartId).toBe('t1');
  });

  it('catches up when the server says resync', async () => {
    const fetchMock = stubApi((url) =>
      url.pathname === '/api/chats/t1' && url.searchParams.get('after') === 'm2'
        ? jsonResponse({ allMessages: [message('m3')], hasMore: false })
        : undefined,
    );
    const { messages } = setup();
    latest().accept();
    latest().push({ type: 'resync' });
    await vi.waitFor(() => expect(messages()).toEqual(['m1', 'm2', 'm3']));
    expect(callsOf(fetchMock)).toEqual(['GET /api/chats/t1?after=m2']);
  });
});
