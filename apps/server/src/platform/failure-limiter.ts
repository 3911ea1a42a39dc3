import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error';

/** A 429 that knows when to try again; routes copy that into a `Retry-After` header. */
export class LockedOut extends AppError {
  constructor(
    message: string,
    public readonly retryAfterSeconds: number,
  ) {
    super('RATE_LIMITED', message);
  }
}

export type Attempt = {
  /** The password was right: this attempt does not count, and earlier failures are forgiven. */
  succeeded(): void;
};

/**
 * Counts failures (wrong passwords), not attempts, per key in a fixed window, in memory.
 * `begin` refuses once `max` failures are counted; otherwise it counts the attempt as a failure
 * straight away, so that parallel guesses cannot all pass the check before any of them fails, and
 * `succeeded()` takes it back and clears the key. Each process counts on its own (see
 * docs/decisions/003-rate-limits.md).
 */
export function createFailureLimiter(opts: { max: number; windowMs: number; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const failures = new Map<string, { count: number; resetAt: number }>();
  const sweep = setInterval(() => {
    const t = now();
    for (const [k, v] of failures) if (v.resetAt <= t) failures.delete(k);
  }, opts.windowMs);
  sweep.unref();

  const live = (key: string) => {
    const entry = failures.get(key);
    return entry && entry.resetAt > now() ? entry : undefined;
  };

  return {
    /** Seconds until `key` may try again, or 0 when it may try now. */
    retryAfter(key: string): number {
      const entry = live(key);
      return entry && entry.count >= opts.max ? Math.ceil((entry.resetAt - now()) / 1000) : 0;
    },
    /** Counts one failure for `key` now; answers a function that takes it back. */
    count(key: string): () => void {
      let entry = live(key);
      if (!entry) {
        entry = { count: 0, resetAt: now() + opts.windowMs };
        failures.set(key, entry);
      }
      entry.count++;
      const counted = entry;
      return () => {
        if (counted.count > 0) counted.count--;
      };
    },
    clear(key: string) {
      failures.delete(key);
    },
    /** Throws `LockedOut` with `message(seconds)` when `key` is over the limit; else counts the attempt. */
    begin(key: string, message: (retryAfterSeconds: number) => string): Attempt {
      const wait = this.retryAfter(key);
      if (wait > 0) throw new LockedOut(message(wait), wait);
      this.count(key);
      return { succeeded: () => this.clear(key) };
    },
  };
}

/** An onError hook for route plugins whose handlers may throw `LockedOut`: adds `Retry-After`. */
export async function addRetryAfter(_req: FastifyRequest, reply: FastifyReply, err: Error) {
  if (err instanceof LockedOut) reply.header('Retry-After', err.retryAfterSeconds);
}
