import { cn } from '@/lib/cn';
import type { BillingPeriod } from '../data/pricing-plans';

const options: Array<{ value: BillingPeriod; label: string; note?: string }> = [
  { value: 'monthly', label: 'Monthly' },
  { value: 'yearly', label: 'Yearly', note: '2 months free' },
];

type BillingPeriodToggleProps = { value: BillingPeriod; onChange: (value: BillingPeriod) => void };

/** Monthly or yearly prices: two radios drawn as a segmented control (arrow keys switch). */
export function BillingPeriodToggle({ value, onChange }: BillingPeriodToggleProps) {
  return (
    <fieldset>
      <legend className="sr-only">Billing period</legend>
      <div className="inline-flex rounded-full border border-line-strong bg-canvas p-1">
        {options.map((option) => (
          <label
            key={option.value}
            className={cn(
              'relative flex min-h-11 cursor-pointer items-center gap-2 rounded-full px-5 text-sm font-semibold transition-colors duration-150',
              'has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-ink',
              value === option.value ? 'bg-ink text-on-ink' : 'text-ink hover:bg-surface',
            )}
          >
            <input
              type="radio"
              name="billing-period"
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="sr-only"
            />
            {option.label}
            {/* The space keeps "Yearly" and the note apart in the radio's accessible name. */}
            {option.note && ' '}
            {option.note && (
              <span
                className={cn(
                  'rounded-full px-2 py-0.5 text-xs',
                  value === option.value ? 'bg-accent text-ink' : 'bg-accent-soft text-accent-ink',
                )}
              >
                {option.note}
              </span>
            )}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
