import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from './paths';
import { markLoggedOut } from './session';
import { storage } from './storage';

/**
 * Logout (docs/product.md#states): forget token, user type and profile, drop every cached answer, and go
 * to the site root (or `to`). The mark tells a protected page still on screen to go home too,
 * not to its login. Favourites stay in this browser: they belong to the device.
 */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async ({ to = paths.home.getHref() }: { to?: string } = {}) => {
      markLoggedOut();
      storage.clearSession();
      queryClient.clear();
      await navigate(to);
    },
    [navigate, queryClient],
  );
}
