import { ChevronDown, MessageCircle } from 'lucide-react';
import { useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { cancellationPolicy, zoneCity, type TBooking, type TSeriesResponse } from '@spotter/shared';
import { useNeedsConnection } from '@/components/needs-connection';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useCreateBooking, useHoldSeries, useSlots } from '@/lib/api/bookings';
import { cn } from '@/lib/cn';
import { formatDateTime, formatPrice, formatTime } from '@/lib/format';
import { useSession } from '@/lib/session';
import { groupSlotsByLocalDay } from '../utils/group-slots';
import { WaitlistJoin } from './waitlist-join';
import { SERIES_WEEKS, WeeksChoice, type Weeks } from './weeks-choice';

type SlotPickerProps = {
  trainer: { _id: string; firstName: string; price: number };
  onHeld: (booking: TBooking) => void;
  /** The zone the times are shown in (the browser's or the trainer's). */
  timeZone: string;
  /** The zone line and its switch, shown above the times. */
  zoneSwitch?: ReactNode;
  /** The person's own unpaid hold with this trainer, which they can go on paying for. */
  hold?: TBooking | null;
  /** How many weeks of a weekly series the hold is (paid together), 0 for one session. */
  heldWeeks?: number;
  /**
   * Offers every week for 4, 8 or 12 weeks besides just this session (docs/product.md#standing-weekly-sessions):
   * Continue then holds the free weeks and hands them over, to be paid together by card.
   */
  onSeriesHeld?: (series: TSeriesResponse) => void;
  /** Opens the conversation with the trainer (offered when there is no free time). */
  onMessage?: () => void;
  /**
   * Continue with the chosen time without holding it: the next step asks how to pay (a package
   * balance, docs/product.md#packages). Without it, Continue holds the time.
   */
  onChosen?: (startsAt: string) => void;
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

const NEXT_KEYS = new Set(['ArrowRight', 'ArrowDown']);
const PREVIOUS_KEYS = new Set(['ArrowLeft', 'ArrowUp']);

/**
 * The trainer's free slots of the next 14 days by day, as one radio group (arrow keys move within it,
 * one Tab stop; 'Continue' is the next): choosing one and continuing holds it.
 */
export function SlotPicker({
  trainer,
  onHeld,
  timeZone,
  zoneSwitch,
  hold,
  heldWeeks = 0,
  onMessage,
  onChosen,
  onSeriesHeld,
}: SlotPickerProps) {
  const slots = useSlots(trainer._id);
  const book = useCreateBooking();
  const holdSeries = useHoldSeries();
  const [chosen, setChosen] = useState<string | null>(null);
  /** null: just this session. */
  const [weeks, setWeeks] = useState<Weeks | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const days = useMemo(() => groupSlotsByLocalDay(slots.data?.slots ?? [], timeZone), [slots.data, timeZone]);
  const order = useMemo(() => days.flatMap((day) => day.slots), [days]);
  const radios = useRef(new Map<string, HTMLButtonElement>());
  // A refetch (after a 409) may take the chosen slot away.
  const selected = chosen && slots.data?.slots.includes(chosen) ? chosen : null;
  // Roving tabindex: the chosen time is the group's one Tab stop, the first one before any is chosen.
  const tabStop = selected ?? order[0];
  // The waitlist (docs/product.md#waitlist), for when no free time suits: users join it, visitors are
  // asked to log in, trainers are not offered it.
  const { role } = useSession();
  const canWait = role !== 'trainer';
  // the weekly choice here is the card's, for a logged-in user; with a package balance (onChosen) the next step offers it
  const offersWeeks = onSeriesHeld !== undefined && onChosen === undefined && role === 'user';
  const chosenWeeks = offersWeeks ? weeks : null;
  const isHolding = book.isPending || holdSeries.isPending;
  const connection = useNeedsConnection();
  const [isWaitlistOpen, setIsWaitlistOpen] = useState(false);
  const waitlistId = useId();

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

  const onContinue = () => {
    if (!selected) return;
    setFailure(null);
    if (onChosen) return onChosen(selected);
    if (chosenWeeks !== null && onSeriesHeld) {
      // the series' refusals (none of the weeks free, too many holds) leave the time chosen: the list is read again
      holdSeries.mutate(
        { trainerId: trainer._id, startsAt: selected, weeks: chosenWeeks },
        { onSuccess: onSeriesHeld, onError: (error) => setFailure(errorMessage(error)) },
      );
      return;
    }
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

  const holdNotice = hold && (
    <Alert
      tone="info"
      title={heldWeeks > 0 ? 'You are holding weekly sessions' : 'You are holding a time'}
      action={<Button onClick={() => onHeld(hold)}>Continue to payment</Button>}
    >
      {heldWeeks > 0 && `Every week for ${heldWeeks} weeks from `}
      {formatDateTime(hold.startsAt, timeZone)}
      {hold.holdExpiresAt && `, kept for you until ${formatTime(hold.holdExpiresAt, timeZone)}`}.
    </Alert>
  );

  let body;
  const hasSlots = !slots.isPending && !slots.isError && days.length > 0;
  const isEmpty = !slots.isPending && !slots.isError && days.length === 0;
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
        title="No free times in the next 14 days"
        action={
          (onMessage || (canWait && !isWaitlistOpen)) && (
            <div className="flex flex-col gap-2">
              {onMessage && (
                <Button variant="outline" onClick={onMessage}>
                  <MessageCircle className="size-4" aria-hidden="true" />
                  Message {trainer.firstName}
                </Button>
              )}
              {/* replaced by the form it opens, which takes the focus */}
              {canWait && !isWaitlistOpen && (
                <Button variant="outline" onClick={() => setIsWaitlistOpen(true)}>
                  Join the waitlist
                </Button>
              )}
            </div>
          )
        }
      >
        {trainer.firstName} has no open slots right now. Send a message to ask about other times.
      </Alert>
    );
  } else {
    body = (
      <div role="radiogroup" aria-label="Free times" className="space-y-4">
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

  const policy = selected ? cancellationPolicy({ startsAt: selected, now: new Date(), timeZone }) : null;

  return (
    <div className="flex min-h-0 flex-col gap-4">
      {holdNotice}
      {hasSlots && zoneSwitch}
      <div className="min-h-0 overflow-y-auto pr-1 max-sm:max-h-[45dvh] sm:max-h-[50dvh]">{body}</div>
      {failure && <Alert tone="error">{failure}</Alert>}
      {hasSlots && offersWeeks && selected && (
        <div className="border-t border-line pt-4">
          <WeeksChoice
            legend="Book"
            name="slot-weeks"
            choices={SERIES_WEEKS}
            value={chosenWeeks}
            onChange={setWeeks}
            disabled={isHolding}
            hint="Every week at this weekday and time, each a session of its own. Continue holds the free weeks and leaves out those that are not free; you see them and the total before you pay."
          />
        </div>
      )}
      {hasSlots && (
        <div className="flex flex-wrap items-end justify-between gap-3 border-t border-line pt-4">
          <div className="min-w-0 text-sm">
            <dl>
              <div className="flex gap-1.5">
                <dt className="text-muted">Price:</dt>
                <dd className="text-ink">{formatPrice(trainer.price)} per one-hour session</dd>
              </div>
              <div className="flex gap-1.5 text-base font-bold">
                <dt>Total:</dt>
                <dd>
                  {!selected
                    ? formatPrice(0)
                    : chosenWeeks === null
                      ? formatPrice(trainer.price)
                      : `up to ${formatPrice(trainer.price * chosenWeeks)} for ${chosenWeeks} weeks`}
                </dd>
              </div>
            </dl>
            {/* the chosen time and its policy are read out as they change */}
            <div aria-live="polite">
              {selected && (
                <p className="mt-0.5 text-muted">
                  {formatDateTime(selected, timeZone)} ({zoneCity(timeZone)} time)
                </p>
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
          </div>
          <Button
            onClick={onContinue}
            disabled={!selected || !connection.isOnline}
            isLoading={isHolding}
            {...connection.buttonProps}
          >
            Continue
          </Button>
          {connection.note}
        </div>
      )}
      {hasSlots && canWait && (
        <div className="border-t border-line pt-2">
          <button
            type="button"
            aria-expanded={isWaitlistOpen}
            aria-controls={waitlistId}
            onClick={() => setIsWaitlistOpen((isOpen) => !isOpen)}
            className="inline-flex min-h-11 items-center gap-1.5 rounded-full text-left text-sm font-semibold text-ink underline underline-offset-4 hover:decoration-accent-ink"
          >
            None of these times suit you? Join the waitlist
            <ChevronDown
              className={cn('size-4 shrink-0 transition-transform duration-150', isWaitlistOpen && 'rotate-180')}
              aria-hidden="true"
            />
          </button>
          {isWaitlistOpen && (
            <div id={waitlistId} className="mt-2">
              <WaitlistJoin trainer={trainer} timeZone={timeZone} />
            </div>
          )}
        </div>
      )}
      {isEmpty && canWait && isWaitlistOpen && <WaitlistJoin trainer={trainer} timeZone={timeZone} isFocusedOnOpen />}
    </div>
  );
}
