import { useEffect, useRef, useState } from 'react';
import type { TBalance, TTrainerPackage } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { formatMoney } from '@/lib/money';
import { packageSaving } from '@/lib/package-words';
import { plural } from '@/lib/format';
import type { CheckoutStop } from '../utils/payment-outcome';
import { ProviderPayment } from './checkout';

type PackageCheckoutProps = {
  trainer: { firstName: string; lastName: string; price: number };
  pkg: TTrainerPackage;
  /** The capture went through: the balance it bought, when the server sent it. */
  onBought: (balance: TBalance | undefined) => void;
  onBack: () => void;
};

/**
 * Buys a package (docs/product.md#packages) through the same order and capture as a session, the order
 * made from `{ packageId }`: what is bought is a money balance with the trainer.
 */
export function PackageCheckout({ trainer, pkg, onBought, onBack }: PackageCheckoutProps) {
  const summaryRef = useRef<HTMLDListElement>(null);
  useEffect(() => summaryRef.current?.focus(), []);
  const [stop, setStop] = useState<CheckoutStop | null>(null);
  const saving = packageSaving(pkg, trainer.price);

  return (
    <div className="space-y-4">
      <dl
        ref={summaryRef}
        tabIndex={-1}
        aria-label="The package"
        className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 rounded-xl border border-line p-4 text-sm focus:outline-none"
      >
        <dt className="text-muted">Trainer</dt>
        <dd className="font-semibold text-ink">
          {trainer.firstName} {trainer.lastName}
        </dd>
        <dt className="text-muted">Package</dt>
        <dd className="text-ink">{plural(pkg.sessions, 'session', 'sessions')}</dd>
        <dt className="text-muted">Per session</dt>
        <dd className="text-ink">
          {formatMoney(pkg.perSession)}
          {saving > 0 && ` (saves ${formatMoney(saving)} in all)`}
        </dd>
        <dt className="text-muted">Valid</dt>
        <dd className="text-ink">
          {pkg.validityMonths === null ? 'No end date' : `${plural(pkg.validityMonths, 'month', 'months')} from today`}
        </dd>
        <dt className="text-base font-bold text-ink">Total</dt>
        <dd className="text-base font-bold text-ink">{formatMoney(pkg.price)}</dd>
      </dl>
      <p className="text-sm text-muted">
        What you pay is kept as your balance with {trainer.firstName}: each session you book from it takes{' '}
        {formatMoney(pkg.perSession)}, a session cancelled more than 24 hours ahead goes back into it, and you can ask for the
        unused rest back at any time.
      </p>
      {stop ? (
        <Alert
          tone={stop.kind === 'unknown' ? 'warning' : 'error'}
          title={stop.kind === 'unknown' ? 'Payment not confirmed yet' : 'Not bought'}
        >
          {stop.message}
        </Alert>
      ) : (
        <ProviderPayment
          order={{ packageId: pkg._id }}
          amount={pkg.price}
          effect="adds the package"
          onPaid={(_captureId, answer) => onBought(answer.balance)}
          onStopped={setStop}
        />
      )}
      <Button variant="ghost" onClick={onBack}>
        {stop ? 'Close' : 'Back'}
      </Button>
    </div>
  );
}
