import { ReceiptText } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { TPayment, TPaymentsResponse } from '@spotter/shared';
import { AccountLayout } from '@/components/account-layout';
import { RequireRole } from '@/components/require-role';
import { SectionCard } from '@/components/section-card';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { usePayments } from '@/lib/api/payments';
import { usePayoutAddress } from '@/lib/api/payouts';
import { cn } from '@/lib/cn';
import { formatDate, formatDateTime, plural } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { paths, type Role } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { PackageBalances } from './package-balances';
import { PayoutsCard } from './payouts-card';

type Stat = { label: string; value: string; hint?: string };

function Stats({ stats, label }: { stats: Stat[]; label: string }) {
  return (
    <dl aria-label={label} className="grid grid-cols-2 gap-3 md:grid-cols-4">
      {stats.map((stat) => (
        <div key={stat.label} className="flex flex-col rounded-card border border-line bg-canvas p-4 shadow-card">
          <dt className="text-sm font-semibold text-subtle">{stat.label}</dt>
          <dd className="order-first font-display text-2xl font-bold break-words text-ink sm:text-3xl">{stat.value}</dd>
          {stat.hint && <dd className="mt-0.5 text-xs text-subtle">{stat.hint}</dd>}
        </div>
      ))}
    </dl>
  );
}

function PaymentStatus({ payment }: { payment: TPayment }) {
  const isRefunded = payment.status === 'refunded';
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold',
        isRefunded ? 'border-line bg-surface text-muted' : 'border-success-line bg-success-soft text-success',
      )}
    >
      {isRefunded ? 'Refunded' : 'Paid'}
    </span>
  );
}

function PaymentRow({ payment, role }: { payment: TPayment; role: Role }) {
  const isRefunded = payment.status === 'refunded';
  const other =
    role === 'trainer'
      ? `${payment.userFirstName} ${payment.userLastName}`.trim()
      : `${payment.trainerFirstName} ${payment.trainerLastName}`.trim();
  return (
    <li className="flex flex-wrap items-start justify-between gap-x-6 gap-y-2 py-4">
      <div className="min-w-0">
        <p className="font-semibold text-ink">
          {role === 'user' ? (
            <Link to={paths.trainerPublicProfile.getHref(payment.trainerId)} className="underline-offset-4 hover:underline">
              {other}
            </Link>
          ) : (
            other
          )}
        </p>
        <p className="text-sm text-muted">
          Session <time dateTime={payment.startsAt}>{formatDateTime(payment.startsAt)}</time>
        </p>
        <p className="text-xs text-subtle">
          Paid {formatDate(payment.paidAt)}
          {payment.refundedAt && ` · refunded ${formatDate(payment.refundedAt)}`}
          {/* a session paid from a client's package balance has no capture of its own */}
          {payment.provider === 'package' ? ' · paid from a package' : ` · ${payment.captureId}`}
        </p>
      </div>
      <div className="flex flex-col items-end gap-1 text-right">
        <p className={cn('font-bold tabular-nums', isRefunded ? 'text-muted line-through' : 'text-ink')}>
          {formatMoney(payment.amount)}
        </p>
        {!isRefunded && !!payment.refunded && (
          <p className="text-xs text-subtle tabular-nums">
            {formatMoney(payment.refunded)} refunded{payment.provider === 'paypal' && ' through PayPal'}
          </p>
        )}
        {role === 'trainer' && !isRefunded && (
          <p className="text-xs text-subtle tabular-nums">
            fee {formatMoney(payment.fee)} · you get {formatMoney(payment.net)}
          </p>
        )}
        <PaymentStatus payment={payment} />
      </div>
    </li>
  );
}

/**
 * Where a trainer's money is (docs/decisions/042-money-ledger.md): their share not yet due, due and
 * waiting for a payout, paid out, and what went back to clients. Null from a server that does not
 * send these totals yet; the page then shows what it always did.
 */
function moneyStats({ totals, currency }: TPaymentsResponse): Stat[] | null {
  const { pending, payable, paidOut } = totals;
  if (typeof pending !== 'number' || typeof payable !== 'number' || typeof paidOut !== 'number') return null;
  return [
    {
      label: 'Pending',
      value: formatMoney(pending, currency),
      hint: 'Your share of sessions not yet due: payable 48 hours after each ends, once it can no longer be disputed',
    },
    { label: 'Payable', value: formatMoney(payable, currency), hint: 'Due to you, waiting for a payout or in one on its way' },
    { label: 'Paid out', value: formatMoney(paidOut, currency), hint: 'Paid to your PayPal account' },
    {
      label: 'Refunded',
      value: formatMoney(totals.refunded, currency),
      hint: 'Given back to clients: cancelled sessions, refunds and chargebacks',
    },
  ];
}

/** A trainer without a payout address: their payable balance waits, so say where to add one. */
function PayoutAddressNotice() {
  const { token } = useSession();
  const address = usePayoutAddress(token);
  if (address.data?.email !== null) return null;
  return (
    <Alert tone="warning" title="Add a payout address" isLive={false}>
      <p>Payouts wait until you add the e-mail of the PayPal account they go to.</p>
      <Link
        to={`${paths.settings.trainer.getHref()}#payouts`}
        className="inline-flex min-h-11 items-center font-semibold underline underline-offset-4"
      >
        Add payout address
      </Link>
    </Alert>
  );
}

function PaymentsContent({ role, data }: { role: Role; data: TPaymentsResponse }) {
  const { totals, upcoming } = data;
  const upcomingHint = upcoming.count === 0 ? 'No sessions booked' : plural(upcoming.count, 'session', 'sessions');
  const stats: Stat[] =
    role === 'trainer'
      ? (moneyStats(data) ?? [
          { label: 'Earned', value: formatMoney(totals.net), hint: 'After fees and refunds' },
          { label: 'Upcoming', value: formatMoney(upcoming.amount), hint: upcomingHint },
          { label: 'Refunded', value: formatMoney(totals.refunded), hint: 'To clients who cancelled' },
          { label: 'Spotter fee', value: formatMoney(totals.fees), hint: `${data.feePercent}% of each paid session` },
        ])
      : [
          {
            label: 'Paid',
            value: formatMoney(totals.charged - totals.refunded),
            hint: plural(totals.count, 'payment', 'payments'),
          },
          { label: 'Refunded', value: formatMoney(totals.refunded), hint: 'Cancelled more than 24 h ahead' },
          {
            label: 'Upcoming',
            value: String(upcoming.count),
            hint: upcoming.count === 0 ? 'No sessions booked' : `Worth ${formatMoney(upcoming.amount)}`,
          },
          { label: 'Charged in all', value: formatMoney(totals.charged), hint: data.currency },
        ];

  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Stats stats={stats} label={role === 'trainer' ? 'Your earnings' : 'Your payments'} />
        {role === 'trainer' && typeof totals.pending === 'number' && (
          <p className="text-sm text-muted">Your share of a session is its price less Spotter’s {data.feePercent}% fee.</p>
        )}
      </div>
      {role === 'trainer' && <PayoutsCard />}
      {role === 'user' && <PackageBalances />}
      <SectionCard
        title={role === 'trainer' ? 'Earnings by session' : 'Payment history'}
        note="Newest first; times in your local time."
      >
        {data.payments.length === 0 ? (
          <div className="flex flex-col items-center rounded-xl border border-dashed border-line-strong px-6 py-8 text-center">
            <ReceiptText className="size-8 text-subtle" aria-hidden="true" />
            <p className="mt-3 font-semibold text-ink">{role === 'trainer' ? 'No earnings yet' : 'No payments yet'}</p>
            <p className="mt-1 text-sm text-muted">
              {role === 'trainer'
                ? 'Open hours in your availability, and the sessions clients pay for show here.'
                : 'When you book and pay for a session, it shows here.'}
            </p>
            <Link
              to={role === 'trainer' ? `${paths.settings.trainer.getHref()}#availability` : paths.trainers.getHref()}
              className={buttonClasses({ className: 'mt-4' })}
            >
              {role === 'trainer' ? 'Set your availability' : 'Find a trainer'}
            </Link>
          </div>
        ) : (
          <ul aria-label={role === 'trainer' ? 'Earnings' : 'Payments'} className="divide-y divide-line">
            {[...data.payments]
              .sort((a, b) => Date.parse(b.paidAt) - Date.parse(a.paidAt))
              .map((payment) => (
                <PaymentRow key={payment._id} payment={payment} role={role} />
              ))}
          </ul>
        )}
      </SectionCard>
    </div>
  );
}

function PaymentsSkeleton() {
  return (
    <div className="space-y-6" aria-hidden="true">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-24 rounded-card" />
        ))}
      </div>
      <Skeleton className="h-64 rounded-card" />
    </div>
  );
}

function PaymentsBody({ role }: { role: Role }) {
  const { token } = useSession();
  const payments = usePayments(token);
  let content: ReactNode;
  if (payments.isPending) {
    content = (
      <>
        <span role="status" className="sr-only">
          Loading your payments…
        </span>
        <PaymentsSkeleton />
      </>
    );
  } else if (payments.isError) {
    content = (
      <Alert
        tone="error"
        title="Could not load your payments"
        action={
          <Button variant="outline" onClick={() => void payments.refetch()} isLoading={payments.isFetching}>
            Retry
          </Button>
        }
      >
        {errorMessage(payments.error)}
      </Alert>
    );
  } else {
    content = <PaymentsContent role={role} data={payments.data} />;
  }
  return (
    <div className="space-y-6">
      <div>
        <h1 className="font-display text-3xl font-bold text-ink">Payments</h1>
        <p className="mt-1 text-muted">
          {role === 'trainer'
            ? 'What your sessions earned after Spotter’s fee, and the payouts sent to you.'
            : 'What you paid for your sessions, and what came back.'}
        </p>
      </div>
      {role === 'trainer' && <PayoutAddressNotice />}
      {content}
    </div>
  );
}

/** The profile sidebar's Payments (docs/product.md#static-pages-and-sidebar): a user's payments, a trainer's earnings. */
export function PaymentsPage({ role }: { role: Role }) {
  return (
    <RequireRole role={role}>
      <AccountLayout role={role} current="payments" title="Payments" skeleton={<PaymentsSkeleton />}>
        {() => <PaymentsBody role={role} />}
      </AccountLayout>
    </RequireRole>
  );
}
