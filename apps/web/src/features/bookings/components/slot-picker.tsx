import { useMemo, useState } from 'react';
import type { TBooking } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useCreateBooking, useSlots } from '@/lib/api/bookings';
import { cn } from '@/lib/cn';
import { formatDateTime, formatPrice, formatTime } from '@/lib/format';
import { groupSlotsByLocalDay } from '../utils/group-slots';

type SlotPickerProps = {
  trainer: { _id: string; firstName: string; price: number };
  onHeld: (booking: TBooking) => void;
};

function SlotsSkeleton() {
  return (
    <div aria-hidden="true" className="space-y-4">
      {[0, 1].map((i) => (
        <div key={i} className="space-y-2">
          <Skeleton className="h-5 w-40" />
          <div className="grid grid-cols-3 gap-2 sm:grid-cols-4">
            {[0, 1, 2, 3].map((j) => (
              <Skeleton key={j} className="h-11" />
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}

/** The trainer's free slots of the next 14 days by local day; choosing one and continuing holds it. */
export function SlotPicker({ trainer, onHeld }: SlotPickerProps) {
  const slots = useSlots(trainer._id);
  const book = useCreateBooking();
  const [chosen, setChosen] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const days = useMemo(() => groupSlotsByLocalDay(slots.data?.slots ?? []), [slots.data]);
  // A refetch (after a 409) may take the chosen slot away.
  const selected = chosen && slots.data?.slots.includes(chosen) ? chosen : null;

  const onContinue = () => {
    if (!selected) return;
    setFailure(null);
    book.mutate(
      { trainerId: trainer._id, startsAt: selected },
      {
        onSuccess: onHeld,
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) setChosen(null);
          setFailure(errorMessage(error));
        },
      },
    );
  };

  let body;
  if (slots.isPending) {
    body = (
      <>
        <span role="status" className="sr-only">
          Loading free times…
        </span>
        <SlotsSkeleton />
      </>
    );
  } else if (slots.isError) {
    body = (
      <Alert
        tone="error"
        title="Could not load the free times"
        action={
          <Button variant="outline" onClick={() => void slots.refetch()} isLoading={slots.isFetching}>
            Retry
          </Button>
        }
      >
        {errorMessage(slots.error)}
      </Alert>
    );
  } else if (days.length === 0) {
    body = (
      <Alert tone="info" title="No free times in the next 14 days">
        {trainer.firstName} has no open slots right now. Send a message to ask about other times.
      </Alert>
    );
  } else {
    body = (
      <div className="space-y-4">
        {days.map((day) => {
          const headingId = `slot-day-${day.key}`;
          return (
            <div key={day.key} role="group" aria-labelledby={headingId}>
              <h3 id={headingId} className="mb-2 text-sm font-semibold text-ink">
                {day.heading}
              </h3>
              <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4">
                {day.slots.map((slot) => {
                  const isChosen = slot === selected;
                  return (
                    <li key={slot}>
                      <button
                        type="button"
                        aria-pressed={isChosen}
                        onClick={() => {
                          setChosen(slot);
                          setFailure(null);
                        }}
                        className={cn(
                          'min-h-11 w-full rounded-lg border text-sm font-semibold tabular-nums transition-colors duration-150',
                          isChosen ? 'border-ink bg-accent text-ink' : 'border-line bg-canvas text-ink hover:border-line-strong',
                        )}
                      >
                        {formatTime(slot)}
                      </button>
                    </li>
                  );
                })}
              </ul>
            </div>
          );
        })}
      </div>
    );
  }

  return (
    <div className="flex min-h-0 flex-col gap-4">
      <div className="min-h-0 overflow-y-auto pr-1 max-sm:max-h-[45dvh] sm:max-h-[50dvh]">{body}</div>
      {failure && <Alert tone="error">{failure}</Alert>}
      <div className="flex flex-wrap items-end justify-between gap-3 border-t border-line pt-4">
        <div className="text-sm">
          <dl>
            <div className="flex gap-1.5">
              <dt className="text-muted">Price:</dt>
              <dd className="text-ink">{formatPrice(trainer.price)} per one-hour session</dd>
            </div>
            <div className="flex gap-1.5 text-base font-bold">
              <dt>Total:</dt>
              <dd>{selected ? formatPrice(trainer.price) : formatPrice(0)}</dd>
            </div>
          </dl>
          {selected && <p className="mt-0.5 text-muted">{formatDateTime(selected)}</p>}
        </div>
        <Button onClick={onContinue} disabled={!selected} isLoading={book.isPending}>
          Continue to payment
        </Button>
      </div>
    </div>
  );
}
