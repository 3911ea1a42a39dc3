import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

const MAX_RETRIES = 3;

/** docs/product.md#limits: 3 retries, 1 s doubling up to 30 s; a 4xx will not get better by retrying. */
export const shouldRetry = (failureCount: number, error: unknown) =>
  !(error instanceof ApiError && error.isClientError) && failureCount < MAX_RETRIES;

export const retryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay, gcTime: 5 * 60_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
