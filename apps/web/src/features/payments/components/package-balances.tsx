import { ChevronDown } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDateTimeIn, type TBalance } from '@spotter/shared';
import { SectionCard } from '@/components/section-card';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useBalances, useRefundBalance } from '@/lib/api/packages';
import { browserTimeZone, formatDate, formatPrice, plural } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { notify } from '@/lib/toast';

/** 'Refund the rest', with a confirmation that states the amount; the server's answer is shown either way. */
function RefundDialog({
  balance,
  trainerName,
  onRefunded,
}: {
  balance: TBalance;
  trainerName: string;
  onRefunded: (message: string) => void;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const refund = useRefundBalance();
  const [failure, setFailure] = useState<string | null>(null);
  const amount = formatMoney(balance.amount);

  const onConfirm = () => {
    setFailure(null);
    refund.mutate(balance.trainerId, {
      onSuccess: ({ message }) => {
        notify.success(message);
        onRefunded(message);
        setIsOpen(false);
      },
      onError: (error) => setFailure(errorMessage(error)),
    });
  };

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setIsOpen(open);
        if (!open) setFailure(null);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" aria-label={`Refund the rest of your package with ${trainerName}`}>
          Refund the rest
        </Button>
      </DialogTrigger>
      <DialogContent title={`Refund ${amount}?`} description={`Your package with ${trainerName}.`}>
        <p className="text-muted">
          The unused {amount} goes back to the card or PayPal account you paid with, and the{' '}
          {plural(balance.sessionsLeft, 'session', 'sessions')} left can no longer be booked from it. Sessions already booked stay
          booked.
        </p>
        {failure && (
          <Alert tone="error" className="mt-4">
            {failure}
          </Alert>
        )}
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <DialogClose asChild>
            <Button variant="outline">Keep it</Button>
          </DialogClose>
          <Button onClick={onConfirm} isLoading={refund.isPending}>
            Refund {amount}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

type TEntry = TBalance['entries'][number];

/** Entries up to this many are shown at once; more fold into a 'History' disclosure. */
const ENTRIES_SHOWN = 3;

/** What one ledger entry of the balance was, in words (docs/product.md#packages). */
function entryText(entry: TEntry, balance: TBalance) {
  const session = entry.startsAt ? formatDateTimeIn(entry.startsAt, browserTimeZone()) : null;
  switch (entry.kind) {
    case 'package':
      return `Bought ${plural(balance.sessions, 'session', 'sessions')}`;
    case 'redeem':
      return session ? `Session on ${session}` : 'Session';
    case 'unredeem':
      return session ? `Cancelled session returned (${session})` : 'Cancelled session returned';
    case 'refund':
      return 'Refunded to you';
    case 'expire':
      return 'Expired (went to the trainer)';
  }
}

/** '+$1,200.00' in, '−$240.00' out, always with the cents. */
const signedAmount = (amount: number) => `${amount < 0 ? '\u2212' : '+'}${formatPrice(Math.abs(amount), 2)}`;

/** The balance's ledger entries, oldest first, as a table: when, what, and the money in or out. */
function EntriesTable({ balance, trainerName }: { balance: TBalance; trainerName: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">History of your package with {trainerName}</caption>
        <thead className="text-xs text-subtle">
          <tr>
            <th scope="col" className="py-1 pr-3 font-semibold">
              Date
            </th>
            <th scope="col" className="py-1 pr-3 font-semibold">
              Entry
            </th>
            <th scope="col" className="py-1 text-right font-semibold">
              Amount
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {balance.entries.map((entry, i) => (
            <tr key={`${entry.at}-${entry.kind}-${i}`}>
              <td className="py-1.5 pr-3 whitespace-nowrap text-muted">
                <time dateTime={entry.at}>{formatDate(entry.at)}</time>
              </td>
              <td className="py-1.5 pr-3 text-ink">{entryText(entry, balance)}</td>
              <td
                className={`py-1.5 text-right font-semibold whitespace-nowrap tabular-nums ${entry.amount < 0 ? 'text-ink' : 'text-success'}`}
              >
                {signedAmount(entry.amount)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The entries at once while few; a 'History' disclosure (closed) when there are more. */
function BalanceHistory({ balance, trainerName }: { balance: TBalance; trainerName: string }) {
  if (balance.entries.length === 0) return null;
  if (balance.entries.length <= ENTRIES_SHOWN)
    return (
      <div className="w-full">
        <EntriesTable balance={balance} trainerName={trainerName} />
      </div>
    );
  return (
    <details className="group w-full">
      <summary className="inline-flex min-h-11 cursor-pointer list-none items-center gap-1 text-sm font-semibold text-ink underline-offset-4 hover:underline [&::-webkit-details-marker]:hidden">
        <ChevronDown className="size-4 transition-transform group-open:rotate-180" aria-hidden="true" />
        History ({plural(balance.entries.length, 'entry', 'entries')})
      </summary>
      <EntriesTable balance={balance} trainerName={trainerName} />
    </details>
  );
}

function BalanceRow({ balance, onRefunded }: { balance: TBalance; onRefunded: (message: string) => void }) {
  const trainerName = `${balance.trainerFirstName} ${balance.trainerLastName}`.trim();
  const isRefunding = balance.status === 'refunding';
  return (
    <li className="flex flex-wrap items-start justify-between gap-x-6 gap-y-3 py-4">
      <div className="min-w-0">
        <p className="font-semibold text-ink">
          <Link to={paths.trainerPublicProfile.getHref(balance.trainerId)} className="underline-offset-4 hover:underline">
            {trainerName}
          </Link>
        </p>
        <p className="text-sm text-muted">
          {balance.sessionsLeft} of {plural(balance.sessions, 'session', 'sessions')} left · {formatMoney(balance.perSession)} a
          session
        </p>
        <p className="text-xs text-subtle">
          {balance.expiresAt ? (
            <>
              Valid until <time dateTime={balance.expiresAt}>{formatDate(balance.expiresAt)}</time>
            </>
          ) : (
            'No end date'
          )}
        </p>
      </div>
      <div className="flex flex-col items-start gap-2 sm:items-end sm:text-right">
        <p className="font-bold text-ink tabular-nums">{formatMoney(balance.amount)} left</p>
        {isRefunding ? (
          <span className="inline-flex items-center rounded-full border border-line bg-surface px-2.5 py-0.5 text-xs font-semibold text-muted">
            Refund in progress
          </span>
        ) : (
          balance.amount > 0 && <RefundDialog balance={balance} trainerName={trainerName} onRefunded={onRefunded} />
        )}
      </div>
      <BalanceHistory balance={balance} trainerName={trainerName} />
    </li>
  );
}

/** A user's package balances (docs/product.md#packages): what is left with each trainer, and the unused rest refunded on request. */
export function PackageBalances() {
  const { token } = useSession();
  const balances = useBalances(token);
  const [message, setMessage] = useState<string | null>(null);
  let content;
  if (balances.isPending) {
    content = (
      <div aria-busy="true">
        <span role="status" className="sr-only">
          Loading your package balances…
        </span>
        <Skeleton className="h-16 w-full" />
      </div>
    );
  } else if (balances.isError) {
    content = (
      <Alert
        tone="error"
        title="Could not load your package balances"
        action={
          <Button variant="outline" onClick={() => void balances.refetch()} isLoading={balances.isFetching}>
            Retry
          </Button>
        }
      >
        {errorMessage(balances.error)}
      </Alert>
    );
  } else if (balances.data.length === 0) {
    content = (
      <p className="text-sm text-muted">
        No packages yet. A trainer’s package pays for several sessions at a lower price each; buy one on their profile.
      </p>
    );
  } else {
    content = (
      <ul aria-label="Package balances" className="divide-y divide-line">
        {balances.data.map((balance) => (
          <BalanceRow key={balance.trainerId} balance={balance} onRefunded={setMessage} />
        ))}
      </ul>
    );
  }
  return (
    <SectionCard id="balances" title="Package balances" note="What is left of the packages you bought, with each trainer.">
      {message && (
        <Alert tone="success" className="mb-4">
          {message}
        </Alert>
      )}
      {content}
    </SectionCard>
  );
}
