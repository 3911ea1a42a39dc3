import { Link } from 'react-router';
import { bmiCategory, bmiMessage, computeBmi } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import type { OwnAccount } from '@/lib/api/accounts';
import { paths } from '@/lib/paths';
import { useWeights } from '../api/get-weights';
import { cardLinkClass, SectionCard } from '@/components/section-card';
import { WeightChart } from './weight-chart';

/** The id of the Contact Info section on the settings page (where weights are saved). */
const CONTACT_SECTION_ID = 'contact-info';

/** The gauge runs from BMI 15 to 40; the bands are those of docs/product.md#bmi. */
const GAUGE = { from: 15, to: 40 };
const bands = [
  { to: 18.5, className: 'bg-surface-strong' },
  { to: 25, className: 'bg-accent' },
  { to: 30, className: 'bg-warning-line' },
  { to: GAUGE.to, className: 'bg-danger-line' },
];

function BmiGauge({ bmi }: { bmi: number }) {
  const percent = (value: number) =>
    ((Math.min(Math.max(value, GAUGE.from), GAUGE.to) - GAUGE.from) / (GAUGE.to - GAUGE.from)) * 100;
  let start = GAUGE.from;
  return (
    <div aria-hidden="true" className="relative mt-4 pt-3">
      <div className="flex h-2.5 overflow-hidden rounded-full">
        {bands.map((band) => {
          const width = percent(band.to) - percent(start);
          start = band.to;
          return <div key={band.to} className={band.className} style={{ width: `${width}%` }} />;
        })}
      </div>
      <div
        className="absolute top-0 size-4 -translate-x-1/2 rounded-full border-[3px] border-canvas bg-ink shadow-card"
        style={{ left: `${percent(bmi)}%`, top: '0.4rem' }}
      />
      <div className="mt-1.5 flex justify-between text-xs text-subtle">
        <span>Under</span>
        <span>Normal</span>
        <span>Over</span>
        <span>Obese</span>
      </div>
    </div>
  );
}

function WeightHistory() {
  const weights = useWeights('user');
  if (weights.isPending) {
    return (
      <div>
        <span className="sr-only" role="status">
          Loading your weight history…
        </span>
        <Skeleton className="h-36 w-full" />
      </div>
    );
  }
  if (weights.isError) {
    return (
      <Alert
        tone="error"
        title="We could not load your weight history."
        action={
          <Button variant="outline" onClick={() => void weights.refetch()} isLoading={weights.isFetching}>
            Retry
          </Button>
        }
      >
        {errorMessage(weights.error)}
      </Alert>
    );
  }
  // The server's list is the whole chart: its first point is the weight given at sign-up.
  if (weights.data.length === 0) {
    return (
      <div className="rounded-xl border border-dashed border-line-strong bg-surface px-4 py-6 text-center">
        <p className="font-semibold text-ink">Save your weight in Settings to start your chart</p>
        <Link to={{ pathname: paths.settings.user.getHref(), hash: CONTACT_SECTION_ID }} className={cardLinkClass}>
          Go to Contact Info
        </Link>
      </div>
    );
  }
  return <WeightChart weights={weights.data} />;
}

/** BMI from the account's height and weight, and the weight saved over time. */
export function BodyMetricsCard({ account }: { account: OwnAccount }) {
  const bmi = computeBmi(account.height, account.weight);
  const category = bmi === null ? null : bmiCategory(bmi);
  return (
    <SectionCard
      title="Body metrics"
      action={
        <Link to={paths.bmi.getHref()} className={cardLinkClass}>
          BMI calculator
        </Link>
      }
    >
      <div className="grid gap-6 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div>
          <h3 className="text-sm font-semibold text-subtle">Body mass index</h3>
          {bmi === null ? (
            <p className="mt-2 text-muted">Add your height and weight in Settings to see your BMI.</p>
          ) : (
            <>
              <p className="mt-1 font-display text-4xl font-bold text-ink">{bmi.toFixed(2)}</p>
              <p className={cn('mt-1 font-semibold', category === 'Normal weight' ? 'text-success' : 'text-warning-ink')}>
                {bmiMessage(bmi)}
              </p>
              <p className="mt-1 text-sm text-subtle">
                {account.height} cm · {account.weight} kg
              </p>
              <BmiGauge bmi={bmi} />
            </>
          )}
        </div>
        <div>
          <h3 className="mb-2 text-sm font-semibold text-subtle">Weight over time</h3>
          <WeightHistory />
        </div>
      </div>
    </SectionCard>
  );
}
