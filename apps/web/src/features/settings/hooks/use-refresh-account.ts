import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Role } from '@/lib/paths';

/**
 * After a save: refetch everything under ['account', role] (the header's own account, and the
 * profile's weight history), so the header and profile show the change at once.
 */
export function useRefreshAccount(role: Role) {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: ['account', role] }), [queryClient, role]);
}
