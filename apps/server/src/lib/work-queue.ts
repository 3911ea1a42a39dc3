/** Thrown by `run` when every slot is busy and the waiting list is full. */
export class QueueFullError extends Error {
  constructor() {
    super('work queue full');
    this.name = 'QueueFullError';
  }
}

/**
 * Runs at most `concurrency` tasks at once; up to `maxWaiting` more wait their turn in order, and
 * beyond that `run` rejects at once with QueueFullError, so a burst costs a bounded amount of
 * memory and CPU instead of all of it.
 */
export function createWorkQueue({ concurrency, maxWaiting }: { concurrency: number; maxWaiting: number }) {
  let running = 0;
  const waiting: Array<() => void> = [];

  const next = () => {
    running--;
    const start = waiting.shift();
    if (start) {
      running++;
      start();
    }
  };

  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running >= concurrency) {
        if (waiting.length >= maxWaiting) throw new QueueFullError();
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running++;
      }
      try {
        return await task();
      } finally {
        next();
      }
    },
    /** Tasks running and waiting now. */
    stats: () => ({ running, waiting: waiting.length }),
  };
}
