import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

const MAX_RETRIES = 3;

/** docs/product.md#limits: 3 retries, 1 s doubling up to 30 s; a 4xx will not get better by retrying. */
export const shouldRetry = (failureCount: number, error: unknown) =>
  !(error instanceof ApiError && error.isClientError) && failureCount < MAX_RETRIES;

export const retryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

/**
 * Queries run offline too (`offlineFirst`): the service worker answers reads from what this device
 * saved (docs/product.md#installable-and-offline), and only the retries of one that failed wait for
 * the network. React Query's default would not even ask while the browser says it is offline.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay, gcTime: 5 * 60_000, refetchOnWindowFocus: false, networkMode: 'offlineFirst' },
      mutations: { retry: false },
    },
  });
}
