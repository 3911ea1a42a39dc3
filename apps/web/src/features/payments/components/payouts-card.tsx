import { Banknote } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { PAYOUT_MSG, type TPayout } from '@spotter/shared';
import { cardLinkClass, SectionCard } from '@/components/section-card';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { usePayouts } from '@/lib/api/payouts';
import { cn } from '@/lib/cn';
import { formatDate, plural } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { money } from '../utils/money';

const PAYOUTS_EMPTY = 'No payouts yet. Your share of a session becomes payable 24 hours after it ends.';

const payoutSettings = () => `${paths.settings.trainer.getHref()}#payouts`;

/** Each status in words, with what it means for the trainer. */
const STATUS: Record<TPayout['status'], { label: string; tone: string; says: (payout: TPayout) => ReactNode }> = {
  pending: {
    label: 'Pending',
    tone: 'border-line bg-surface text-muted',
    says: () => 'Waiting to be sent through PayPal.',
  },
  sent: {
    label: 'Sent',
    tone: 'border-line-strong bg-canvas text-ink',
    says: (payout) => `Sent through PayPal to ${payout.email}; PayPal has not confirmed it yet.`,
  },
  paid: {
    label: 'Paid',
    tone: 'border-success-line bg-success-soft text-success',
    says: (payout) => `Paid to ${payout.email}.`,
  },
  returned: {
    label: 'Returned',
    tone: 'border-danger-line bg-danger-soft text-danger',
    says: () => (
      <>
        {PAYOUT_MSG.returned}{' '}
        <Link to={payoutSettings()} className="font-semibold text-accent-ink underline underline-offset-4 hover:text-ink">
          Go to payout settings
        </Link>
      </>
    ),
  },
};

function PayoutRow({ payout }: { payout: TPayout }) {
  const status = STATUS[payout.status];
  return (
    <li className="flex flex-wrap items-start justify-between gap-x-6 gap-y-2 py-4">
      <div className="min-w-0">
        <p className="font-semibold text-ink">
          <time dateTime={payout.createdAt}>{formatDate(payout.createdAt)}</time>
        </p>
        <p className="text-sm text-muted">For {plural(payout.sessions, 'session', 'sessions')}</p>
        <p className="text-sm break-words text-subtle">{status.says(payout)}</p>
      </div>
      <div className="flex flex-col items-end gap-1 text-right">
        <p className={cn('font-bold tabular-nums', payout.status === 'returned' ? 'text-muted line-through' : 'text-ink')}>
          {money(payout.amount, payout.currency)}
        </p>
        <span className={cn('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold', status.tone)}>
          {status.label}
        </span>
      </div>
    </li>
  );
}

function PayoutsBody() {
  const { token } = useSession();
  const payouts = usePayouts(token);
  if (payouts.isPending) {
    return (
      <>
        <span role="status" className="sr-only">
          Loading your payouts…
        </span>
        <div aria-hidden="true" className="space-y-2">
          {[0, 1].map((i) => (
            <Skeleton key={i} className="h-16 w-full" />
          ))}
        </div>
      </>
    );
  }
  if (payouts.isError) {
    return (
      <Alert
        tone="error"
        title="Could not load your payouts"
        action={
          <Button variant="outline" onClick={() => void payouts.refetch()} isLoading={payouts.isFetching}>
            Retry
          </Button>
        }
      >
        {errorMessage(payouts.error)}
      </Alert>
    );
  }
  if (payouts.data.payouts.length === 0) {
    return (
      <div className="flex flex-col items-center rounded-xl border border-dashed border-line-strong px-6 py-8 text-center">
        <Banknote className="size-8 text-subtle" aria-hidden="true" />
        <p className="mt-3 text-sm text-muted">{PAYOUTS_EMPTY}</p>
      </div>
    );
  }
  return (
    <ul aria-label="Payouts" className="divide-y divide-line">
      {[...payouts.data.payouts]
        .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
        .map((payout) => (
          <PayoutRow key={payout._id} payout={payout} />
        ))}
    </ul>
  );
}

/** A trainer's payouts (GET /api/payouts), reachable as `#payouts` from settings. */
export function PayoutsCard() {
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === '#payouts') document.getElementById('payouts')?.scrollIntoView({ block: 'start' });
  }, [hash]);
  return (
    <SectionCard
      id="payouts"
      title="Payouts"
      note="Newest first. Payouts are sent through PayPal to your payout address."
      action={
        <Link to={payoutSettings()} className={cardLinkClass}>
          Payout address
        </Link>
      }
    >
      <PayoutsBody />
    </SectionCard>
  );
}
