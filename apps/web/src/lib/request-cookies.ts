import { createContext, useContext } from 'react';

/** The Cookie header of the request the server is rendering the page for; null in the browser. */
export const RequestCookies = createContext<string | null>(null);

/**
 * The page's cookies: the request's on the server, `document.cookie` in the browser. The two are the
 * same cookies, so a component can render from them on both sides and hydrate without a mismatch.
 */
export function useCookies(): string {
  return useContext(RequestCookies) ?? document.cookie;
}

/** Whether `cookies` (a Cookie header or `document.cookie`) holds `name=value`. */
export const hasCookie = (cookies: string, name: string, value: string) =>
  cookies.split(';').some((entry) => entry.trim() === `${name}=${value}`);
