import type { TBookingStatus } from '@spotter/shared';
import { cn } from '@/lib/cn';

const LABELS: Record<TBookingStatus, string> = {
  pending: 'Awaiting payment',
  confirmed: 'Confirmed',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  expired: 'Expired',
  'no-show': 'No-show',
};

const TONES: Record<TBookingStatus, string> = {
  pending: 'border-warning-line bg-warning-soft text-warning-ink',
  confirmed: 'border-success-line bg-success-soft text-success',
  completed: 'border-line bg-surface text-ink',
  cancelled: 'border-line bg-surface text-muted',
  refunded: 'border-line bg-surface text-muted',
  expired: 'border-line bg-surface text-muted',
  'no-show': 'border-line bg-surface text-muted',
};

export function BookingStatus({ status }: { status: TBookingStatus }) {
  return (
    <span className={cn('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold', TONES[status])}>
      {LABELS[status]}
    </span>
  );
}
