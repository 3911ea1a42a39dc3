import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/lib/paths';
import { markLoggedOut } from '@/lib/session';
import { storage } from '@/lib/storage';

/**
 * Logout (spec section 4): forget token, user type and profile, and go to the site root. The
 * mark tells a protected page still on screen to go home too, not to its login.
 */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    markLoggedOut();
    storage.clearSession();
    queryClient.clear();
    await navigate(paths.home.getHref());
  }, [navigate, queryClient]);
}
