import { afterEach, describe, expect, it } from 'vitest';
import { storage } from './storage';

const signedInCookie = () => document.cookie.split(';').some((c) => c.trim() === 'signed-in=1');

afterEach(() => {
  document.cookie = 'signed-in=; path=/; max-age=0';
});

/**
 * The signed-in cookie tells the server to send the shell instead of a page rendered for a visitor
 * (docs/decisions/031-server-rendered-first-page.md): it must say exactly whether a token is stored.
 */
describe('the signed-in cookie', () => {
  it('is set with the token and removed with the session', () => {
    storage.setToken('header.payload.signature');
    expect(signedInCookie()).toBe(true);
    storage.clearSession();
    expect(signedInCookie()).toBe(false);
    expect(storage.getToken()).toBeNull();
  });

  it('follows the stored token at a page load: set for a session kept from before, removed without one', () => {
    window.localStorage.setItem('token', 'header.payload.signature');
    storage.syncSignedInCookie();
    expect(signedInCookie()).toBe(true);
    window.localStorage.removeItem('token');
    storage.syncSignedInCookie();
    expect(signedInCookie()).toBe(false);
  });
});
