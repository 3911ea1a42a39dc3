import type { TTrainerPackage } from '@spotter/shared';
import { plural } from './format';
import { formatMoney } from './money';

/**
 * How a package is written wherever it is shown (settings, the trainer's profile, the booking dialog):
 * '5 sessions · $180 · $36 a session · save $20 · valid 3 months'.
 */

/** What the package saves against the same sessions at the trainer's price (never below 0). */
export const packageSaving = (pkg: Pick<TTrainerPackage, 'sessions' | 'price'>, sessionPrice: number) =>
  Math.max(0, Math.round((pkg.sessions * sessionPrice - pkg.price) * 100) / 100);

/** 'valid 3 months', 'valid 1 month', 'no end date'. */
const validityText = (months: number | null) => (months === null ? 'no end date' : `valid ${plural(months, 'month', 'months')}`);

/** The parts of a package's line, in order; the saving only when there is one. */
function packageParts(pkg: TTrainerPackage, sessionPrice: number): string[] {
  const saving = packageSaving(pkg, sessionPrice);
  return [
    plural(pkg.sessions, 'session', 'sessions'),
    formatMoney(pkg.price),
    `${formatMoney(pkg.perSession)} a session`,
    ...(saving > 0 ? [`save ${formatMoney(saving)}`] : []),
    validityText(pkg.validityMonths),
  ];
}

export const packageLine = (pkg: TTrainerPackage, sessionPrice: number) => packageParts(pkg, sessionPrice).join(' · ');
