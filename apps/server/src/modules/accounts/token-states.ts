import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client';
import { findTokenState } from './accounts.repo';

type TokenState = NonNullable<Awaited<ReturnType<typeof findTokenState>>>;

type Entry = { state: TokenState | undefined; storedAt: number };

type TokenStatesOptions = {
  /** At most this many accounts are remembered (the least recently checked go first). */
  maxEntries?: number;
  /**
   * A remembered state is read again after this long even when nothing was announced: the bound
   * on how long a change takes to end a token while a listening connection is down.
   */
  maxAgeMs?: number;
  now?: () => number;
};

/**
 * The state behind every token check (role, token version, deletion), remembered per account
 * (docs/decisions/023-token-check-cache.md). The database announces every change that ends tokens
 * (role, token version, deletion: a trigger, docs/caching.md) on `spotter_account`; every process,
 * this one included, forgets that account when the notification arrives after the commit
 * (`forget`), and forgets everything when its listening connection comes back (`clear`: what was
 * announced meanwhile was missed). A read that started before a forget is used once but not
 * remembered, so a read racing a change never keeps the old state.
 */
export function createTokenStates(db: Db, { maxEntries = 20_000, maxAgeMs = 10_000, now = Date.now }: TokenStatesOptions = {}) {
  // the least recently checked go first past `maxEntries`
  const entries = new LRUCache<string, Entry>({ max: maxEntries });
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
        return entry.state;
      }
      counters.misses++;
      const startedAt = epoch;
      const state = await findTokenState(db, id);
      if (startedAt === epoch) {
        entries.set(id, { state, storedAt: now() });
      }
      return state;
    },

    forget,
    clear,

    stats: () => ({ ...counters, entries: entries.size }),
  };
}
export type TokenStates = ReturnType<typeof createTokenStates>;
