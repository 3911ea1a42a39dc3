import { describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/app-error';
import { createBatchLoader } from '../src/platform/batch-loader';

/** A `loadMany` that records each read's keys and answers when `release` is called. */
function gatedReads() {
  const reads: string[][] = [];
  const gates: Array<() => void> = [];
  const loadMany = (keys: string[]) => {
    reads.push(keys);
    return new Promise<Map<string, string>>((resolve) =>
      gates.push(() => resolve(new Map(keys.filter((k) => !k.startsWith('missing')).map((k) => [k, `row ${k}`])))),
    );
  };
  const release = () => gates.shift()!();
  return { reads, loadMany, release };
}

/** One turn of the event loop: a read the loader scheduled has started. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('batched reads', () => {
  it('reads a key at once when nothing runs, and the keys asked for meanwhile together in the next read', async () => {
    const { reads, loadMany, release } = gatedReads();
    const loader = createBatchLoader(loadMany);
    const first = loader.load('a');
    await turn();
    expect(reads).toEqual([['a']]);
    const later = ['b', 'c', 'b', 'missing-d'].map((k) => loader.load(k));
    await turn();
    expect(reads).toHaveLength(1);
    release();
    expect(await first).toBe('row a');
    await turn();
    expect(reads).toEqual([['a'], ['b', 'c', 'missing-d']]);
    release();
    expect(await Promise.all(later)).toEqual(['row b', 'row c', 'row b', undefined]);
    expect(loader.stats()).toMatchObject({ reads: 2, keys: 4, largest: 3, waiting: 0, running: 0 });
  });

  it('reads at most maxBatch keys at once; the rest go in the reads after', async () => {
    const { reads, loadMany, release } = gatedReads();
    const loader = createBatchLoader(loadMany, { maxBatch: 2 });
    const all = ['a', 'b', 'c', 'd', 'e'].map((k) => loader.load(k));
    await turn();
    expect(reads).toEqual([['a', 'b']]);
    release();
    await all[1];
    await turn();
    expect(reads).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    release();
    await all[3];
    await turn();
    release();
    expect(await Promise.all(all)).toEqual(['row a', 'row b', 'row c', 'row d', 'row e']);
    expect(reads).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('fails every waiter of a read that failed, and reads the next keys as usual', async () => {
    let fail = true;
    const loader = createBatchLoader(async (keys: string[]) => {
      if (fail) throw new Error('connection lost');
      return new Map(keys.map((k) => [k, k.toUpperCase()]));
    });
    const failed = await Promise.allSettled([loader.load('a'), loader.load('b')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await loader.load('a')).toBe('A');
  });

  it('refuses a key beyond maxWaiting with 503 rather than queueing it', async () => {
    const { loadMany, release } = gatedReads();
    const loader = createBatchLoader(loadMany, { maxBatch: 1, maxWaiting: 2 });
    const running = loader.load('a');
    await turn();
    const queued = [loader.load('b'), loader.load('c'), loader.load('b')];
    const refused = await loader.load('d').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('DATABASE_UNAVAILABLE');
    release();
    await running;
    await turn();
    release();
    await queued[0];
    await turn();
    release();
    expect(await Promise.all(queued)).toEqual(['row b', 'row c', 'row b']);
  });

  it('runs up to `concurrency` reads side by side, and a key that must be read is never refused', async () => {
    const { reads, loadMany, release } = gatedReads();
    const loader = createBatchLoader(loadMany, { maxBatch: 1, concurrency: 2, maxWaiting: 2 });
    const first = [loader.load('a'), loader.load('b')];
    await turn();
    await turn();
    expect(reads).toEqual([['a'], ['b']]);
    const waitingTwo = [loader.load('c'), loader.load('d')];
    expect(await loader.load('x').catch((err: unknown) => (err as AppError).code)).toBe('DATABASE_UNAVAILABLE');
    const mustRead = loader.load('e', true);
    release();
    release();
    expect(await Promise.all(first)).toEqual(['row a', 'row b']);
    await turn();
    await turn();
    expect(reads).toEqual([['a'], ['b'], ['c'], ['d']]);
    release();
    release();
    await Promise.all(waitingTwo);
    await turn();
    release();
    expect(await Promise.all([...waitingTwo, mustRead])).toEqual(['row c', 'row d', 'row e']);
    expect(reads.flat()).not.toContain('x');
  });
});
