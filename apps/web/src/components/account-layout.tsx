import { Globe, LogOut, Mail, MessageSquare, Settings, UserRound, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { initials } from '@/lib/format';
import { useOwnAccount, type OwnAccount } from '@/lib/api/accounts';
import { paths, type Role } from '@/lib/paths';
import { useLogout } from '@/lib/logout';
import { useSession } from '@/lib/session';

type AccountPage = 'profile' | 'settings' | 'payments' | 'inbox';

const fullName = (account: Pick<OwnAccount, 'firstName' | 'lastName'>) => `${account.firstName} ${account.lastName}`.trim();

type AccountAvatarProps = {
  account: Pick<OwnAccount, 'firstName' | 'lastName' | 'picture'>;
  className?: string;
  /** Empty when a name next to the picture already says whose it is. */
  alt?: string;
};

/** The account's photo, or its initials while there is none. */
export function AccountAvatar({ account, className, alt = '' }: AccountAvatarProps) {
  const classes = cn('size-24 shrink-0 rounded-full object-cover', className);
  if (account.picture) {
    return <img src={account.picture} alt={alt} width={96} height={96} className={cn(classes, 'bg-surface')} />;
  }
  return (
    <span
      role={alt ? 'img' : undefined}
      aria-label={alt || undefined}
      aria-hidden={alt ? undefined : true}
      className={cn(classes, 'flex items-center justify-center bg-ink font-display text-3xl font-bold text-accent')}
    >
      {initials(account.firstName, account.lastName)}
    </span>
  );
}

/** Phones: five tabs in a row, icon over label. Desktop: a vertical sidebar. */
const sideLinkClass =
  'flex min-h-11 w-full flex-col items-center justify-center gap-1 rounded-xl px-1 py-1.5 text-xs font-semibold text-muted ' +
  'transition-colors duration-150 hover:bg-surface hover:text-ink aria-[current=page]:bg-accent-soft aria-[current=page]:text-ink ' +
  'sm:text-sm lg:flex-row lg:justify-start lg:gap-3 lg:px-3';

function AccountNav({ role }: { role: Role }) {
  const logout = useLogout();
  const items = [
    { label: 'Profile', to: paths.profile[role].getHref(), Icon: UserRound },
    { label: 'Chat', to: paths.inbox[role].getHref(), Icon: MessageSquare },
    // docs/product.md#static-pages-and-sidebar: Messages opens the inbox too; phones show it once, as Chat
    { label: 'Messages', to: paths.inbox[role].getHref(), Icon: Mail, isDesktopOnly: true },
    { label: 'Payments', to: paths.payments[role].getHref(), Icon: Wallet },
    { label: 'Settings', to: paths.settings[role].getHref(), Icon: Settings },
  ];
  return (
    <nav aria-label="Account" className="min-w-0 lg:sticky lg:top-24 lg:self-start">
      <ul className="grid grid-cols-5 gap-1 rounded-card border border-line bg-canvas p-1.5 shadow-card lg:flex lg:flex-col lg:p-2">
        {items.map(({ label, to, Icon, isDesktopOnly }) => (
          <li key={label} className={isDesktopOnly ? 'max-lg:hidden' : undefined}>
            <NavLink to={to} end className={sideLinkClass}>
              <Icon className="size-5 shrink-0" aria-hidden="true" />
              {label}
            </NavLink>
          </li>
        ))}
        <li className="lg:mt-1 lg:border-t lg:border-line lg:pt-1">
          <button type="button" onClick={() => void logout()} className={sideLinkClass}>
            <LogOut className="size-5 shrink-0" aria-hidden="true" />
            Logout
          </button>
        </li>
      </ul>
    </nav>
  );
}

function HeaderSkeleton() {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start" aria-hidden="true">
      <Skeleton className="-mt-12 size-24 rounded-full ring-4 ring-canvas" />
      <div className="flex-1 space-y-3 sm:pt-3">
        <Skeleton className="h-8 w-2/3 max-w-xs" />
        <Skeleton className="h-5 w-1/2 max-w-52" />
      </div>
    </div>
  );
}

function AccountHeader({ role, account, isNameHeading }: { role: Role; account: OwnAccount; isNameHeading: boolean }) {
  const Name = isNameHeading ? 'h1' : 'p';
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
      <AccountAvatar account={account} alt="Your profile photo" className="-mt-12 ring-4 ring-canvas" />
      <div className="min-w-0 flex-1 sm:pt-3">
        <Name className="font-display text-2xl font-bold break-words text-ink sm:text-3xl">{fullName(account)}</Name>
        {/* The spec's fallback is the trainer's (their title is public); a user without one shows none. */}
        {(account.title || role === 'trainer') && (
          <p className={cn('mt-1 break-words', account.title ? 'text-muted' : 'text-subtle italic')}>
            {account.title || 'Go to profile settings to edit your Title'}
          </p>
        )}
        {account.website && (
          <a
            href={account.website}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="mt-2 inline-flex min-h-11 items-center gap-2 text-sm font-semibold break-all text-accent-ink underline underline-offset-4 hover:text-ink"
          >
            <Globe className="size-4 shrink-0" aria-hidden="true" />
            {account.website.replace(/^https?:\/\//i, '').replace(/\/$/, '')}
          </a>
        )}
      </div>
      <div className="flex gap-2 sm:pt-3">
        <Link
          to={paths.inbox[role].getHref()}
          aria-label="Messages"
          title="Messages"
          className={buttonClasses({ variant: 'outline', size: 'icon' })}
        >
          <MessageSquare className="size-5" aria-hidden="true" />
        </Link>
        <Link
          to={paths.settings[role].getHref()}
          aria-label="Settings"
          title="Settings"
          className={buttonClasses({ variant: 'outline', size: 'icon' })}
        >
          <Settings className="size-5" aria-hidden="true" />
        </Link>
      </div>
    </div>
  );
}

/**
 * A trainer whose public profile an operator hid, or three reports did
 * (docs/product.md#reports-and-moderation): only they and operators still see it.
 */
function HiddenProfileNotice() {
  return (
    <div className="mb-6">
      <Alert tone="warning" title="Your public profile is hidden">
        It was reported, so people cannot find it in the list or open its page. Your sessions, messages and payments go on as
        before, and you still see your profile here.
      </Alert>
    </div>
  );
}

type AccountLayoutProps = {
  role: Role;
  current: AccountPage;
  /** The document title, e.g. "My profile". */
  title: string;
  /** Shown in the main area while the account loads. */
  skeleton: ReactNode;
  children: (account: OwnAccount) => ReactNode;
};

/**
 * The frame of the own profile and the settings pages (docs/product.md#own-profile): a header with photo, name,
 * title, website and shortcuts to messages and settings, a sidebar (Profile, Chat, Payments, Settings,
 * Logout) and the page. It loads the account once; the page receives it.
 */
export function AccountLayout({ role, current, title, skeleton, children }: AccountLayoutProps) {
  const session = useSession();
  const isOtherRole = session.role !== null && session.role !== role;
  const account = useOwnAccount(role, { enabled: !isOtherRole });
  const isNameHeading = current === 'profile';

  let header: ReactNode;
  let main: ReactNode;
  if (isOtherRole) {
    const own = session.role === 'trainer' ? 'trainer' : 'user';
    header = null;
    main = (
      <>
        <h1 className="sr-only">{title}</h1>
        <Alert
          tone="error"
          title={role === 'trainer' ? 'This page is for trainers.' : 'This page is for users.'}
          action={
            <Link to={paths[current][own].getHref()} className={buttonClasses({ variant: 'outline' })}>
              Go to my {current}
            </Link>
          }
        >
          You are logged in with a {own} account, so there is nothing of yours to show here.
        </Alert>
      </>
    );
  } else if (account.isPending) {
    header = <HeaderSkeleton />;
    main = (
      <>
        <span className="sr-only" role="status">
          Loading your {current}…
        </span>
        {skeleton}
      </>
    );
  } else if (account.isError) {
    // An expired or replaced token (e.g. the password changed elsewhere) will not get better by retrying.
    const isSessionOver = account.error instanceof ApiError && account.error.status === 401;
    header = null;
    main = (
      <>
        <h1 className="sr-only">{title}</h1>
        <Alert
          tone="error"
          title={`We could not load your ${current}.`}
          action={
            isSessionOver ? (
              <Link to={paths.login[role].getHref()} className={buttonClasses({ variant: 'outline' })}>
                Log in again
              </Link>
            ) : (
              <Button variant="outline" onClick={() => void account.refetch()} isLoading={account.isFetching}>
                Retry
              </Button>
            )
          }
        >
          {errorMessage(account.error)}
        </Alert>
      </>
    );
  } else {
    header = <AccountHeader role={role} account={account.data} isNameHeading={isNameHeading} />;
    main = (
      <>
        {'profileHidden' in account.data && account.data.profileHidden && <HiddenProfileNotice />}
        {children(account.data)}
      </>
    );
  }

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
      <title>{`${title} · Spotter`}</title>
      <div
        className="overflow-hidden rounded-card border border-line bg-canvas shadow-card"
        aria-busy={account.isPending && !isOtherRole}
      >
        <div
          aria-hidden="true"
          className="h-20 bg-ink bg-[radial-gradient(circle_at_88%_0%,color-mix(in_srgb,var(--color-accent)_40%,transparent)_0,transparent_40%)] sm:h-24"
        />
        {header && <div className="px-5 pb-5 sm:px-8 sm:pb-6">{header}</div>}
        {!header && <div className="h-6" />}
      </div>
      <div className="mt-6 grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[13rem_minmax(0,1fr)]">
        <AccountNav role={role} />
        <div className="min-w-0">{main}</div>
      </div>
    </div>
  );
}
