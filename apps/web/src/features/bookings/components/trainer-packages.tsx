import { Package } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { PACKAGE_MSG, type TBalance, type TTrainerPackage } from '@spotter/shared';
import { Button, buttonClasses } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { useBalanceWith } from '@/lib/api/packages';
import { useRefreshBookings } from '@/lib/api/bookings';
import { formatDate, plural } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { packageLine } from '@/lib/package-words';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { notify } from '@/lib/toast';

// The checkout (and PayPal's buttons) download only when someone buys.
const PackageCheckout = lazy(() => import('./package-checkout').then((m) => ({ default: m.PackageCheckout })));

type Trainer = { _id: string; firstName: string; lastName: string; price: number; packages?: TTrainerPackage[] };

/** '$144 left · 4 of 5 sessions left · $36 a session · until 28 Feb 2027': what a balance still pays for. */
function BalanceSummary({ balance }: { balance: TBalance }) {
  return (
    <div data-testid="balance" className="rounded-xl border border-success-line bg-success-soft p-3 text-sm text-success">
      <p className="font-semibold">
        Your package: {formatMoney(balance.amount)} left · {balance.sessionsLeft} of{' '}
        {plural(balance.sessions, 'session', 'sessions')} left
      </p>
      <p>
        {formatMoney(balance.perSession)} a session ·{' '}
        {balance.expiresAt ? `until ${formatDate(balance.expiresAt)}` : 'No end date'}
        {balance.status === 'refunding' && ' · Refund in progress'}
      </p>
    </div>
  );
}

/** What the person does with a package: users buy, visitors are asked to log in, trainers get nothing. */
function BuyAction({ trainer, pkg, onBuy }: { trainer: Trainer; pkg: TTrainerPackage; onBuy: (pkg: TTrainerPackage) => void }) {
  const { role, isLoggedIn } = useSession();
  const { pathname } = useLocation();
  if (!isLoggedIn) {
    return (
      <Link to={paths.login.user.getHref(pathname)} className={buttonClasses({ variant: 'outline' })}>
        Log in to buy
      </Link>
    );
  }
  if (role !== 'user') return null;
  return (
    <Button
      onClick={() => onBuy(pkg)}
      aria-label={`Buy ${plural(pkg.sessions, 'session', 'sessions')} with ${trainer.firstName} for ${formatMoney(pkg.price)}`}
    >
      Buy
    </Button>
  );
}

/**
 * The trainer's packages (docs/product.md#packages), each with Buy for a user, and the user's balance
 * with the trainer when they have one; nothing when the trainer sells none and there is no balance.
 */
export function PackageList({
  trainer,
  onBuy,
  isCompact = false,
}: {
  trainer: Trainer;
  onBuy: (pkg: TTrainerPackage) => void;
  /** The booking dialog: with a balance only the balance, so the free times keep their room. */
  isCompact?: boolean;
}) {
  const { token, role } = useSession();
  const balance = useBalanceWith(trainer._id, token, { enabled: role === 'user' });
  const packages = trainer.packages ?? [];
  if (packages.length === 0 && !balance) return null;
  // one package at a time: while a balance is open (sessions or money left, a refund on its way) the server refuses another
  const canBuy = !balance;
  if (isCompact && balance) return <BalanceSummary balance={balance} />;
  return (
    <div className="space-y-3">
      {balance && <BalanceSummary balance={balance} />}
      {packages.length > 0 && (
        <ul aria-label={`Packages of ${trainer.firstName}`} className="divide-y divide-line rounded-xl border border-line">
          {packages.map((pkg) => (
            <li key={pkg._id} className="flex flex-wrap items-center justify-between gap-3 p-3">
              <p className="flex min-w-0 items-center gap-2 text-sm text-ink">
                <Package className="size-5 shrink-0 text-subtle" aria-hidden="true" />
                <span className="min-w-0">{packageLine(pkg, trainer.price)}</span>
              </p>
              {canBuy && <BuyAction trainer={trainer} pkg={pkg} onBuy={onBuy} />}
            </li>
          ))}
        </ul>
      )}
      {packages.length > 0 && !canBuy && <p className="text-sm text-muted">{PACKAGE_MSG.haveBalance}.</p>}
    </div>
  );
}

/** Buying a package, in the dialog or a step of one: a toast, and the balance shows wherever it is read. */
export function usePackageBought(trainer: Trainer) {
  const refresh = useRefreshBookings();
  return () => {
    notify.success(`Package bought: your balance with ${trainer.firstName} is ready to book from`);
    void refresh(trainer._id);
  };
}

export function PackageCheckoutOnDemand(props: Parameters<typeof PackageCheckout>[0]) {
  return (
    <Suspense
      fallback={
        <div className="flex min-h-40 items-center justify-center">
          <Spinner label="Loading the checkout…" />
        </div>
      }
    >
      <PackageCheckout {...props} />
    </Suspense>
  );
}

/** The profile's 'Packages' section: the list, and the checkout in a dialog. */
export function ProfilePackages({ trainer }: { trainer: Trainer }) {
  const [buying, setBuying] = useState<TTrainerPackage | null>(null);
  const bought = usePackageBought(trainer);
  const { token, role } = useSession();
  const balance = useBalanceWith(trainer._id, token, { enabled: role === 'user' });
  const hasPackages = (trainer.packages ?? []).length > 0;
  if (!hasPackages && !balance) return null;
  return (
    <section aria-labelledby="packages-heading" className="space-y-3">
      <h2 id="packages-heading" className="text-2xl font-bold text-ink">
        Packages
      </h2>
      {hasPackages && (
        <p className="text-sm text-muted">
          Pay once for several sessions at a lower price each; the unused rest can be refunded.
        </p>
      )}
      <PackageList trainer={trainer} onBuy={setBuying} />
      <Dialog open={buying !== null} onOpenChange={(isOpen) => !isOpen && setBuying(null)}>
        {buying && (
          <DialogContent
            title={`Buy a package from ${trainer.firstName}`}
            description={packageLine(buying, trainer.price)}
            className="flex max-h-[calc(100dvh-2rem)] max-w-xl flex-col overflow-y-auto"
          >
            <PackageCheckoutOnDemand
              trainer={trainer}
              pkg={buying}
              onBought={() => {
                setBuying(null);
                bought();
              }}
              onBack={() => setBuying(null)}
            />
          </DialogContent>
        )}
      </Dialog>
    </section>
  );
}
