import { CalendarDays, Heart, MessageCircle, Search, UserRound, Wallet, type LucideIcon } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { useUnreadCount, viewerFromToken } from '@/lib/api/chats';
import { cn } from '@/lib/cn';
import { paths, type Role } from '@/lib/paths';
import { useSession } from '@/lib/session';

type Tab = {
  label: string;
  to: string;
  icon: LucideIcon;
  isCurrent: (pathname: string, search: URLSearchParams) => boolean;
  isInbox?: boolean;
};

const isSaved = (search: URLSearchParams) => search.get('favorites') === '1';

const TABS: Record<Role, Tab[]> = {
  user: [
    {
      label: 'Explore',
      to: paths.trainers.getHref(),
      icon: Search,
      isCurrent: (p, s) => p === paths.trainers.path && !isSaved(s),
    },
    {
      label: 'Saved',
      to: `${paths.trainers.getHref()}?favorites=1`,
      icon: Heart,
      isCurrent: (p, s) => p === paths.trainers.path && isSaved(s),
    },
    { label: 'Sessions', to: paths.profile.user.getHref(), icon: CalendarDays, isCurrent: (p) => p === paths.profile.user.path },
    {
      label: 'Inbox',
      to: paths.inbox.user.getHref(),
      icon: MessageCircle,
      isCurrent: (p) => p === paths.inbox.user.path,
      isInbox: true,
    },
    { label: 'Profile', to: paths.settings.user.getHref(), icon: UserRound, isCurrent: (p) => p === paths.settings.user.path },
  ],
  trainer: [
    {
      label: 'Schedule',
      to: paths.profile.trainer.getHref(),
      icon: CalendarDays,
      isCurrent: (p) => p === paths.profile.trainer.path,
    },
    {
      label: 'Inbox',
      to: paths.inbox.trainer.getHref(),
      icon: MessageCircle,
      isCurrent: (p) => p === paths.inbox.trainer.path || p === paths.inbox.trainerAlias.path,
      isInbox: true,
    },
    {
      label: 'Earnings',
      to: paths.payments.trainer.getHref(),
      icon: Wallet,
      isCurrent: (p) => p === paths.payments.trainer.path,
    },
    {
      label: 'Profile',
      to: paths.settings.trainer.getHref(),
      icon: UserRound,
      isCurrent: (p) => p === paths.settings.trainer.path,
    },
  ],
};

/** Read by the root layout's floating corner (and the page's bottom padding) to sit above the bar. */
const BOTTOM_BAR_VAR = '--bottom-bar-height';

/**
 * Phones, signed in: the app's main places one tap away at the bottom of the screen (Explore, Saved,
 * Sessions, Inbox, Profile; a trainer's Schedule, Inbox, Earnings, Profile). Not on a trainer's
 * public profile, whose own bottom bar carries 'Book now!'.
 */
export function TabBar() {
  const session = useSession();
  const { pathname, search } = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const viewer = useMemo(() => viewerFromToken(session.token), [session.token]);
  const unread = useUnreadCount(viewer);
  const bar = useRef<HTMLElement>(null);
  const isPublicProfile = pathname.startsWith('/trainer/profile/');
  const isShown = session.isLoggedIn && !!session.role && !isPublicProfile;

  useEffect(() => {
    if (!isShown) return;
    const root = document.documentElement;
    const measure = () => {
      const el = bar.current;
      // hidden from `sm` up (display: none measures 0)
      root.style.setProperty(BOTTOM_BAR_VAR, `${el?.offsetHeight ?? 0}px`);
    };
    measure();
    window.addEventListener('resize', measure);
    return () => {
      window.removeEventListener('resize', measure);
      root.style.removeProperty(BOTTOM_BAR_VAR);
    };
  }, [isShown]);

  if (!isShown || !session.role) return null;
  return (
    <nav
      ref={bar}
      aria-label="App"
      className="fixed inset-x-0 bottom-0 z-30 border-t border-line bg-canvas/95 pb-[env(safe-area-inset-bottom)] backdrop-blur sm:hidden"
    >
      <ul className="mx-auto flex max-w-md">
        {TABS[session.role].map((tab) => {
          const isCurrent = tab.isCurrent(pathname, params);
          const Icon = tab.icon;
          const badge = tab.isInbox && unread > 0 ? (unread > 99 ? '99+' : String(unread)) : null;
          return (
            <li key={tab.label} className="flex-1">
              <Link
                to={tab.to}
                aria-current={isCurrent ? 'page' : undefined}
                aria-label={badge ? `${tab.label}, ${unread} unread` : undefined}
                className={cn(
                  'relative flex min-h-14 flex-col items-center justify-center gap-0.5 text-xs font-medium text-muted',
                  'aria-[current=page]:font-semibold aria-[current=page]:text-ink',
                )}
              >
                <Icon className={cn('size-5', isCurrent && 'text-accent-ink')} aria-hidden="true" />
                {tab.label}
                {badge && (
                  <span
                    aria-hidden="true"
                    className="absolute top-1 left-1/2 ml-2 inline-flex h-4 min-w-4 items-center justify-center rounded-full bg-accent px-1 text-[10px] font-bold text-ink"
                  >
                    {badge}
                  </span>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
