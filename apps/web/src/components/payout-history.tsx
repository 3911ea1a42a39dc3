import { Banknote } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PAYOUT_MSG, type TPayout } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { usePayouts } from '@/lib/api/payouts';
import { cn } from '@/lib/cn';
import { formatDate, plural } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';

const PAYOUTS_EMPTY =
  'No payouts yet. Your share of a session becomes payable 48 hours after it ends, once its client can no longer dispute it.';

type Options = {
  /** A returned payout links to the payout address in settings; false where that address is already on screen. */
  linksToAddress: boolean;
};

/** Each status in words (never by its colour alone), with what it means for the trainer. */
const STATUS: Record<TPayout['status'], { label: string; tone: string; says: (payout: TPayout, options: Options) => ReactNode }> =
  {
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
      says: (payout, { linksToAddress }) =>
        payout.refused ? (
          PAYOUT_MSG.refusedShort
        ) : linksToAddress ? (
          <>
            {PAYOUT_MSG.returned}{' '}
            <Link
              to={`${paths.settings.trainer.getHref()}#payouts`}
              className="font-semibold text-accent-ink underline underline-offset-4 hover:text-ink"
            >
              Go to payout settings
            </Link>
          </>
        ) : (
          PAYOUT_MSG.returned
        ),
    },
  };

/** The amount and status keep the right-hand column on a phone too; the words beside them wrap. */
function PayoutRow({ payout, options }: { payout: TPayout; options: Options }) {
  const status = STATUS[payout.status];
  return (
    <li className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-x-4 py-4 sm:gap-x-6">
      <div className="min-w-0">
        <p className="font-semibold text-ink">
          <time dateTime={payout.createdAt}>{formatDate(payout.createdAt)}</time>
        </p>
        <p className="text-sm text-muted">For {plural(payout.sessions, 'session', 'sessions')}</p>
        <p className="text-sm break-words text-subtle">{status.says(payout, options)}</p>
      </div>
      <div className="flex flex-col items-end gap-1 text-right">
        <p className={cn('font-bold tabular-nums', payout.status === 'returned' ? 'text-muted line-through' : 'text-ink')}>
          {formatMoney(payout.amount, payout.currency)}
        </p>
        <span className={cn('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold', status.tone)}>
          {status.label}
        </span>
      </div>
    </li>
  );
}

type PayoutHistoryProps = {
  /** The list's accessible name (the card's or section's heading it sits under). */
  label: string;
  linksToAddress?: boolean;
};

/**
 * A trainer's payouts (GET /api/payouts), newest first: when, for how many sessions, where it went,
 * how much and its status in words; with its loading, empty and failed states. The earnings page and
 * Settings → Payouts both show it, from the one query.
 */
export function PayoutHistory({ label, linksToAddress = true }: PayoutHistoryProps) {
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
    <ul aria-label={label} className="divide-y divide-line">
      {[...payouts.data.payouts]
        .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
        .map((payout) => (
          <PayoutRow key={payout._id} payout={payout} options={{ linksToAddress }} />
        ))}
    </ul>
  );
}
