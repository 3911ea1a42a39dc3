import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { accountKeys } from '@/lib/api/accounts';
import { reviewKeys } from '@/lib/api/reviews';
import { trainerKeys } from '@/lib/api/trainers';
import type { Role } from '@/lib/paths';

/**
 * After a save: refetch everything of the account (the header's own account, and the profile's
 * weight history), so the header and profile show the change at once. A trainer's name, photo
 * and price show on the public profile and the lists; a user's on the reviews they wrote.
 */
export function useRefreshAccount(role: Role) {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.ofRole(role) }),
        queryClient.invalidateQueries({ queryKey: role === 'trainer' ? trainerKeys.all : reviewKeys.all }),
      ]),
    [queryClient, role],
  );
}
