import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TTrainerProfile, TTrainersQuery, TTrainersResponse } from '@spotter/shared';
import { apiRequest } from '../api-client';
import { takeEarly } from '../early-requests';
import { shouldRetry } from '../query-client';
import { trainerPath, trainersPath } from './trainer-paths';

/**
 * Trainers (GET /api/trainers, GET /api/trainerData/:id): the one fetcher per endpoint and the
 * one key factory every screen that shows a trainer uses, so a write (a review, a favourite)
 * refreshes every copy through these keys.
 */
export type TrainersQuery = TTrainersQuery;

export const trainerKeys = {
  all: ['trainers'] as const,
  lists: () => [...trainerKeys.all, 'list'] as const,
  list: (query: TrainersQuery) => [...trainerKeys.lists(), query] as const,
  details: () => [...trainerKeys.all, 'detail'] as const,
  detail: (id: string) => [...trainerKeys.details(), id] as const,
  byIds: (ids: string[]) => [...trainerKeys.all, 'by-ids', ids] as const,
};

/** GET /api/trainers: one page of listed trainers and how many match (the page load's early answer when it has one). */
const getTrainers = (query: TrainersQuery, signal?: AbortSignal) => {
  const path = trainersPath(query);
  return takeEarly<TTrainersResponse>(path) ?? apiRequest<TTrainersResponse>(path, { signal });
};

/**
 * A list people are waiting to browse: one quick retry, then the error with its Retry button
 * (within about a second and a half, instead of the default 1 + 2 + 4 s of retries).
 */
const LIST_RETRY_DELAY_MS = 400;

export const trainersQueryOptions = (query: TrainersQuery) =>
  queryOptions({
    queryKey: trainerKeys.list(query),
    queryFn: ({ signal }) => getTrainers(query, signal),
    retry: (failureCount, error) => failureCount < 1 && shouldRetry(failureCount, error),
    retryDelay: LIST_RETRY_DELAY_MS,
  });

/** The server takes at most 100 ids a page: the 100 most recent. */
const MAX_IDS = 100;

/** Chosen trainers (the favourites) through GET /api/trainers?ids=…; none asked, none fetched. */
async function getTrainersByIds(ids: string[], signal?: AbortSignal) {
  const shown = ids.slice(-MAX_IDS);
  if (shown.length === 0) return [];
  const { viewAllTrainers } = await getTrainers({ ids: shown.join(','), limit: MAX_IDS }, signal);
  return viewAllTrainers;
}

export const trainersByIdsQueryOptions = (ids: string[]) =>
  queryOptions({ queryKey: trainerKeys.byIds(ids.slice(-MAX_IDS)), queryFn: ({ signal }) => getTrainersByIds(ids, signal) });

type ListOptions = {
  enabled?: boolean;
  /** Keep the previous answer on screen (dimmed) while the next one loads, so nothing flickers. */
  isKeepingPrevious?: boolean;
  staleTime?: number;
};

export function useTrainers(query: TrainersQuery, { enabled = true, isKeepingPrevious = false, staleTime }: ListOptions = {}) {
  return useQuery({
    ...trainersQueryOptions(query),
    enabled,
    staleTime,
    placeholderData: isKeepingPrevious ? keepPreviousData : undefined,
  });
}

/**
 * GET /api/trainerData/:id, the public profile with subscribers (no contact data, docs/product.md#public-and-private-data). 404
 * until listed.
 */
const getTrainer = async (id: string, signal?: AbortSignal) => {
  const path = trainerPath(id);
  type Answer = { trainerData: TTrainerProfile };
  const { trainerData } = await (takeEarly<Answer>(path) ?? apiRequest<Answer>(path, { signal }));
  return trainerData;
};

export const trainerQueryOptions = (id: string) =>
  queryOptions({ queryKey: trainerKeys.detail(id), queryFn: ({ signal }) => getTrainer(id, signal) });

export function useTrainer(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...trainerQueryOptions(id), enabled });
}
