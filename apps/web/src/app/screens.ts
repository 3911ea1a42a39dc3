import { requestEarly } from '@/lib/early-requests';
import { FIRST_TRAINERS_QUERY, LIST_FIRST_ROW, trainerPath, trainersPath } from '@/lib/api/trainer-paths';
import { paths } from '@/lib/paths';

/**
 * The code of each screen, one lazy chunk each (docs/product.md#tokens). The route table loads them through
 * these, and the entry starts the first screen's chunk (and its first API answer) at once, so the
 * page does not wait for React and the router to load and run before asking for them.
 */
export const screens = {
  home: () => import('@/features/landing/components/home-page'),
  trainerList: () => import('@/features/trainers/components/trainer-list-page'),
  trainerProfile: () => import('./routes/trainer-profile-route'),
  signUp: () => import('@/features/auth/components/sign-up-page'),
  login: () => import('@/features/auth/components/login-page'),
  verificationSuccess: () => import('@/features/auth/components/verification-success-page'),
  verificationFailed: () => import('@/features/auth/components/verification-failed-page'),
  forgotPassword: () => import('@/features/auth/components/forgot-password-page'),
  resetPassword: () => import('@/features/auth/components/reset-password-page'),
  ownProfile: () => import('./routes/own-profile-route'),
  settings: () => import('@/features/settings/components/settings-page'),
  payments: () => import('@/features/payments/components/payments-page'),
  inbox: () => import('@/features/chat/components/inbox-page'),
  bmi: () => import('@/features/bmi/components/bmi-page'),
  team: () => import('@/features/static-pages/components/team-page'),
  pricing: () => import('@/features/static-pages/components/pricing-page'),
  blog: () => import('@/features/static-pages/components/blog-page'),
  blogPost: () => import('@/features/static-pages/components/blog-post-page'),
  notFound: () => import('./not-found-page'),
  // the operator console: its own layout and pages, never in a member's bundle
  consoleLayout: () => import('@/features/console/components/console-layout'),
  consoleWelcome: () => import('@/features/console/components/console-welcome-page'),
  consoleLogin: () => import('@/features/console/components/console-login-page'),
  consoleAudit: () => import('@/features/console/components/console-audit-page'),
  consoleOverview: () => import('@/features/console/components/console-overview-page'),
  consolePeople: () => import('@/features/console/components/console-people-page'),
  consolePerson: () => import('@/features/console/components/console-person-page'),
  consoleReports: () => import('@/features/console/components/console-reports-page'),
  consoleCertificates: () => import('@/features/console/components/console-certificates-page'),
  consoleBookings: () => import('@/features/console/components/console-bookings-page'),
  consoleDisputes: () => import('@/features/console/components/console-disputes-page'),
};

export type Screen = keyof typeof screens;

/** The screen of each address pattern in the route table (router.tsx), for the first page load. */
const screenOfPath: ReadonlyArray<readonly [string, Screen]> = [
  [paths.home.path, 'home'],
  [paths.trainers.path, 'trainerList'],
  [paths.trainerPublicProfile.path, 'trainerProfile'],
  [paths.register.user.path, 'signUp'],
  [paths.register.trainer.path, 'signUp'],
  [paths.login.user.path, 'login'],
  [paths.login.trainer.path, 'login'],
  [paths.verificationSuccess.path, 'verificationSuccess'],
  [paths.verificationFailed.path, 'verificationFailed'],
  [paths.forgotPassword.path, 'forgotPassword'],
  [paths.resetPassword.path, 'resetPassword'],
  [paths.profile.user.path, 'ownProfile'],
  [paths.profile.trainer.path, 'ownProfile'],
  [paths.settings.user.path, 'settings'],
  [paths.settings.trainer.path, 'settings'],
  [paths.payments.user.path, 'payments'],
  [paths.payments.trainer.path, 'payments'],
  [paths.inbox.user.path, 'inbox'],
  [paths.inbox.trainer.path, 'inbox'],
  [paths.inbox.trainerAlias.path, 'inbox'],
  [paths.bmi.path, 'bmi'],
  [paths.team.path, 'team'],
  [paths.pricing.path, 'pricing'],
  [paths.blog.path, 'blog'],
  [paths.blogPost.path, 'blogPost'],
  [paths.console.audit.path, 'consoleAudit'],
  [paths.console.overview.path, 'consoleOverview'],
  [paths.console.welcome.path, 'consoleWelcome'],
  [paths.console.login.path, 'consoleLogin'],
  [paths.console.people.path, 'consolePeople'],
  [paths.console.person.path, 'consolePerson'],
  [paths.console.reports.path, 'consoleReports'],
  [paths.console.certificates.path, 'consoleCertificates'],
  [paths.console.bookings.path, 'consoleBookings'],
  [paths.console.disputes.path, 'consoleDisputes'],
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A route pattern as React Router matches it: any case, an optional trailing slash, `:param` one segment. */
const toRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split(/(:\w+)/)
      .map((part) => (part.startsWith(':') ? '([^/]+)' : escapeRegExp(part)))
      .join('')}/?$`,
    'i',
  );

const matchers = screenOfPath.map(([pattern, screen]) => ({ regExp: toRegExp(pattern), screen }));

/** The screen an address opens and its `:param` values, or null for the not-found page. */
export function screenAt(pathname: string): { screen: Screen; params: string[] } | null {
  for (const { regExp, screen } of matchers) {
    const match = regExp.exec(pathname);
    if (match) return { screen, params: match.slice(1) };
  }
  return null;
}

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

type Picture = { picture?: unknown };

/**
 * Starts downloading a picture the screen shows first (its largest paint), as soon as the answer
 * naming it arrives, rather than once React has rendered the screen.
 */
function preloadPictures(pictures: Picture[]) {
  for (const { picture } of pictures) {
    if (typeof picture !== 'string' || !picture) continue;
    const link = document.createElement('link');
    link.rel = 'preload';
    link.href = picture;
    link.setAttribute('as', 'image');
    link.setAttribute('fetchpriority', 'high');
    document.head.append(link);
  }
}

/** The `<script type="application/json">` holding the answers a page was rendered from on the server (app/render-page.tsx). */
export const SERVER_DATA_ID = 'server-data';

/**
 * On the first page load: starts downloading the screen's chunk (the route table's lazy() then finds it
 * loaded or on its way), asks for the first data it shows with the same request its fetcher makes,
 * and fetches the pictures of that answer the screen shows first. A page the server rendered came
 * with its data and pictures: only the chunk is missing.
 */
export function preloadFirstScreen({ pathname, search }: Pick<Location, 'pathname' | 'search'>) {
  const hit = screenAt(pathname);
  if (!hit) return;
  // a failure shows when the route loads the chunk itself
  screens[hit.screen]().catch(() => undefined);
  if (document.getElementById(SERVER_DATA_ID)) return;
  if (hit.screen === 'trainerList' && search === '') {
    requestEarly(trainersPath(FIRST_TRAINERS_QUERY)).then(
      (answer) => preloadPictures((answer as { viewAllTrainers?: Picture[] }).viewAllTrainers?.slice(0, LIST_FIRST_ROW) ?? []),
      () => undefined,
    );
  }
  if (hit.screen === 'trainerProfile') {
    const id = decoded(hit.params[0]);
    if (id) {
      requestEarly(trainerPath(id)).then(
        (answer) => preloadPictures([(answer as { trainerData?: Picture }).trainerData ?? {}]),
        () => undefined,
      );
    }
  }
}
