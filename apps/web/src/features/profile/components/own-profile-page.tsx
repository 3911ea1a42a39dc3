import { Mail, Settings } from 'lucide-react';
import { Link } from 'react-router';
import { RequireRole } from '@/components/require-role';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useOwnAccount } from '@/lib/own-account';
import { paths, type Role } from '@/lib/paths';

function ProfileSkeleton() {
  return (
    <div className="flex items-center gap-5" aria-hidden="true">
      <Skeleton className="size-20 rounded-full" />
      <div className="flex-1 space-y-3">
        <Skeleton className="h-8 w-2/3 max-w-xs" />
        <Skeleton className="h-5 w-1/2 max-w-56" />
      </div>
    </div>
  );
}

/** The logged-in account's own profile (a first version: who you are, more comes later). */
export function OwnProfilePage({ role }: { role: Role }) {
  return (
    <RequireRole role={role}>
      <OwnProfile role={role} />
    </RequireRole>
  );
}

function OwnProfile({ role }: { role: Role }) {
  const account = useOwnAccount(role);

  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-14 sm:px-6 sm:py-20">
      <title>My profile · Spotter</title>
      <p className="mb-6 text-sm font-semibold tracking-wide text-accent-ink uppercase">
        {role === 'trainer' ? 'Trainer profile' : 'My profile'}
      </p>
      <div className="rounded-card border border-line bg-canvas p-6 shadow-card sm:p-8" aria-busy={account.isPending}>
        {account.isPending ? (
          <>
            <span className="sr-only" role="status">
              Loading your profile…
            </span>
            <ProfileSkeleton />
          </>
        ) : account.isError ? (
          <>
            <h1 className="sr-only">My profile</h1>
            <Alert
              tone="error"
              title="We could not load your profile."
              action={
                <Button variant="outline" onClick={() => void account.refetch()} isLoading={account.isFetching}>
                  Retry
                </Button>
              }
            >
              {errorMessage(account.error)}
            </Alert>
          </>
        ) : (
          <div className="flex flex-col gap-5 sm:flex-row sm:items-center">
            <span
              aria-hidden="true"
              className="flex size-20 shrink-0 items-center justify-center rounded-full bg-ink font-display text-2xl font-bold text-accent"
            >
              {account.data.firstName.charAt(0)}
              {account.data.lastName.charAt(0)}
            </span>
            <div className="min-w-0">
              <h1 className="font-display text-3xl font-bold break-words text-ink">
                {account.data.firstName} {account.data.lastName}
              </h1>
              <p className="mt-1 flex items-center gap-2 break-all text-muted">
                <Mail className="size-4 shrink-0" aria-hidden="true" />
                {account.data.email}
              </p>
            </div>
          </div>
        )}
      </div>
      {account.isSuccess && (
        <div className="mt-8 flex flex-wrap gap-3">
          <p className="w-full text-muted">Your full profile page, with photo, stats and plans, is on its way.</p>
          <Link to={paths.settings[role].getHref()} className={buttonClasses({ variant: 'outline' })}>
            <Settings className="size-4" aria-hidden="true" />
            Settings
          </Link>
        </div>
      )}
    </section>
  );
}
