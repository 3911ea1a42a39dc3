import { LogIn, LogOut, MessageCircle, UserRound } from 'lucide-react';
import { lazy, Suspense, useEffect } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { bookingUpdates, useBookingUpdates } from '@/lib/booking-updates';
import { useLogout } from '@/lib/logout';
import { cn } from '@/lib/cn';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { MobileMenuButton } from './mobile-menu-button';
import { mainNav } from './nav-items';
import { PagesMenu } from './pages-menu';
import { useScrolledPast } from './use-scrolled-past';

// The chat icon keeps a WebSocket and validates its frames: it loads after the first paint, and
// only for people who are logged in, so a visitor's first page does not carry it.
const ChatLink = lazy(() => import('@/features/chat/components/chat-link').then((m) => ({ default: m.ChatLink })));

/** docs/product.md#limits: the top bar turns sticky at 50 px of scroll (it is always pinned; a shadow shows it lifting). */
const STICKY_OFFSET = 50;

const navLinkClass =
  'relative inline-flex min-h-11 items-center rounded-md px-3 text-sm font-medium text-on-ink-muted transition-colors duration-150 ' +
  'hover:text-on-ink aria-[current]:text-accent after:absolute after:inset-x-3 after:bottom-1.5 after:h-0.5 after:rounded-full ' +
  'after:bg-accent after:opacity-0 aria-[current]:after:opacity-100';

/**
 * The profile icon, with a badge counting booking changes the other side made while the tab was
 * open (lib/booking-updates.ts); opening the profile, where the sessions and the schedule are, clears it.
 */
function ProfileLink({ role }: { role: 'user' | 'trainer' }) {
  const updates = useBookingUpdates();
  const href = paths.profile[role].getHref();
  const { pathname } = useLocation();
  const isOnProfile = pathname === href;
  useEffect(() => {
    if (isOnProfile && updates > 0) bookingUpdates.clear();
  }, [isOnProfile, updates]);
  const label = updates > 0 ? `My profile, ${updates} booking ${updates === 1 ? 'update' : 'updates'}` : 'My profile';
  return (
    <Link
      to={href}
      aria-label={label}
      title={label}
      className={buttonClasses({ variant: 'on-ink', size: 'icon', className: 'relative' })}
    >
      <UserRound className="size-6" aria-hidden="true" />
      {updates > 0 && (
        <span
          aria-hidden="true"
          data-testid="booking-updates-badge"
          className="absolute top-0.5 right-0.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-accent px-1 text-xs font-bold text-ink"
        >
          {updates > 99 ? '99+' : updates}
        </span>
      )}
    </Link>
  );
}

export function Header() {
  const session = useSession();
  const logout = useLogout();
  const isStuck = useScrolledPast(STICKY_OFFSET);

  return (
    <header
      data-stuck={isStuck || undefined}
      className={cn(
        'on-ink sticky top-0 z-40 border-b border-ink-line bg-ink text-on-ink transition-shadow duration-200',
        isStuck && 'shadow-lg shadow-ink/30',
      )}
    >
      <div className="mx-auto flex h-16 w-full max-w-7xl items-center gap-2 px-4 sm:px-6">
        <Link to={paths.home.getHref()} className="mr-4 rounded-lg">
          <Logo tone="light" />
        </Link>

        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {mainNav.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end className={navLinkClass}>
                  {item.label}
                </NavLink>
              </li>
            ))}
            <li>
              <PagesMenu linkClassName={navLinkClass} />
            </li>
          </ul>
        </nav>

        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          {session.isLoggedIn ? (
            <>
              <Suspense
                fallback={
                  <Link
                    to={paths.inbox[session.role ?? 'user'].getHref()}
                    aria-label="Messages"
                    title="Messages"
                    className={buttonClasses({ variant: 'on-ink', size: 'icon' })}
                  >
                    <MessageCircle className="size-6" aria-hidden="true" />
                  </Link>
                }
              >
                <ChatLink role={session.role ?? 'user'} />
              </Suspense>
              <ProfileLink role={session.role ?? 'user'} />
              <button
                type="button"
                onClick={() => void logout()}
                className={buttonClasses({ variant: 'on-ink', className: 'px-3 max-sm:size-11 max-sm:px-0' })}
              >
                <LogOut className="size-5" aria-hidden="true" />
                <span className="max-sm:sr-only">Log out</span>
              </button>
            </>
          ) : (
            <>
              <Link
                to={paths.register.user.getHref()}
                className={buttonClasses({ variant: 'on-ink', className: 'px-3 max-sm:hidden' })}
              >
                Sign up
              </Link>
              <Link to={paths.register.trainer.getHref()} className={buttonClasses({ className: 'max-sm:hidden' })}>
                Become A Trainer
              </Link>
              <Link
                to={paths.login.user.getHref()}
                aria-label="Log in"
                title="Log in"
                className={buttonClasses({ variant: 'on-ink', size: 'icon' })}
              >
                <LogIn className="size-6" aria-hidden="true" />
              </Link>
            </>
          )}
          <div className="lg:hidden">
            <MobileMenuButton session={session} onLogout={() => void logout()} />
          </div>
        </div>
      </div>
    </header>
  );
}
