import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/client';
import { createNotifyBus } from '../../lib/notify-bus';
import { ACCOUNT_CHANNEL, findTokenState } from './accounts.repo';

type TokenState = NonNullable<Awaited<ReturnType<typeof findTokenState>>>;

type Entry = { state: TokenState | undefined; storedAt: number };

type TokenStatesOptions = {
  /** At most this many accounts are remembered (the least recently checked go first). */
  maxEntries?: number;
  /**
   * A remembered state is read again after this long even when nothing was announced: the bound
   * on how long a change made without `announceAccountChanged` (SQL by hand) takes to end a token.
   */
  maxAgeMs?: number;
  now?: () => number;
};

/**
 * The state behind every token check (role, token version, deletion), remembered per account
 * (docs/decisions/023-token-check-cache.md). Every change that ends tokens (password, deletion) is
 * announced on `spotter_account` inside its transaction; every process, this one included, forgets
 * that account when the notification arrives after the commit, and forgets everything when its
 * listening connection comes back (what was announced meanwhile was missed). A read that started
 * before a forget is used once but not remembered, so a read racing a change never keeps the old state.
 */
export function createTokenStates(db: Db, { maxEntries = 20_000, maxAgeMs = 10_000, now = Date.now }: TokenStatesOptions = {}) {
  const entries = new Map<string, Entry>();
  // bumped on every forget: a read remembers its state only if no forget happened meanwhile
  let epoch = 0;
  const counters = { hits: 0, misses: 0, forgets: 0 };

  function forget(id: string) {
    epoch++;
    counters.forgets++;
    entries.delete(id);
  }

  function clear() {
    epoch++;
    entries.clear();
  }

  return {
    /** The account's token state (undefined: no such account), from memory when fresh. */
    async get(id: string): Promise<TokenState | undefined> {
      const entry = entries.get(id);
      if (entry && now() - entry.storedAt <= maxAgeMs) {
        counters.hits++;
        // most recently used last, so the oldest are evicted first
        entries.delete(id);
        entries.set(id, entry);
        return entry.state;
      }
      counters.misses++;
      const startedAt = epoch;
      const state = await findTokenState(db, id);
      if (startedAt === epoch) {
        entries.delete(id);
        entries.set(id, { state, storedAt: now() });
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      }
      return state;
    },

    forget,
    clear,

    /** Forgets an account on each `spotter_account` payload, everything on a reconnect. Answers a stop. */
    async listen(database: Database, log: FastifyBaseLogger): Promise<() => Promise<void>> {
      const bus = createNotifyBus(database, log);
      await bus.subscribe(ACCOUNT_CHANNEL, (payload) => forget(payload), clear);
      return () => bus.close();
    },

    stats: () => ({ ...counters, entries: entries.size }),
  };
}
export type TokenStates = ReturnType<typeof createTokenStates>;
