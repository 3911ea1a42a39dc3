import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { retryDelay, shouldRetry } from './query-client';

describe('query retry policy (docs/product.md#limits)', () => {
  it('retries server and network failures three times', () => {
    const error = new ApiError(503, 'Unavailable');
    expect([0, 1, 2].map((n) => shouldRetry(n, error))).toEqual([true, true, true]);
    expect(shouldRetry(3, error)).toBe(false);
    expect(shouldRetry(0, new ApiError(0, 'offline'))).toBe(true);
  });

  it('never retries a 4xx', () => {
    expect(shouldRetry(0, new ApiError(401, 'Please log in first'))).toBe(false);
    expect(shouldRetry(0, new ApiError(404, 'Not found'))).toBe(false);
  });

  it('waits 1 s, doubling, at most 30 s', () => {
    expect([0, 1, 2, 3, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 30_000]);
  });
});
