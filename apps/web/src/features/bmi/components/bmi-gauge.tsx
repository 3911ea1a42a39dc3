import type { BmiCategory } from '@spotter/shared';
import { cn } from '@/lib/cn';

/** The part of the BMI scale the gauge draws; values outside it sit at the ends. */
const SCALE_MIN = 10;
const SCALE_MAX = 40;

const BMI_BANDS: Array<{ category: BmiCategory; range: string; from: number; to: number; className: string }> = [
  { category: 'Underweight', range: 'under 18.5', from: SCALE_MIN, to: 18.5, className: 'bg-line-strong' },
  { category: 'Normal weight', range: '18.5 to 25', from: 18.5, to: 25, className: 'bg-success-line' },
  { category: 'Overweight', range: '25 to 30', from: 25, to: 30, className: 'bg-warning-line' },
  { category: 'Obese', range: '30 and above', from: 30, to: SCALE_MAX, className: 'bg-danger-line' },
];

const position = (value: number) =>
  ((Math.min(Math.max(value, SCALE_MIN), SCALE_MAX) - SCALE_MIN) / (SCALE_MAX - SCALE_MIN)) * 100;

type BmiGaugeProps = { bmi: number; category: BmiCategory };

/** Four coloured bands with a marker where the BMI falls; one image with a text alternative. */
export function BmiGauge({ bmi, category }: BmiGaugeProps) {
  const band = BMI_BANDS.find((b) => b.category === category) ?? BMI_BANDS[0];
  return (
    <div>
      <div
        role="img"
        aria-label={`BMI scale: ${bmi.toFixed(2)} is in the ${category} band (${band.range}).`}
        className="relative pt-4"
      >
        <span
          aria-hidden="true"
          data-testid="bmi-marker"
          className="absolute top-0 flex -translate-x-1/2 flex-col items-center motion-safe:transition-[left] motion-safe:duration-200"
          style={{ left: `${position(bmi)}%` }}
        >
          <span className="size-0 border-x-[7px] border-t-[9px] border-x-transparent border-t-ink" />
          <span className="h-7 w-1 rounded-full bg-ink ring-2 ring-canvas" />
        </span>
        <div className="flex h-5 overflow-hidden rounded-full">
          {BMI_BANDS.map((b) => (
            <span
              key={b.category}
              className={cn('h-full', b.className)}
              style={{ width: `${((b.to - b.from) / (SCALE_MAX - SCALE_MIN)) * 100}%` }}
            />
          ))}
        </div>
        <div aria-hidden="true" className="relative mt-1.5 h-4 text-xs text-subtle">
          {[18.5, 25, 30].map((tick) => (
            <span key={tick} className="absolute -translate-x-1/2" style={{ left: `${position(tick)}%` }}>
              {tick}
            </span>
          ))}
        </div>
      </div>
      <BmiBandsLegend current={category} className="mt-4" />
    </div>
  );
}

/** The four categories with their colour and range; the current one in bold. */
export function BmiBandsLegend({ current, className }: { current?: BmiCategory; className?: string }) {
  return (
    <ul className={cn('grid gap-x-4 gap-y-2 text-sm sm:grid-cols-2', className)}>
      {BMI_BANDS.map((b) => (
        <li
          key={b.category}
          className={cn('flex items-center gap-2', b.category === current ? 'font-semibold text-ink' : 'text-muted')}
        >
          <span aria-hidden="true" className={cn('size-3 shrink-0 rounded-full', b.className)} />
          <span>
            {b.category} <span className="font-normal text-subtle">({b.range})</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
