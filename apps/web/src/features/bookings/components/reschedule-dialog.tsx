import { MessageCircle } from 'lucide-react';
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { cancellationPolicy, zoneCity, zoneLabel, type TBooking } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useRescheduleBooking, useSlots } from '@/lib/api/bookings';
import { cn } from '@/lib/cn';
import { formatDateTime, formatTime } from '@/lib/format';
import { paths } from '@/lib/paths';
import { groupSlotsByLocalDay } from '../utils/group-slots';

/**
 * 'Move' of one paid session (docs/product.md#moving-a-session): the trainer's other free slots as one
 * radio group, the cancellation policy the session will have at the chosen time, and 'Move session'.
 * No money moves; a refusal (409: too late, just taken; 400: no longer a free slot) is shown as the
 * server words it, and a taken slot makes the times reload (the hook refreshes them).
 */

type RescheduleDialogProps = {
  booking: TBooking;
  /** The zone the times are shown in (the browser's or the trainer's, as the page's switch says). */
  timeZone: string;
};

const NEXT_KEYS = new Set(['ArrowRight', 'ArrowDown']);
const PREVIOUS_KEYS = new Set(['ArrowLeft', 'ArrowUp']);

/** The user's inbox opened on the conversation with this trainer (`?with=`, as the inbox's rows open it). */
function conversationHref(booking: TBooking) {
  const params = new URLSearchParams({ with: booking.trainerId, name: booking.trainerFirstName });
  return `${paths.inbox.user.getHref()}?${params.toString()}`;
}

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

/** What a refusal says: the field's own message for a 400 on `startsAt`, otherwise the server's message. */
function refusalOf(error: unknown) {
  if (error instanceof ApiError && error.errors?.startsAt) return error.errors.startsAt;
  return errorMessage(error);
}

/** The dialog's inside, mounted only while it is open: the slots load each time it opens. */
function RescheduleBody({ booking, timeZone, onMoved }: RescheduleDialogProps & { onMoved: () => void }) {
  const slots = useSlots(booking.trainerId);
  const move = useRescheduleBooking();
  const [chosen, setChosen] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // the session's time as the dialog opened (the card takes the new one while the move is sent)
  const [currentStart] = useState(booking.startsAt);
  // the session's own time is not a place to move it to
  const free = useMemo(
    () => (slots.data?.slots ?? []).filter((slot) => Date.parse(slot) !== Date.parse(currentStart)),
    [slots.data, currentStart],
  );
  const days = useMemo(() => groupSlotsByLocalDay(free, timeZone), [free, timeZone]);
  const order = useMemo(() => days.flatMap((day) => day.slots), [days]);
  const radios = useRef(new Map<string, HTMLButtonElement>());
  // a reload (after a 409) may take the chosen slot away
  const selected = chosen && free.includes(chosen) ? chosen : null;
  // roving tabindex: the chosen time is the group's one Tab stop, the first one before any is chosen
  const tabStop = selected ?? order[0];
  const trainerFirstName = booking.trainerFirstName;

  const choose = (slot: string) => {
    setChosen(slot);
    setFailure(null);
  };

  const onRadioKeyDown = (event: KeyboardEvent<HTMLButtonElement>, slot: string) => {
    const index = order.indexOf(slot);
    let next: number;
    if (NEXT_KEYS.has(event.key)) next = (index + 1) % order.length;
    else if (PREVIOUS_KEYS.has(event.key)) next = (index - 1 + order.length) % order.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = order.length - 1;
    else return;
    event.preventDefault();
    choose(order[next]);
    radios.current.get(order[next])?.focus();
  };

  const onMove = () => {
    if (!selected) return;
    setFailure(null);
    move.mutate(
      { booking, startsAt: selected },
      {
        onSuccess: onMoved,
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'SLOT_TAKEN') setChosen(null);
          setFailure(refusalOf(error));
        },
      },
    );
  };

  let body;
  const hasSlots = !slots.isPending && !slots.isError && days.length > 0;
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
      <Alert
        tone="info"
        title="No other free times in the next 14 days"
        action={
          <Link to={conversationHref(booking)} className={buttonClasses({ variant: 'outline', className: 'px-4' })}>
            <MessageCircle className="size-4" aria-hidden="true" />
            Message {trainerFirstName}
          </Link>
        }
      >
        {trainerFirstName} has no other open slots right now. Send a message to ask about other times; your session stays as it
        is.
      </Alert>
    );
  } else {
    body = (
      <div role="radiogroup" aria-label="Free times" className="space-y-4">
        {days.map((day) => {
          const headingId = `move-day-${day.key}`;
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
                        ref={(element) => {
                          if (element) radios.current.set(slot, element);
                          else radios.current.delete(slot);
                        }}
                        type="button"
                        role="radio"
                        aria-checked={isChosen}
                        tabIndex={slot === tabStop ? 0 : -1}
                        onClick={() => choose(slot)}
                        onKeyDown={(event) => onRadioKeyDown(event, slot)}
                        className={cn(
                          'min-h-11 w-full rounded-lg border text-sm font-semibold tabular-nums transition-colors duration-150',
                          isChosen ? 'border-ink bg-accent text-ink' : 'border-line bg-canvas text-ink hover:border-line-strong',
                        )}
                      >
                        {formatTime(slot, timeZone)}
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

  // the session keeps the policy it was booked with at its new time (docs/decisions/052-frozen-session-policy.md)
  const policy = selected
    ? cancellationPolicy({ startsAt: selected, now: new Date(), timeZone, cancelHours: booking.policy?.cancelHours })
    : null;

  return (
    <div className="flex min-h-0 flex-col gap-4">
      <p className="text-sm">
        <span className="text-muted">Current time: </span>
        <time dateTime={currentStart} className="font-semibold text-ink">
          {formatDateTime(currentStart, timeZone)}
        </time>{' '}
        <span className="text-muted">({zoneLabel(timeZone, new Date(currentStart))})</span>
      </p>
      {hasSlots && (
        <p className="text-sm text-muted">
          Times in <span className="font-semibold text-ink">{zoneLabel(timeZone, new Date())}</span>
        </p>
      )}
      <div className="min-h-0 overflow-y-auto pr-1 max-sm:max-h-[40dvh] sm:max-h-[45dvh]">{body}</div>
      {failure && <Alert tone="error">{failure}</Alert>}
      {hasSlots && (
        <div className="flex flex-col gap-3 border-t border-line pt-4">
          {/* the chosen time and its policy are read out as they change */}
          <div aria-live="polite" className="min-w-0 text-sm">
            {selected ? (
              <p className="text-ink">
                New time:{' '}
                <span className="font-semibold">
                  {formatDateTime(selected, timeZone)} ({zoneCity(timeZone)} time)
                </span>
              </p>
            ) : (
              <p className="text-muted">Choose a new time.</p>
            )}
            {policy && (
              <p
                data-testid="policy"
                className={cn('mt-0.5 font-semibold', policy.refundable ? 'text-success' : 'text-warning-ink')}
              >
                {policy.text}
              </p>
            )}
          </div>
          <div className="flex flex-wrap justify-end gap-3">
            <DialogClose asChild>
              <Button variant="outline">Keep current time</Button>
            </DialogClose>
            <Button onClick={onMove} disabled={!selected} isLoading={move.isPending}>
              Move session
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}

/**
 * 'Move' on a paid session's card and its dialog. The button shows while the server says the session
 * can be moved (`canReschedule`); an open dialog stays open when a refusal makes the list drop it, so
 * the person reads why.
 */
export function RescheduleDialog({ booking, timeZone }: RescheduleDialogProps) {
  const [isOpen, setIsOpen] = useState(false);
  if (!booking.canReschedule && !isOpen) return null;
  const trainerName = `${booking.trainerFirstName} ${booking.trainerLastName}`.trim();
  return (
    <Dialog open={isOpen} onOpenChange={setIsOpen}>
      <DialogTrigger asChild>
        <Button
          variant="secondary"
          aria-label={`Move the session with ${trainerName} on ${formatDateTime(booking.startsAt, timeZone)}`}
        >
          Move
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`Move your session with ${booking.trainerFirstName}`}
        description="Pick another free time. Your payment stays as it is: moving a session charges and refunds nothing."
        className="flex max-h-[calc(100dvh-2rem)] flex-col overflow-y-auto max-sm:p-4"
      >
        <RescheduleBody booking={booking} timeZone={timeZone} onMoved={() => setIsOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
