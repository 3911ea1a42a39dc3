import { SERVER_MSG } from '@spotter/shared';
import { AppError } from '../lib/app-error';

type Waiter<V> = { resolve: (value: V | undefined) => void; reject: (err: unknown) => void };

type BatchLoaderOptions = {
  /** At most this many keys in one read. */
  maxBatch?: number;
  /**
   * Reads under way at once: 1 for PGlite, which runs one statement at a time anyway; a few on
   * PostgreSQL, so one slow statement does not hold every other read of its kind.
   */
  concurrency?: number;
  /** At most this many different keys waiting (default 20 reads' worth); beyond, a load is refused (503). */
  maxWaiting?: number;
};

/**
 * Reads rows by key in batches (docs/decisions/026-batched-reads.md). One read runs at a time (or
 * `concurrency`); the keys asked for meanwhile wait and go together in the next read, so fifty requests that miss the
 * read cache at once cost one or two statements instead of fifty. PGlite runs one statement at a
 * time, each a few milliseconds of WebAssembly whatever it reads, so this is where its time goes.
 * A key asked for while no read runs is read once the requests that arrived with it have asked for
 * theirs (`setImmediate`): nothing waits for a timer. A key asked for twice while it waits is read once.
 *
 * `loadMany` answers the rows it found by key; a key it did not find resolves to undefined.
 */
export function createBatchLoader<K, V>(
  loadMany: (keys: K[]) => Promise<Map<K, V>>,
  { maxBatch = 50, concurrency = 1, maxWaiting = 20 * maxBatch }: BatchLoaderOptions = {},
) {
  const waiting = new Map<K, Array<Waiter<V>>>();
  let running = 0;
  let scheduled = false;
  const counters = { reads: 0, keys: 0, largest: 0 };

  function schedule() {
    if (running >= concurrency || scheduled || waiting.size === 0) return;
    scheduled = true;
    // after the event loop's poll phase, not in a microtask: every request that arrived with this
    // one (PGlite blocks the loop while it reads, so they pile up) has asked for its key by then
    setImmediate(() => void run());
  }

  async function run() {
    scheduled = false;
    running++;
    const batch = new Map<K, Array<Waiter<V>>>();
    for (const [key, waiters] of waiting) {
      if (batch.size >= maxBatch) break;
      batch.set(key, waiters);
      waiting.delete(key);
    }
    // another read may start beside this one (`concurrency`) with the keys left waiting
    schedule();
    counters.reads++;
    counters.keys += batch.size;
    counters.largest = Math.max(counters.largest, batch.size);
    try {
      const found = await loadMany([...batch.keys()]);
      for (const [key, waiters] of batch) for (const w of waiters) w.resolve(found.get(key));
    } catch (err) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
    } finally {
      running--;
      schedule();
    }
  }

  return {
    /**
     * The row of `key`, read with the keys asked for around the same time; undefined when there is
     * none. `mustRead`: never refused (a write reading back what it just stored).
     */
    load(key: K, mustRead = false): Promise<V | undefined> {
      return new Promise((resolve, reject) => {
        let waiters = waiting.get(key);
        if (!waiters) {
          // a flood of different keys is refused at once, not kept in memory behind a slow database
          if (waiting.size >= maxWaiting && !mustRead)
            return reject(new AppError('DATABASE_UNAVAILABLE', SERVER_MSG.databaseUnavailable));
          waiting.set(key, (waiters = []));
        }
        waiters.push({ resolve, reject });
        schedule();
      });
    },
    stats: () => ({ ...counters, waiting: waiting.size, running }),
  };
}
