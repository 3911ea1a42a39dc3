import { describe, expect, it } from 'vitest';
import type { TChatMessage } from '@spotter/shared';
import { ApiError } from './api-client';
import { createChatOutbox, OUTBOX_MAX, pendingFor, type ChatOutboxDeps } from './chat-outbox';
import { clearChatOutbox } from './clear-chat-outbox';

const memoryStore = () => {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
};

const stored = (req: { recipientId: string; message: string; clientMessageId: string }, n: number): TChatMessage => ({
  _id: `m${n}`,
  senderId: 'u1',
  recipientId: req.recipientId,
  message: req.message,
  messageDate: new Date(Date.UTC(2026, 0, 1, 10, n)).toISOString(),
  senderFirstName: 'Mona',
  senderLastName: 'Adel',
  senderPicture: '',
  readAt: null,
  clientMessageId: req.clientMessageId,
});

type Req = Parameters<ChatOutboxDeps['send']>[0];

/** A fake server that stores each clientMessageId once, as the real one does; `answer` can refuse or fail. */
function fakeServer(answer: (req: Req, attempt: number) => Error | undefined = () => undefined) {
  const calls: Req[] = [];
  const messages = new Map<string, TChatMessage>();
  const send = (req: Req) => {
    calls.push(req);
    const error = answer(req, calls.length);
    if (error) return Promise.reject(error);
    const existing = messages.get(req.clientMessageId) ?? stored(req, messages.size + 1);
    messages.set(req.clientMessageId, existing);
    return Promise.resolve(existing);
  };
  return { calls, messages, send };
}

const network = () => new ApiError(0, 'Could not reach Spotter');

describe('chat outbox', () => {
  it('sends what waits once and in order, one at a time, and drops each once stored', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const server = fakeServer();
    const store = memoryStore();
    const outbox = createChatOutbox('u1', {
      send: async (req) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 1));
        inFlight--;
        return server.send(req);
      },
      store,
      isOnline: () => true,
    });
    const sent: string[] = [];
    outbox.onSent((m) => sent.push(m.message));
    outbox.add({ recipientId: 't1', message: 'one' });
    outbox.add({ recipientId: 't1', message: 'two' });
    outbox.add({ recipientId: 't2', message: 'three' });
    // two flushes at once (an `online` event and app start) are one run
    await Promise.all([outbox.flush(), outbox.flush()]);
    expect(server.calls.map((c) => c.message)).toEqual(['one', 'two', 'three']);
    expect(sent).toEqual(['one', 'two', 'three']);
    expect(maxInFlight).toBe(1);
    expect(outbox.entries()).toEqual([]);
    expect(store.data.size).toBe(0);
  });

  it('waits while offline and goes when back online', async () => {
    let online = false;
    const server = fakeServer();
    const outbox = createChatOutbox('u1', { send: server.send, store: memoryStore(), isOnline: () => online });
    outbox.add({ recipientId: 't1', message: 'one' });
    await outbox.flush();
    expect(server.calls).toEqual([]);
    expect(outbox.entries()[0].state).toBe('waiting');
    online = true;
    await outbox.flush();
    expect(server.calls.map((c) => c.message)).toEqual(['one']);
  });

  it('stops at a network error, keeps the rest in order, and resends the same clientMessageId (stored once)', async () => {
    const retries: (() => void)[] = [];
    // the first attempt reaches the server but its answer is lost
    const server = fakeServer();
    let lose = true;
    const outbox = createChatOutbox('u1', {
      send: async (req) => {
        const answer = await server.send(req);
        if (lose) {
          lose = false;
          throw network();
        }
        return answer;
      },
      store: memoryStore(),
      isOnline: () => true,
      later: (run) => {
        retries.push(run);
        return () => undefined;
      },
    });
    const a = outbox.add({ recipientId: 't1', message: 'one' })!;
    outbox.add({ recipientId: 't1', message: 'two' });
    await outbox.flush();
    expect(server.calls.map((c) => c.message)).toEqual(['one']);
    expect(outbox.entries().map((e) => [e.message, e.state])).toEqual([
      ['one', 'waiting'],
      ['two', 'waiting'],
    ]);
    expect(retries).toHaveLength(1);
    retries[0]();
    await outbox.flush();
    expect(server.calls.map((c) => c.clientMessageId)).toEqual([a.clientMessageId, a.clientMessageId, expect.any(String)]);
    expect([...server.messages.values()].map((m) => m.message)).toEqual(['one', 'two']);
    expect(outbox.entries()).toEqual([]);
  });

  it('marks a refused message failed, holds back its conversation, and offers retry and delete', async () => {
    let refuse = true;
    const server = fakeServer((req) =>
      refuse && req.message === 'bad' ? new ApiError(403, 'You cannot message this trainer') : undefined,
    );
    const outbox = createChatOutbox('u1', { send: server.send, store: memoryStore(), isOnline: () => true });
    const bad = outbox.add({ recipientId: 't1', message: 'bad' })!;
    outbox.add({ recipientId: 't1', message: 'after bad' });
    outbox.add({ recipientId: 't2', message: 'other conversation' });
    await outbox.flush();
    expect(outbox.entries().map((e) => [e.message, e.state, e.error])).toEqual([
      ['bad', 'failed', 'You cannot message this trainer'],
      ['after bad', 'waiting', undefined],
    ]);
    expect(server.calls.map((c) => c.message)).toEqual(['bad', 'other conversation']);

    refuse = false;
    await outbox.retry(bad.clientMessageId);
    expect(server.calls.map((c) => c.message)).toEqual(['bad', 'other conversation', 'bad', 'after bad']);
    expect(outbox.entries()).toEqual([]);
  });

  it('deletes a failed message, and the next one goes', async () => {
    const server = fakeServer((req) => (req.message === 'bad' ? new ApiError(400, 'Too long') : undefined));
    const outbox = createChatOutbox('u1', { send: server.send, store: memoryStore(), isOnline: () => true });
    const bad = outbox.add({ recipientId: 't1', message: 'bad' })!;
    outbox.add({ recipientId: 't1', message: 'good' });
    await outbox.flush();
    outbox.remove(bad.clientMessageId);
    await outbox.flush();
    expect(server.calls.map((c) => c.message)).toEqual(['bad', 'good']);
    expect(outbox.entries()).toEqual([]);
  });

  it('treats 408, 429 and 5xx as worth waiting for, not as refusals', async () => {
    for (const status of [408, 429, 500, 503]) {
      const server = fakeServer(() => new ApiError(status, 'later'));
      const outbox = createChatOutbox('u1', {
        send: server.send,
        store: memoryStore(),
        isOnline: () => true,
        later: () => () => undefined,
      });
      outbox.add({ recipientId: 't1', message: 'one' });
      outbox.add({ recipientId: 't1', message: 'two' });
      await outbox.flush();
      expect(server.calls).toHaveLength(1);
      expect(outbox.entries().map((e) => e.state)).toEqual(['waiting', 'waiting']);
    }
  });

  it('survives a reload: the queue is stored per account, and a send cut off goes again', async () => {
    const store = memoryStore();
    const first = createChatOutbox('u1', { send: () => new Promise(() => undefined), store, isOnline: () => true });
    first.add({ recipientId: 't1', message: 'one' });
    first.add({ recipientId: 't1', message: 'two' });
    void first.flush(); // 'one' is in flight when the page goes
    expect(first.entries()[0].state).toBe('sending');

    expect(createChatOutbox('u2', { send: fakeServer().send, store, isOnline: () => true }).entries()).toEqual([]);

    const server = fakeServer();
    const second = createChatOutbox('u1', { send: server.send, store, isOnline: () => true });
    expect(second.entries().map((e) => [e.message, e.state])).toEqual([
      ['one', 'waiting'],
      ['two', 'waiting'],
    ]);
    await second.flush();
    expect(server.calls.map((c) => c.message)).toEqual(['one', 'two']);
    expect(server.calls[0].clientMessageId).toBe(first.entries()[0].clientMessageId);
  });

  it(`holds at most ${OUTBOX_MAX} messages`, () => {
    const outbox = createChatOutbox('u1', { send: fakeServer().send, store: memoryStore(), isOnline: () => false });
    for (let i = 0; i < OUTBOX_MAX; i++) expect(outbox.add({ recipientId: 't1', message: `m${i}` })).not.toBeNull();
    expect(outbox.add({ recipientId: 't1', message: 'one too many' })).toBeNull();
    expect(outbox.entries()).toHaveLength(OUTBOX_MAX);
  });

  it('clear forgets the queue and its storage', () => {
    const store = memoryStore();
    const outbox = createChatOutbox('u1', { send: fakeServer().send, store, isOnline: () => false });
    outbox.add({ recipientId: 't1', message: 'one' });
    expect(store.data.size).toBe(1);
    outbox.clear();
    expect(outbox.entries()).toEqual([]);
    expect(store.data.size).toBe(0);
  });

  it('clearChatOutbox (logout) drops every account’s stored queue and nothing else', () => {
    localStorage.setItem('chatOutbox:u1', '[]');
    localStorage.setItem('chatOutbox:u2', '[]');
    localStorage.setItem('favorites', '["t1"]');
    clearChatOutbox();
    expect(Object.keys(localStorage)).toEqual(['favorites']);
  });

  it('shows a pending message only until the server’s message with its clientMessageId is loaded', () => {
    const outbox = createChatOutbox('u1', { send: fakeServer().send, store: memoryStore(), isOnline: () => false });
    const one = outbox.add({ recipientId: 't1', message: 'one' })!;
    outbox.add({ recipientId: 't1', message: 'two' });
    outbox.add({ recipientId: 't2', message: 'elsewhere' });
    expect(pendingFor(outbox.entries(), 't1', []).map((e) => e.message)).toEqual(['one', 'two']);
    // the socket's push of 'one' arrived before the send's answer
    const pushed = stored({ recipientId: 't1', message: 'one', clientMessageId: one.clientMessageId }, 1);
    expect(pendingFor(outbox.entries(), 't1', [pushed]).map((e) => e.message)).toEqual(['two']);
  });
});
