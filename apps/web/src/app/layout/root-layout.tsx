import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration, useNavigation, type Location } from 'react-router';
import { VerifyReminder } from '@/features/auth/components/verify-reminder';
import { useSession } from '@/lib/session';
import { OfflineBanner, UpdatePrompt } from './app-status';
import { BackToTop } from './back-to-top';
import { CookieBanner } from './cookie-banner';
import { Footer } from './footer';
import { Header } from './header';
import { RouteAnnouncer } from './route-announcer';

/** A thin bar while the next screen's code or data loads, so a click always gets feedback. */
function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <div className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden bg-ink" aria-hidden="true">
      <div className="h-full w-1/3 animate-progress bg-accent" />
    </div>
  );
}

// signed-in people only: a visitor's first page does not carry it
const TabBar = lazy(() => import('./tab-bar').then((m) => ({ default: m.TabBar })));
const NotificationsRoot = lazy(() =>
  import('@/features/notifications/notifications-root').then((m) => ({ default: m.NotificationsRoot })),
);

/**
 * Every page that opens as a new document starts with the key "default"; keyed only by that, a
 * fresh load would jump to where the previous page of the tab was scrolled.
 */
const scrollKey = (location: Location) => (location.key === 'default' ? location.pathname : location.key);

/** The shared layout of docs/product.md#layout: header, the routed page, footer. */
export function RootLayout() {
  const { isLoggedIn } = useSession();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-accent px-4 py-2 font-semibold text-ink focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <NavigationProgress />
      <RouteAnnouncer />
      <Header />
      <OfflineBanner />
      <VerifyReminder />
      <main id="main" tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
        <Outlet />
      </main>
      <Footer />
      {/* phones, signed in: the page ends above the tab bar */}
      <div aria-hidden="true" className="h-[var(--bottom-bar-height,0px)] shrink-0 sm:hidden" />
      {isLoggedIn && (
        <Suspense fallback={null}>
          <TabBar />
          <NotificationsRoot />
        </Suspense>
      )}
      {/*
       * Fixed to the bottom corner and stacked, so the back-to-top button sits above the cookie notice;
       * a page with a sticky bottom bar (the profile's 'Book now!' on phones) sets its height, and the
       * stack is moved up by it. Moved, not placed: a translation is no layout shift, so the notice
       * rising when the bar appears costs the page nothing in CLS.
       */}
      <div
        data-testid="floating-corner"
        className="pointer-events-none fixed inset-x-0 bottom-0 z-30 flex -translate-y-[var(--bottom-bar-height,0px)] flex-col items-end gap-3 p-4 sm:p-6"
      >
        <UpdatePrompt />
        <BackToTop className="pointer-events-auto" />
        <CookieBanner className="pointer-events-auto" />
      </div>
      <ScrollRestoration getKey={scrollKey} />
    </div>
  );
}
