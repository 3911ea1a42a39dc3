import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { paths, type Role } from '@/lib/paths';
import { useSession, wasJustLoggedOut } from '@/lib/session';

/**
 * Shows its children only with a stored token; a visitor goes to the login of `role`, someone who
 * just logged out goes home (spec section 4). The server checks the token and role itself.
 */
export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const { isLoggedIn } = useSession();
  if (!isLoggedIn) return <Navigate to={wasJustLoggedOut() ? paths.home.getHref() : paths.login[role].getHref()} replace />;
  return children;
}
