import { Check } from 'lucide-react';
import { Link } from 'react-router';
import type { TAvailability, TOwnTrainer } from '@spotter/shared';
import { cn } from '@/lib/cn';
import { paths } from '@/lib/paths';

/** Whether clients can book the trainer at all: some weekly hours, or a date with hours. */
export const isBookable = (availability: Pick<TAvailability, 'weekly' | 'overrides'>) =>
  availability.weekly.some((day) => day.hours.length > 0) || availability.overrides.some((date) => date.hours.length > 0);

/** A photo of their own, not the generated portrait every account starts with (docs/product.md#photos). */
const hasOwnPhoto = (picture: string) => picture !== '' && !picture.startsWith('/api/avatars/');

/**
 * A new trainer's first steps (docs/product.md#own-profile): a photo, a description, hours and where
 * payouts go, each linked to where it is done and ticked once done. Shown while they are not bookable.
 * `hasPayoutAddress` null: not known (the address could not be read), so that step is left out rather
 * than shown as to do.
 */
export function FirstRunChecklist({
  account,
  hasHours,
  hasPayoutAddress,
}: {
  account: Pick<TOwnTrainer, 'picture' | 'description'>;
  hasHours: boolean;
  hasPayoutAddress: boolean | null;
}) {
  const settings = paths.settings.trainer.getHref();
  const items = [
    { label: 'Add a photo of yourself', isDone: hasOwnPhoto(account.picture), href: `${settings}#photo` },
    { label: 'Describe how you train', isDone: account.description.trim() !== '', href: `${settings}#personal-details` },
    { label: 'Set your hours', isDone: hasHours, href: `${settings}#availability` },
    ...(hasPayoutAddress === null
      ? []
      : [{ label: 'Add your payout address', isDone: hasPayoutAddress, href: `${settings}#payouts` }]),
  ];
  const done = items.filter((item) => item.isDone).length;
  return (
    <div className="rounded-xl border border-line p-4">
      <h3 className="font-semibold text-ink">Get ready for your first client</h3>
      <p className="mt-0.5 text-sm text-muted">
        {done} of {items.length} done
      </p>
      <ul aria-label="Get ready for your first client" className="mt-3 space-y-1">
        {items.map((item) => (
          <li key={item.label} className="flex items-center gap-3">
            <span
              aria-hidden="true"
              className={cn(
                'inline-flex size-6 shrink-0 items-center justify-center rounded-full border',
                item.isDone ? 'border-success bg-success text-on-ink' : 'border-line-strong',
              )}
            >
              {item.isDone && <Check className="size-4" />}
            </span>
            <Link
              to={item.href}
              className={cn(
                'inline-flex min-h-11 items-center text-sm font-semibold underline underline-offset-4 hover:text-ink',
                item.isDone ? 'text-muted line-through' : 'text-accent-ink',
              )}
            >
              {item.label}
              <span className="sr-only">{item.isDone ? ' (done)' : ' (to do)'}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
