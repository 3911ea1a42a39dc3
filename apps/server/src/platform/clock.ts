/**
 * The app's one clock for bookings, payments, payouts and the durable jobs (docs/testing.md#the-test-clock).
 * The real time, or with TEST_CLOCK=1 (refused in production) the real time moved forward by an
 * offset that only grows, so an end-to-end test can let a session pass and its payout fall due.
 * Tokens and rate limits keep the real time.
 */
export type Clock = {
  now: () => Date;
  /** Test clocks only: moves the time forward by `ms` and answers the new time. */
  advance?: (ms: number) => Date;
};

export function createClock({ test = false }: { test?: boolean } = {}): Clock {
  if (!test) return { now: () => new Date() };
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  return {
    now,
    advance(ms) {
      if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError('the test clock only moves forward');
      offsetMs += ms;
      return now();
    },
  };
}
