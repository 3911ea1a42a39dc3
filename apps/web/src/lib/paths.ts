/**
 * The one route map (docs/architecture.md#conventions: "never a hand-written URL string in a component").
 * `path` is the pattern used by the route table, `getHref` builds a link to it.
 */
export type Role = 'user' | 'trainer';

const withQuery = (path: string, query: Record<string, string | undefined>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
};

const fixed = <P extends string>(path: P) => ({ path, getHref: () => path });

export const paths = {
  home: fixed('/'),
  trainers: fixed('/trainers'),
  trainerPublicProfile: {
    path: '/trainer/profile/:id',
    getHref: (id: string) => `/trainer/profile/${encodeURIComponent(id)}`,
  },
  register: { user: fixed('/users/register'), trainer: fixed('/trainers/register') },
  login: {
    user: { path: '/users/login', getHref: (next?: string) => withQuery('/users/login', { next }) },
    trainer: { path: '/trainers/login', getHref: (next?: string) => withQuery('/trainers/login', { next }) },
  },
  profile: { user: fixed('/user/profile'), trainer: fixed('/trainer/profile') },
  settings: { user: fixed('/user/settings'), trainer: fixed('/trainer/settings') },
  payments: { user: fixed('/user/payments'), trainer: fixed('/trainer/payments') },
  inbox: {
    user: fixed('/user/chatOfUser'),
    trainer: fixed('/trainer/chat'),
    /** Same screen as `trainer` (docs/product.md#chat); kept because the spec links to it. */
    trainerAlias: fixed('/trainer/chatOfTrainer'),
  },
  bmi: fixed('/BMI'),
  verificationSuccess: {
    path: '/verification/success',
    getHref: (role?: Role) => withQuery('/verification/success', { role }),
  },
  verificationFailed: fixed('/verification/failed'),
  forgotPassword: {
    path: '/forgot-password',
    getHref: (role?: Role) => withQuery('/forgot-password', { role }),
  },
  resetPassword: {
    path: '/reset-password',
    getHref: (token: string, role?: Role) => withQuery('/reset-password', { token, role }),
  },
  team: fixed('/team'),
  pricing: fixed('/pricing'),
  blog: fixed('/blog'),
  blogPost: {
    path: '/blog/:slug',
    getHref: (slug: string) => `/blog/${encodeURIComponent(slug)}`,
  },
  /** The operator console (docs/product.md#the-operator-console): a layout and a session of its own. */
  console: {
    audit: fixed('/console'),
    login: fixed('/console/login'),
    overview: fixed('/console/overview'),
    people: fixed('/console/people'),
    person: { path: '/console/people/:id', getHref: (id: string) => `/console/people/${encodeURIComponent(id)}` },
    reports: fixed('/console/reports'),
    /** Trainers' certificates: the queue operators approve or reject (docs/product.md#verified-coaches). */
    certificates: fixed('/console/certificates'),
    bookings: fixed('/console/bookings'),
    disputes: fixed('/console/disputes'),
    /** The one-time link `npm run operator -- add` prints. */
    welcome: { path: '/console/welcome', getHref: (token: string) => withQuery('/console/welcome', { token }) },
  },
} as const;

export const isRole = (value: unknown): value is Role => value === 'user' || value === 'trainer';

/** Reads a `?role=` value, falling back when it is missing or unknown. */
export const roleFrom = (value: string | null | undefined, fallback: Role): Role => (isRole(value) ? value : fallback);

/** A `?next=` return address, kept only when it is a path on this site (never `//host` or a full URL). */
export const safeNext = (value: string | null | undefined): string | null =>
  value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : null;
