import { Info } from 'lucide-react';
import { BmiCalculator } from './bmi-calculator';

export function BmiPage() {
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-14 sm:px-6 sm:py-20">
      <title>BMI Calculator · Spotter</title>
      <p className="text-sm font-semibold tracking-wide text-accent-ink uppercase">Free tool</p>
      <h1 className="mt-2 font-display text-4xl font-bold text-ink sm:text-5xl">BMI Calculator</h1>
      <p className="mt-4 max-w-2xl text-lg text-muted">
        Body mass index compares your weight with your height. It is a quick first check, and a good conversation starter with
        your coach.
      </p>
      <div className="mt-10">
        <BmiCalculator />
      </div>
      <aside aria-label="About BMI" className="mt-10 flex max-w-3xl gap-3 rounded-card border border-line p-5 text-sm text-muted">
        <Info className="mt-0.5 size-5 shrink-0 text-subtle" aria-hidden="true" />
        <p>
          BMI is your weight in kilograms divided by the square of your height in metres. It does not tell muscle from fat, so
          strong, muscular people can score high, and it says nothing about where fat sits. Treat it as a starting point, not a
          verdict, and talk to a doctor about any health concern.
        </p>
      </aside>
    </div>
  );
}
