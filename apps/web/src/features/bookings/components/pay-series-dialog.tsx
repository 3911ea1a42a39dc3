import { CircleCheck } from 'lucide-react';
import { useState } from 'react';
import type { TBooking } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent } from '@/components/ui/dialog';
import { useRefreshBookings } from '@/lib/api/bookings';
import { formatPrice, plural } from '@/lib/format';
import { notify } from '@/lib/toast';
import type { CheckoutStop } from '../utils/payment-outcome';
import { SeriesCheckout, totalOf, WeekLists } from './series-checkout';

/** The held weeks of one weekly series to pay for, as the list of sessions has them. */
export type HeldSeries = { seriesId: string; trainerId: string; trainerName: string; weeks: TBooking[] };

/**
 * Pays, from the list of sessions, for the held weeks of a weekly series together (docs/product.md#standing-weekly-sessions):
 * the series' checkout in a dialog, then what was paid. It stays open while the list changes under it.
 */
export function PaySeriesDialog({
  series,
  timeZone,
  onClose,
}: {
  /** null: closed. */
  series: HeldSeries | null;
  timeZone: string;
  onClose: () => void;
}) {
  const refresh = useRefreshBookings();
  const [paid, setPaid] = useState<TBooking[] | null>(null);
  const [stop, setStop] = useState<CheckoutStop | null>(null);
  const close = () => {
    setPaid(null);
    setStop(null);
    onClose();
  };

  let body;
  if (!series) body = null;
  else if (paid) {
    const text = `Paid ${formatPrice(totalOf(paid))} to ${series.trainerName} for ${plural(paid.length, 'weekly session', 'weekly sessions')}`;
    body = (
      <div className="space-y-4">
        <div
          role="status"
          className="flex items-start gap-3 rounded-xl border border-success-line bg-success-soft p-4 text-success"
        >
          <CircleCheck className="mt-0.5 size-6 shrink-0" aria-hidden="true" />
          <p className="font-medium">{text}.</p>
        </div>
        <WeekLists weeks={paid} leftOut={[]} timeZone={timeZone} weeksTitle="Booked" leftOutTitle="Not booked" />
        <p className="text-sm text-muted">
          Each is a session of its own: cancelled more than 24 hours ahead, its price is refunded to your card or PayPal.
        </p>
        <div className="flex justify-end">
          <DialogClose asChild>
            <Button>Close</Button>
          </DialogClose>
        </div>
      </div>
    );
  } else if (stop) {
    body = (
      <div className="space-y-4">
        <Alert
          tone={stop.kind === 'unknown' ? 'warning' : 'error'}
          title={stop.kind === 'unknown' ? 'Payment not confirmed yet' : 'Not booked'}
        >
          {stop.message}
        </Alert>
        <div className="flex justify-end">
          <DialogClose asChild>
            <Button>Close</Button>
          </DialogClose>
        </div>
      </div>
    );
  } else {
    body = (
      <SeriesCheckout
        series={{ seriesId: series.seriesId, bookings: series.weeks, unavailable: [] }}
        trainerName={series.trainerName}
        timeZone={timeZone}
        onPaid={(_captureId, bookings) => {
          const held = new Set(series.weeks.map((week) => week._id));
          const confirmed = (bookings ?? series.weeks.map((week) => ({ ...week, status: 'confirmed' as const }))).filter(
            (b) => held.has(b._id) && b.status === 'confirmed',
          );
          setPaid(confirmed);
          notify.success(
            `Paid ${formatPrice(totalOf(confirmed))} to ${series.trainerName} for ${plural(confirmed.length, 'weekly session', 'weekly sessions')}`,
          );
          void refresh(series.trainerId);
        }}
        onStopped={(next) => {
          setStop(next);
          void refresh(series.trainerId);
        }}
      />
    );
  }

  return (
    <Dialog open={series !== null} onOpenChange={(open) => !open && close()}>
      {series && (
        <DialogContent
          title={`Pay for your weekly sessions with ${series.trainerName}`}
          description="The weeks held for you are paid together."
          className="flex max-h-[calc(100dvh-2rem)] max-w-xl flex-col overflow-y-auto"
        >
          {body}
        </DialogContent>
      )}
    </Dialog>
  );
}
