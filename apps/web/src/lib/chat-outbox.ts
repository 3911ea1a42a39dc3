import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { TChatMessage } from '@spotter/shared';
import { ApiError, errorMessage } from './api-client';
import { receiveMessage, sendChatMessage, type ChatViewer } from './api/chats';
import { onChatOutboxCleared, OUTBOX_KEY_PREFIX } from './clear-chat-outbox';

/**
 * The chat outbox (docs/product.md#offline): messages written while offline, or whose send met a
 * network error, wait here (in localStorage, per account) with the `clientMessageId` picked when they
 * were written, and go out when the connection returns, once and in order: one at a time, each
 * conversation in the order written. The server answers a repeated `clientMessageId` with the message
 * it already stored, so sending again after an unknown outcome is safe.
 */

export type OutboxEntry = {
  clientMessageId: string;
  recipientId: string;
  message: string;
  /** When it was written (ISO). */
  createdAt: string;
  /** `failed`: the server refused it (a 4xx other than 408/429); it waits for Retry or Delete. */
  state: 'waiting' | 'sending' | 'failed';
  error?: string;
};

/** At most this many messages wait; past it the composer says the outbox is full. */
export const OUTBOX_MAX = 50;
export const OUTBOX_FULL_MESSAGE = `${OUTBOX_MAX} messages are waiting to be sent. Send more once you are back online.`;

/** A transient failure while online (the server down, 5xx, 408, 429) tries again after 2 s, 4 s, … up to a minute. */
const RETRY = { baseMs: 2000, capMs: 60_000 } as const;

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
type SendRequest = { recipientId: string; message: string; clientMessageId: string };

export type ChatOutboxDeps = {
  send: (request: SendRequest) => Promise<TChatMessage>;
  store?: KeyValueStore;
  isOnline?: () => boolean;
  /** Runs `run` after `ms` and answers a cancel (setTimeout by default). */
  later?: (run: () => void, ms: number) => () => void;
};

type ChatOutbox = {
  entries(): readonly OutboxEntry[];
  subscribe(listener: () => void): () => void;
  /** Each message the server stored, as it answered. */
  onSent(listener: (message: TChatMessage) => void): () => void;
  /** Queues a message; null when the outbox is full. */
  add(request: { recipientId: string; message: string; clientMessageId?: string }): OutboxEntry | null;
  retry(clientMessageId: string): Promise<void>;
  /** Deletes a message that waits (not one being sent), and sends what waited behind it. */
  remove(clientMessageId: string): void;
  /** Sends what waits, once and in order; one run at a time (a call during a run makes it go round again). */
  flush(): Promise<void>;
  /** Reads the stored queue again (another tab changed it). */
  reload(): void;
  clear(): void;
  dispose(): void;
};

/** A UUID, also where `crypto.randomUUID` is missing (an insecure context). */
export function newClientMessageId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const isEntry = (v: unknown): v is OutboxEntry => {
  const e = v as Partial<OutboxEntry> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.clientMessageId === 'string' &&
    typeof e.recipientId === 'string' &&
    typeof e.message === 'string' &&
    typeof e.createdAt === 'string' &&
    (e.state === 'waiting' || e.state === 'sending' || e.state === 'failed')
  );
};

/** No answer, or one worth waiting for: try again later. Anything else from the server is a refusal. */
const isTransientSendError = (error: unknown) =>
  !(error instanceof ApiError) || error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;

/** localStorage, or where it is disabled a store for this page view only. */
function browserStore(): KeyValueStore {
  try {
    return window.localStorage;
  } catch {
    const data = new Map<string, string>();
    return {
      getItem: (k) => data.get(k) ?? null,
      setItem: (k, v) => void data.set(k, v),
      removeItem: (k) => void data.delete(k),
    };
  }
}

export function createChatOutbox(accountId: string, deps: ChatOutboxDeps): ChatOutbox {
  const key = OUTBOX_KEY_PREFIX + accountId;
  const store = deps.store ?? browserStore();
  const isOnline = deps.isOnline ?? (() => navigator.onLine);
  const later =
    deps.later ??
    ((run: () => void, ms: number) => {
      const timer = setTimeout(run, ms);
      return () => clearTimeout(timer);
    });
  const listeners = new Set<() => void>();
  const sentListeners = new Set<(message: TChatMessage) => void>();
  let running: Promise<void> | null = null;
  let again = false;
  let failures = 0;
  let cancelRetry: (() => void) | null = null;
  let disposed = false;

  const read = (): OutboxEntry[] => {
    try {
      const value: unknown = JSON.parse(store.getItem(key) ?? '[]');
      // a send cut off by a reload has an unknown outcome: it goes again (the server dedupes)
      return Array.isArray(value)
        ? value.filter(isEntry).map((e) => (e.state === 'sending' ? { ...e, state: 'waiting' } : e))
        : [];
    } catch {
      return [];
    }
  };
  let entries: readonly OutboxEntry[] = read();

  const set = (next: readonly OutboxEntry[]) => {
    entries = next;
    try {
      if (next.length) store.setItem(key, JSON.stringify(next));
      else store.removeItem(key);
    } catch {
      // storage full or disabled: the queue lives for this page view
    }
    listeners.forEach((l) => l());
  };
  const update = (id: string, change: Partial<OutboxEntry>) =>
    set(entries.map((e) => (e.clientMessageId === id ? { ...e, ...change } : e)));

  /** The first message that may go: waiting, with no earlier refused one in its conversation. */
  const next = () => {
    const blocked = new Set<string>();
    for (const e of entries) {
      if (e.state === 'failed') blocked.add(e.recipientId);
      else if (e.state === 'waiting' && !blocked.has(e.recipientId)) return e;
    }
    return undefined;
  };

  async function drain() {
    for (let entry = next(); entry && !disposed && isOnline(); entry = next()) {
      const { clientMessageId, recipientId, message } = entry;
      update(clientMessageId, { state: 'sending', error: undefined });
      try {
        const stored = await deps.send({ recipientId, message, clientMessageId });
        failures = 0;
        sentListeners.forEach((l) => l(stored));
        set(entries.filter((e) => e.clientMessageId !== clientMessageId));
      } catch (error) {
        if (!entries.some((e) => e.clientMessageId === clientMessageId)) continue; // cleared meanwhile
        if (isTransientSendError(error)) {
          update(clientMessageId, { state: 'waiting' });
          if (isOnline() && !cancelRetry) {
            const delay = Math.min(RETRY.capMs, RETRY.baseMs * 2 ** failures++);
            cancelRetry = later(() => {
              cancelRetry = null;
              void flush();
            }, delay);
          }
          return;
        }
        update(clientMessageId, { state: 'failed', error: errorMessage(error) });
      }
    }
  }

  function flush(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await drain();
      } while (again && !disposed);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    entries: () => entries,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onSent(listener) {
      sentListeners.add(listener);
      return () => sentListeners.delete(listener);
    },
    add({ recipientId, message, clientMessageId = newClientMessageId() }) {
      if (entries.length >= OUTBOX_MAX) return null;
      const entry: OutboxEntry = { clientMessageId, recipientId, message, createdAt: new Date().toISOString(), state: 'waiting' };
      set([...entries, entry]);
      return entry;
    },
    retry(clientMessageId) {
      update(clientMessageId, { state: 'waiting', error: undefined });
      return flush();
    },
    remove(clientMessageId) {
      set(entries.filter((e) => e.clientMessageId !== clientMessageId || e.state === 'sending'));
      // what waited behind a refused message may go now
      void flush();
    },
    flush,
    reload() {
      const stored = read();
      // what this tab is sending right now stays as it is
      const sending = new Set(entries.filter((e) => e.state === 'sending').map((e) => e.clientMessageId));
      entries = stored.map((e) => (sending.has(e.clientMessageId) ? { ...e, state: 'sending' } : e));
      listeners.forEach((l) => l());
    },
    clear() {
      cancelRetry?.();
      cancelRetry = null;
      set([]);
    },
    dispose() {
      disposed = true;
      cancelRetry?.();
      cancelRetry = null;
      listeners.clear();
      sentListeners.clear();
    },
  };
}

/**
 * What of the outbox a conversation shows as pending: its messages not yet among the loaded ones.
 * The server's message carries the same `clientMessageId` (in the send's answer or a push), so once it
 * is loaded it takes the pending one's place rather than showing next to it.
 */
export function pendingFor(entries: readonly OutboxEntry[], counterpartId: string, loaded: readonly TChatMessage[]) {
  const stored = new Set(loaded.map((m) => m.clientMessageId).filter(Boolean));
  return entries.filter((e) => e.recipientId === counterpartId && !stored.has(e.clientMessageId));
}

/** The signed-in account's outbox in this tab. */
let current: { accountId: string; outbox: ChatOutbox } | null = null;

function outboxOf(accountId: string): ChatOutbox {
  if (current?.accountId !== accountId) {
    current?.outbox.dispose();
    current = { accountId, outbox: createChatOutbox(accountId, { send: sendChatMessage }) };
  }
  return current.outbox;
}

// logout drops the queue in memory too (clear-chat-outbox.ts removes the stored ones)
onChatOutboxCleared(() => {
  current?.outbox.clear();
  current?.outbox.dispose();
  current = null;
});

const noEntries: readonly OutboxEntry[] = [];
const noSubscribe = () => () => undefined;

/**
 * The viewer's outbox: what waits, and the ways to add, retry and delete. While mounted it sends what
 * waits (now, and whenever the browser says it is back online) and puts each answer into the chat cache.
 * The header's chat link mounts it on every page; a conversation mounts it too.
 */
export function useChatOutbox(viewer: ChatViewer | null) {
  const queryClient = useQueryClient();
  const outbox = useMemo(() => (viewer ? outboxOf(viewer.id) : null), [viewer]);
  const entries = useSyncExternalStore(outbox?.subscribe ?? noSubscribe, outbox?.entries ?? (() => noEntries), () => noEntries);
  useEffect(() => {
    if (!outbox || !viewer) return;
    const stopSent = outbox.onSent((message) => receiveMessage(queryClient, viewer, message));
    const flush = () => void outbox.flush();
    const onStorage = (event: StorageEvent) => {
      if (event.key === OUTBOX_KEY_PREFIX + viewer.id) outbox.reload();
    };
    window.addEventListener('online', flush);
    window.addEventListener('storage', onStorage);
    flush();
    return () => {
      stopSent();
      window.removeEventListener('online', flush);
      window.removeEventListener('storage', onStorage);
    };
  }, [outbox, viewer, queryClient]);
  return { outbox, entries };
}
