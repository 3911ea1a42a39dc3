import { useMutation } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { consoleApi } from '@/lib/api/console';
import { When } from './console-ui';

/**
 * The ledger check on demand (docs/product.md#refunds-by-operators): every transaction balances, no
 * account is below zero, every payment and refund is booked. The answer is read out when it comes.
 */
export function LedgerPanel() {
  const check = useMutation({ mutationFn: () => consoleApi.ledger() });
  const result = check.data;
  return (
    <section aria-labelledby="ledger-heading" className="rounded-2xl border border-line bg-canvas p-4 sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="ledger-heading" className="font-display text-xl font-bold text-ink">
          Ledger
        </h2>
        <Button variant="secondary" isLoading={check.isPending} onClick={() => check.mutate()}>
          Check the ledger now
        </Button>
      </div>
      <p className="mt-2 text-sm text-muted">
        Every transaction balances, no account is below zero, every payment and refund is booked.
      </p>
      <div role="status" className="mt-4 text-sm empty:hidden">
        {check.isPending && <p>Checking the ledger…</p>}
        {check.isSuccess && result && (
          <>
            <p className="text-muted">
              Checked <When at={result.checkedAt} />
            </p>
            {result.differences.length === 0 ? (
              <p className="mt-2 font-semibold text-success">Everything adds up.</p>
            ) : (
              <>
                <p className="mt-2 font-semibold text-danger">
                  {result.differences.length === 1 ? '1 difference' : `${result.differences.length} differences`}
                </p>
                <ul aria-label="Differences" className="mt-2 space-y-2">
                  {result.differences.map((difference, index) => (
                    <li
                      key={`${difference.kind}-${difference.key ?? index}`}
                      className="rounded-xl border border-danger-line p-3"
                    >
                      <p className="font-mono text-xs font-semibold text-danger">{difference.kind}</p>
                      <p className="mt-1 text-ink">{difference.message}</p>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </div>
      {check.isError && (
        <div className="mt-4">
          <Alert tone="error">The ledger could not be checked. {errorMessage(check.error)}</Alert>
        </div>
      )}
    </section>
  );
}
