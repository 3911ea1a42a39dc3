/**
 * Logout's part of the chat outbox (docs/product.md#offline), kept apart from the outbox itself so the
 * header's logout carries a few lines, not the chat's code.
 */

/** The outbox of account `id` is stored under this prefix plus the id. */
export const OUTBOX_KEY_PREFIX = 'chatOutbox:';

const onClear = new Set<() => void>();

/** The outbox (lib/chat-outbox.ts) forgets what it holds in memory when the queue is cleared. */
export const onChatOutboxCleared = (run: () => void) => {
  onClear.add(run);
  return () => onClear.delete(run);
};

/**
 * Logout (lib/logout.ts): the messages still waiting are dropped, so the next person on this device
 * neither sees nor sends them. Every account's stored queue goes.
 */
export function clearChatOutbox() {
  onClear.forEach((run) => run());
  try {
    const keys = Array.from({ length: window.localStorage.length }, (_, i) => window.localStorage.key(i));
    for (const key of keys) if (key?.startsWith(OUTBOX_KEY_PREFIX)) window.localStorage.removeItem(key);
  } catch {
    // storage disabled: nothing was stored
  }
}
