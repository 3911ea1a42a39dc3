import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TTrainersQuery, TTrainersResponse } from '@spotter/shared';
import { apiRequest } from '@/lib/api-client';

/** The query string the server takes (DECISIONS 13); unset values are left out. */
export type TrainersQuery = Omit<TTrainersQuery, 'page' | 'limit'> & { page: number; limit: number };

export function toSearchString(query: TrainersQuery) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  return params.toString();
}

/** GET /api/trainers: one page of listed trainers and how many match. */
export const getTrainers = (query: TrainersQuery, signal?: AbortSignal) =>
  apiRequest<TTrainersResponse>(`/trainers?${toSearchString(query)}`, { signal });

export const trainersQueryOptions = (query: TrainersQuery) =>
  queryOptions({
    queryKey: ['trainers', query],
    queryFn: ({ signal }) => getTrainers(query, signal),
  });

export function useTrainers(query: TrainersQuery) {
  // The previous page stays on screen (dimmed) while the next one loads, so nothing flickers.
  return useQuery({ ...trainersQueryOptions(query), placeholderData: keepPreviousData });
}
