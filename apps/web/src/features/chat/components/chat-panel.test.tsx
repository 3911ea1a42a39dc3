import { act, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { receiveMessage } from '@/lib/api/chats';
import { callsOf, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { logInAs, makeMessage, UUID } from '../testing';
import { ChatPanel } from './chat-panel';

const trainer = { _id: 't1', firstName: 'Nadia', lastName: 'Samir' };

function Harness() {
  const [isOpen, setIsOpen] = useState(false);
  return <ChatPanel trainer={trainer} isOpen={isOpen} onOpenChange={setIsOpen} />;
}

const renderPanel = () => renderWithProviders(<Harness />);
const openButton = () => screen.getByRole('button', { name: 'Chat with Nadia' });

describe('ChatPanel', () => {
  it('tells a visitor that only users can message trainers, and stays closed', async () => {
    const fetchMock = stubApi();
    const { user } = renderPanel();
    await user.click(openButton());
    expect(await findToast('Only users can message trainers!')).not.toHaveAttribute('data-type', 'error');
    expect(screen.queryByRole('region', { name: 'Chat with Nadia' })).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("tells a trainer that trainers can't message other trainers", async () => {
    logInAs('t9', 'trainer');
    stubApi();
    const { user } = renderPanel();
    await user.click(openButton());
    expect(await findToast("Trainers can't message other trainers!")).toHaveAttribute('data-type', 'error');
    expect(screen.queryByRole('region', { name: 'Chat with Nadia' })).not.toBeInTheDocument();
  });

  it("shows 'Loading...', then 'Message Me Now!' for a new conversation, and closes again", async () => {
    logInAs('u1', 'user');
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    const { user } = renderPanel();
    await user.click(openButton());

    const panel = screen.getByRole('region', { name: 'Chat with Nadia' });
    expect(openButton()).toHaveAttribute('aria-expanded', 'true');
    expect(within(panel).getByRole('status')).toHaveTextContent('Loading...');
    // the conversation's code loads first (its own chunk), then it asks
    await waitFor(() => expect(fetch).toHaveBeenCalledWith('/api/chats/t1?', expect.anything()));
    expect(within(panel).getByRole('status')).toHaveTextContent('Loading...');

    act(() => answer(jsonResponse({ allMessages: [], hasMore: false })));
    expect(await within(panel).findByText('Message Me Now!')).toBeInTheDocument();
    expect(within(panel).getByRole('log')).toHaveAttribute('aria-live', 'polite');
    expect(within(panel).getByLabelText('Your message')).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Close chat' }));
    expect(screen.queryByRole('region', { name: 'Chat with Nadia' })).not.toBeInTheDocument();
  });

  it('shows the raw error when the conversation fails to load', async () => {
    logInAs('u1', 'user');
    stubApi((url) =>
      url.pathname === '/api/chats/t1' ? jsonResponse({ message: 'The database is resting', statusCode: 503 }, 503) : undefined,
    );
    const { user } = renderPanel();
    await user.click(openButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is resting');
  });

  it('sends a message: the toast, the form cleared, the message in the log as text', async () => {
    logInAs('u1', 'user');
    const text = '<b>Hi</b> can we train at 7?';
    const fetchMock = stubApi((url, init) => {
      if (url.pathname === '/api/chats/t1') return jsonResponse({ allMessages: [], hasMore: false });
      if (url.pathname === '/api/chats' && init.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { message: string; recipientId: string };
        return jsonResponse({ message: makeMessage({ _id: 'm9', message: body.message, recipientId: body.recipientId }) }, 201);
      }
      return undefined;
    });
    const { user } = renderPanel();
    await user.click(openButton());
    const input = await screen.findByLabelText('Your message');

    // nothing to send yet: the shared rule's words, and no call
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Please write a message')).toBeInTheDocument();
    expect(callsOf(fetchMock)).not.toContain('POST /api/chats');

    await user.type(input, text);
    await user.click(screen.getByRole('button', { name: 'Send' }));

    expect(await findToast('The Trainer will get back to you ASAP!')).toHaveAttribute('data-type', 'success');
    expect(input).toHaveValue('');
    const log = screen.getByRole('log');
    expect(within(log).getByText(text)).toBeInTheDocument();
    expect(within(log).queryByText('Hi')).not.toBeInTheDocument();
    expect(screen.queryByText('Message Me Now!')).not.toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([path, init]) => path === '/api/chats' && init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      recipientId: 't1',
      message: text,
      clientMessageId: expect.stringMatching(UUID),
    });
  });

  it('keeps the text and says why when the send fails', async () => {
    logInAs('u1', 'user');
    stubApi((url, init) => {
      if (url.pathname === '/api/chats/t1') return jsonResponse({ allMessages: [], hasMore: false });
      if (url.pathname === '/api/chats' && init.method === 'POST') {
        return jsonResponse({ message: 'You are sending messages too fast; wait a minute and try again', statusCode: 429 }, 429);
      }
      return undefined;
    });
    const { user } = renderPanel();
    await user.click(openButton());
    await user.type(await screen.findByLabelText('Your message'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('You are sending messages too fast; wait a minute and try again')).toBeInTheDocument();
    expect(screen.getByLabelText('Your message')).toHaveValue('Hello');
  });

  it('shows a reply that arrives while it is open, and marks it read', async () => {
    logInAs('u1', 'user');
    const fetchMock = stubApi((url, init) => {
      if (url.pathname === '/api/chats/t1') return jsonResponse({ allMessages: [makeMessage()], hasMore: false });
      if (url.pathname === '/api/conversations/t1/read' && init.method === 'POST')
        return jsonResponse({ message: 'ok', read: 1 });
      return undefined;
    });
    const { user, queryClient } = renderPanel();
    await user.click(openButton());
    const log = await screen.findByRole('log');
    expect(within(log).getByText('Hello coach')).toBeInTheDocument();

    // what the socket does with a pushed message
    act(() =>
      receiveMessage(
        queryClient,
        { id: 'u1', role: 'user' },
        makeMessage({
          _id: 'm2',
          senderId: 't1',
          recipientId: 'u1',
          message: 'Sure, 7 works',
          messageDate: '2025-01-10T10:05:00.000Z',
        }),
      ),
    );
    expect(await within(log).findByText('Sure, 7 works')).toBeInTheDocument();
    await waitFor(() => expect(callsOf(fetchMock)).toContain('POST /api/conversations/t1/read'));
  });

  it('takes the focus when it opens (the message field once it is there), closes on Escape and gives the focus back', async () => {
    logInAs('u1', 'user');
    stubApi((url) => (url.pathname === '/api/chats/t1' ? jsonResponse({ allMessages: [], hasMore: false }) : undefined));
    const { user } = renderPanel();
    await user.click(openButton());
    const panel = screen.getByRole('region', { name: 'Chat with Nadia' });
    await waitFor(() => expect(within(panel).getByLabelText('Your message')).toHaveFocus());

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Chat with Nadia' })).not.toBeInTheDocument();
    await waitFor(() => expect(openButton()).toHaveFocus());
  });

  it("offers Report on the trainer's messages, not on one's own; the dialog's Escape leaves the chat open", async () => {
    logInAs('u1', 'user');
    stubApi((url) =>
      url.pathname === '/api/chats/t1'
        ? jsonResponse({
            allMessages: [
              makeMessage({ _id: 'm2', senderId: 't1', recipientId: 'u1', message: 'Pay me outside the app' }),
              makeMessage({ _id: 'm1', message: 'Hello coach' }),
            ],
            hasMore: false,
          })
        : url.pathname === '/api/conversations/t1/read'
          ? jsonResponse({ message: 'ok', read: 1 })
          : undefined,
    );
    const { user } = renderPanel();
    await user.click(openButton());
    const log = await screen.findByRole('log');
    const mine = within(log).getByText('Hello coach').closest('li')!;
    const theirs = within(log).getByText('Pay me outside the app').closest('li')!;
    expect(within(mine).queryByRole('button', { name: /^Report/ })).not.toBeInTheDocument();
    const report = within(theirs).getByRole('button', { name: 'Report message from Nadia' });
    expect(report).toHaveAccessibleDescription(/Pay me outside the app/);

    await user.click(report);
    expect(await screen.findByRole('dialog', { name: 'Report this message' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('region', { name: 'Chat with Nadia' })).toBeInTheDocument();
    await waitFor(() => expect(report).toHaveFocus());
  });
});
