import { isRole, type Role } from './paths';

/** The browser storage keys of docs/product.md#browser-storage. */
const STORAGE_KEYS = {
  token: 'token',
  userType: 'userType',
  userData: 'userData',
  favorites: 'favorites',
} as const;

const CHANGE_EVENT = 'spotter:storage';

/**
 * A cookie that says a token is stored, and nothing else: the server renders a visitor's page itself
 * (docs/decisions/031-server-rendered-first-page.md) but cannot see the token, so it sends this
 * browser the shell instead, and the page opens with the person's own header. It lasts as long as
 * a token does (7 days, docs/product.md#tokens) and is renewed at every page load while one is stored.
 */
const SIGNED_IN_COOKIE = 'signed-in';
const TOKEN_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

function writeSignedInCookie(isSignedIn: boolean) {
  document.cookie = `${SIGNED_IN_COOKIE}=1; path=/; SameSite=Lax; max-age=${isSignedIn ? TOKEN_LIFETIME_SECONDS : 0}`;
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage disabled (private mode, blocked cookies)
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // storage full or disabled: the app keeps working for this page view
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

function readJson<T>(key: string, isValid: (value: unknown) => value is T): T | null {
  const raw = read(key);
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return isValid(value) ? value : null;
  } catch {
    return null;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

export const storage = {
  getToken: () => read(STORAGE_KEYS.token) || null,
  setToken: (token: string) => {
    writeSignedInCookie(true);
    write(STORAGE_KEYS.token, token);
  },

  getUserType: (): Role | null => {
    const value = read(STORAGE_KEYS.userType);
    return isRole(value) ? value : null;
  },
  setUserType: (role: Role) => write(STORAGE_KEYS.userType, role),

  getUserData: () => readJson(STORAGE_KEYS.userData, isObject),
  setUserData: (data: object) => write(STORAGE_KEYS.userData, JSON.stringify(data)),

  getFavorites: () => readJson(STORAGE_KEYS.favorites, isStringList) ?? [],
  setFavorites: (ids: string[]) => write(STORAGE_KEYS.favorites, JSON.stringify(ids)),

  /** Logout: forgets who is logged in (favourites stay, they belong to the device). */
  clearSession: () => {
    writeSignedInCookie(false);
    for (const key of [STORAGE_KEYS.token, STORAGE_KEYS.userType, STORAGE_KEYS.userData]) {
      try {
        window.localStorage.removeItem(key);
      } catch {
        // ignore, see write()
      }
    }
    window.dispatchEvent(new Event(CHANGE_EVENT));
  },

  /** At a page load: the signed-in cookie says whether a token is stored (set, renewed or removed). */
  syncSignedInCookie: () => writeSignedInCookie(!!read(STORAGE_KEYS.token)),

  /** Calls `onChange` when this tab or another one changes the stored values. */
  subscribe: (onChange: () => void) => {
    window.addEventListener(CHANGE_EVENT, onChange);
    window.addEventListener('storage', onChange);
    return () => {
      window.removeEventListener(CHANGE_EVENT, onChange);
      window.removeEventListener('storage', onChange);
    };
  },
};
