import { useSyncExternalStore } from 'react';
import { isRole, type Role } from './paths';
import { storage } from './storage';

/**
 * The role claim of the stored token. Only a hint for links while `userType` is not stored yet
 * (the 3 s after login); the server checks the token itself.
 */
function roleFromToken(token: string | null): Role | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const role: unknown = (JSON.parse(json) as { role?: unknown }).role;
    return isRole(role) ? role : null;
  } catch {
    return null;
  }
}

export type Session = {
  isLoggedIn: boolean;
  token: string | null;
  /** The stored user type, or while it is not stored yet the role in the token. */
  role: Role | null;
};

/** Logged in is true exactly when a token is stored (docs/product.md#states). */
export function useSession(): Session {
  const token = useSyncExternalStore(storage.subscribe, storage.getToken, () => null);
  const userType = useSyncExternalStore(storage.subscribe, storage.getUserType, () => null);
  return { isLoggedIn: token !== null, token, role: userType ?? roleFromToken(token) };
}

let loggedOutAt = 0;
/** Logout marks the moment, so a protected page still on screen goes home rather than to a login. */
export const markLoggedOut = () => {
  loggedOutAt = Date.now();
};
export const wasJustLoggedOut = () => Date.now() - loggedOutAt < 10_000;
