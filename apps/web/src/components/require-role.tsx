import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths, type Role } from '@/lib/paths';
import { useSession, wasJustLoggedOut } from '@/lib/session';

/**
 * Shows its children only with a stored token of `role`. A visitor goes to the login of `role`
 * with the page as its return address (`?next=`); someone who just logged out goes home (spec
 * section 4); someone logged in with the other role goes to their own profile rather than meeting
 * an error from the server. The server checks the token and role itself.
 */
export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const { isLoggedIn, role: sessionRole } = useSession();
  const location = useLocation();
  if (!isLoggedIn) {
    const next = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={wasJustLoggedOut() ? paths.home.getHref() : paths.login[role].getHref(next)} replace />;
  }
  if (sessionRole && sessionRole !== role) return <Navigate to={paths.profile[sessionRole].getHref()} replace />;
  return children;
}
