import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { LogoMark } from '@/components/ui/logo';
import { consoleApi, consoleSession, useConsoleSession } from '@/lib/api/console';
import { cn } from '@/lib/cn';
import { paths } from '@/lib/paths';

/** Every console query's key starts with this, so signing out forgets them all. */
export const CONSOLE_QUERY = 'console';

export const meQueryOptions = (token: string | null) => ({
  queryKey: [CONSOLE_QUERY, 'me', token],
  queryFn: consoleApi.me,
  enabled: Boolean(token),
  staleTime: Infinity,
});

/**
 * The console's own minimal layout (docs/product.md#the-operator-console): no member navigation and
 * no member sign-in state, only the console's name, the signed-in operator and "Sign out".
 * `announcer` moves the focus to each new page's heading (the app's route announcer).
 */
export function ConsoleLayout({ announcer }: { announcer?: ReactNode }) {
  const { token } = useConsoleSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const me = useQuery(meQueryOptions(token));

  // a session ended (signed out, expired, the operator removed): nothing of it stays in the cache
  useEffect(() => {
    if (!token) queryClient.removeQueries({ queryKey: [CONSOLE_QUERY] });
  }, [token, queryClient]);

  const signOut = () => {
    consoleSession.signOutEverywhere();
    void navigate(paths.console.login.getHref(), { replace: true });
  };

  return (
    <div className="flex min-h-dvh flex-col bg-surface">
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-accent px-4 py-2 font-semibold text-ink focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      {announcer}
      <header className="bg-ink text-on-ink">
        <div className="mx-auto flex min-h-16 max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2.5 sm:px-6">
          <p className="flex items-center gap-2 font-display text-xl font-bold">
            <LogoMark className="size-7" />
            Spotter console
          </p>
          {token && (
            <div className="flex min-w-0 items-center gap-2">
              {me.data && (
                <p className="min-w-0 truncate text-sm text-on-ink-muted">
                  <span className="sr-only">Signed in as </span>
                  {me.data.operator.email}
                </p>
              )}
              <Button variant="on-ink" onClick={signOut} className="border border-ink-line">
                Sign out
              </Button>
            </div>
          )}
        </div>
        {token && <ConsoleNav />}
      </header>
      <main id="main" tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
        <Outlet />
      </main>
    </div>
  );
}

const NAV = [
  { to: paths.console.overview.getHref(), label: 'Overview', end: true },
  { to: paths.console.people.getHref(), label: 'People', end: false },
  { to: paths.console.reports.getHref(), label: 'Reports', end: false },
  { to: paths.console.certificates.getHref(), label: 'Certificates', end: false },
  { to: paths.console.bookings.getHref(), label: 'Sessions', end: false },
  { to: paths.console.disputes.getHref(), label: 'Disputes', end: false },
  { to: paths.console.audit.getHref(), label: 'Audit log', end: true },
] as const;

/** The console's screens, for a signed-in operator. */
function ConsoleNav() {
  return (
    <nav aria-label="Console" className="border-t border-ink-line">
      <ul className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-2 sm:px-4">
        {NAV.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.end}
              className={({ isActive }) =>
                cn(
                  'inline-flex min-h-11 items-center border-b-2 px-3 text-sm font-semibold whitespace-nowrap',
                  isActive ? 'border-accent text-on-ink' : 'border-transparent text-on-ink-muted hover:text-on-ink',
                )
              }
            >
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

type ConsolePageProps = {
  title: string;
  wide?: boolean;
  /** The page replaced what a person acted on (a form): the focus goes to its heading. */
  focusHeading?: boolean;
  children: ReactNode;
};

/** The box a console page's content sits in, with its title (`<title>` too). */
export function ConsolePage({ title, wide = false, focusHeading = false, children }: ConsolePageProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusHeading) heading.current?.focus();
  }, [focusHeading]);
  return (
    <div className={`mx-auto w-full px-4 py-8 sm:px-6 sm:py-10 ${wide ? 'max-w-6xl' : 'max-w-xl'}`}>
      <title>{`${title} · Spotter console`}</title>
      <h1 ref={heading} tabIndex={-1} className="font-display text-2xl font-bold text-ink focus:outline-none sm:text-3xl">
        {title}
      </h1>
      <div className="mt-6">{children}</div>
    </div>
  );
}
