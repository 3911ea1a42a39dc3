import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TAuthConfigResponse } from '@spotter/shared';
import { apiRequest } from '../api-client';

/** Which sign-in providers the server accepts (GET /api/auth/config); fixed while the server runs. */
export const authConfigKeys = {
  all: ['auth-config'] as const,
};

const getAuthConfig = () => apiRequest<TAuthConfigResponse>('/auth/config');

const authConfigQueryOptions = () => queryOptions({ queryKey: authConfigKeys.all, queryFn: getAuthConfig, staleTime: Infinity });

export const useAuthConfig = () => useQuery(authConfigQueryOptions());
