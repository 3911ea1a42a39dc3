import { bmiCategory, bmiMessage, computeBmi, type BmiCategory } from '@spotter/shared';
import { ArrowRight } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { paths } from '@/lib/paths';
import { BmiBandsLegend, BmiGauge } from './bmi-gauge';

/** Sensible bounds for a person; the sign-up rules use the same ones (docs/product.md#limits). */
const HEIGHT_RANGE = { min: 50, max: 250 };
const WEIGHT_RANGE = { min: 5, max: 650 };

const advice: Record<BmiCategory, string> = {
  Underweight:
    'A BMI under 18.5 can mean your body needs more energy than it gets. A coach can help you build strength and muscle safely; see a doctor if you are losing weight without trying.',
  'Normal weight':
    'You are in the healthy range. Your training can be about what you enjoy: getting stronger, running further or learning a new skill.',
  Overweight:
    'A little above the healthy range. Strength training, daily walking and steady eating habits bring it down, no crash diet needed.',
  Obese:
    'A BMI of 30 or more raises the risk of several health problems. A patient coach, together with your doctor, can help you start safely and keep going.',
};

type Errors = { height?: string; weight?: string };

function checkValue(raw: string, range: { min: number; max: number }, what: string, unit: string) {
  if (raw.trim() === '') return `Enter your ${what} in ${unit}`;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < range.min || value > range.max) {
    return `Enter a ${what} between ${range.min} and ${range.max} ${unit}`;
  }
  return undefined;
}

/**
 * BMI of docs/product.md#bmi, computed in the browser: weight / height in metres squared, two decimals.
 * Editing an input clears the shown result, so a result never disagrees with the inputs.
 */
export function BmiCalculator() {
  const [height, setHeight] = useState('');
  const [weight, setWeight] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [bmi, setBmi] = useState<number | null>(null);
  const [calculation, setCalculation] = useState(0);
  const resultRef = useRef<HTMLElement>(null);

  // On phones the result sits under the form: bring it into view after each calculation.
  useEffect(() => {
    if (calculation === 0) return;
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    resultRef.current?.scrollIntoView?.({ block: 'nearest', behavior: reduceMotion ? 'auto' : 'smooth' });
  }, [calculation]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next: Errors = {
      height: checkValue(height, HEIGHT_RANGE, 'height', 'cm'),
      weight: checkValue(weight, WEIGHT_RANGE, 'weight', 'kg'),
    };
    setErrors(next);
    const firstInvalid = next.height ? 'height' : next.weight ? 'weight' : null;
    if (firstInvalid) (event.currentTarget.elements.namedItem(firstInvalid) as HTMLInputElement | null)?.focus();
    const result = next.height || next.weight ? null : computeBmi(Number(height), Number(weight));
    setBmi(result);
    if (result !== null) setCalculation((count) => count + 1);
  };

  const category = bmi === null ? null : bmiCategory(bmi);

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
      <form noValidate onSubmit={onSubmit} className="space-y-5 rounded-card border border-line bg-canvas p-6 sm:p-8">
        <TextField
          label="Height (cm)"
          name="height"
          type="number"
          inputMode="decimal"
          step="any"
          min={HEIGHT_RANGE.min}
          max={HEIGHT_RANGE.max}
          placeholder="e.g. 170"
          value={height}
          error={errors.height}
          onChange={(event) => {
            setHeight(event.target.value);
            setErrors((current) => ({ ...current, height: undefined }));
            setBmi(null);
          }}
        />
        <TextField
          label="Weight (kg)"
          name="weight"
          type="number"
          inputMode="decimal"
          step="any"
          min={WEIGHT_RANGE.min}
          max={WEIGHT_RANGE.max}
          placeholder="e.g. 65"
          value={weight}
          error={errors.weight}
          onChange={(event) => {
            setWeight(event.target.value);
            setErrors((current) => ({ ...current, weight: undefined }));
            setBmi(null);
          }}
        />
        <Button type="submit" size="lg" className="w-full">
          Click to Calculate BMI
        </Button>
        <p className="text-sm text-subtle">Nothing you enter leaves this page: the calculation runs in your browser.</p>
      </form>

      <section ref={resultRef} aria-labelledby="bmi-result-title" className="scroll-mt-24 rounded-card bg-surface p-6 sm:p-8">
        <h2 id="bmi-result-title" className="font-display text-xl font-semibold text-ink">
          Your result
        </h2>
        {/* Always rendered, so screen readers announce the number and category when they appear. */}
        <div aria-live="polite" aria-atomic="true">
          {bmi !== null && (
            <>
              <p className="mt-3 flex items-baseline gap-2">
                <span className="text-sm text-muted">BMI</span>
                <span className="font-display text-5xl font-extrabold text-ink">{bmi.toFixed(2)}</span>
              </p>
              <p className="mt-1 text-lg font-semibold text-ink">{bmiMessage(bmi)}</p>
            </>
          )}
        </div>
        {bmi === null || category === null ? (
          <>
            <p className="mt-2 text-muted">
              Enter your height and weight, then calculate. Your BMI and where it sits on the scale appear here.
            </p>
            <BmiBandsLegend className="mt-6" />
          </>
        ) : (
          <>
            <div className="mt-6">
              <BmiGauge bmi={bmi} category={category} />
            </div>
            <p className="mt-6 text-muted">{advice[category]}</p>
            <Link to={paths.trainers.getHref()} className={buttonClasses({ variant: 'secondary', className: 'mt-5' })}>
              Find a coach for your goal
              <ArrowRight className="size-4" aria-hidden="true" />
            </Link>
          </>
        )}
      </section>
    </div>
  );
}
