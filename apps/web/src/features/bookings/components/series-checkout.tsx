import { useEffect, useId, useRef } from 'react';
import { formatDateTimeIn, zoneCity, type TBooking, type TSeriesResponse } from '@spotter/shared';
import { Button } from '@/components/ui/button';
import { formatPrice, formatTime, plural } from '@/lib/format';
import type { CheckoutStop } from '../utils/payment-outcome';
import { placeOf } from '../utils/session-words';
import { ProviderPayment } from './checkout';

/** Why a week of a series was not held or booked, in words (docs/product.md#standing-weekly-sessions). */
const UNAVAILABLE_WORDS: Record<TSeriesResponse['unavailable'][number]['reason'], string> = {
  taken: 'Taken',
  'not-offered': 'Not among the trainer’s hours',
  'no-balance-left': 'Past what your package pays for',
};

const byStart = (a: { startsAt: string }, b: { startsAt: string }) => Date.parse(a.startsAt) - Date.parse(b.startsAt);

/** A series' weeks soonest first. */
export const sortedWeeks = (bookings: TBooking[]) => [...bookings].sort(byStart);

/** The sum of the weeks' prices: what one order for them costs. */
export const totalOf = (bookings: TBooking[]) => bookings.reduce((sum, booking) => sum + booking.price, 0);

/** A week left out of a series, with why in words. */
export type LeftOutWeek = { startsAt: string; why: string };

export const leftOutOf = (unavailable: TSeriesResponse['unavailable']): LeftOutWeek[] =>
  unavailable.map((week) => ({ startsAt: week.startsAt, why: UNAVAILABLE_WORDS[week.reason] }));

/** The weeks of a series as two labelled lists: those held or booked, and those left out with why. */
export function WeekLists({
  weeks,
  leftOut,
  timeZone,
  weeksTitle,
  leftOutTitle,
}: {
  weeks: TBooking[];
  leftOut: LeftOutWeek[];
  timeZone: string;
  weeksTitle: string;
  leftOutTitle: string;
}) {
  const id = useId();
  return (
    <>
      <div>
        <h3 id={`${id}-weeks`} className="text-sm font-semibold text-ink">
          {weeksTitle}
        </h3>
        <ul aria-labelledby={`${id}-weeks`} className="mt-1 space-y-1 text-sm text-ink">
          {sortedWeeks(weeks).map((booking) => (
            <li key={booking._id}>
              <time dateTime={booking.startsAt}>{formatDateTimeIn(booking.startsAt, timeZone)}</time>
            </li>
          ))}
        </ul>
      </div>
      {leftOut.length > 0 && (
        <div>
          <h3 id={`${id}-left-out`} className="text-sm font-semibold text-ink">
            {leftOutTitle}
          </h3>
          <ul aria-labelledby={`${id}-left-out`} className="mt-1 space-y-1 text-sm">
            {[...leftOut].sort(byStart).map((week) => (
              <li key={week.startsAt}>
                <time dateTime={week.startsAt} className="text-ink">
                  {formatDateTimeIn(week.startsAt, timeZone)}
                </time>
                <span className="text-muted">: {week.why}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

/** Until when the weeks are held: the soonest of their holds. */
const heldUntil = (weeks: TBooking[]) =>
  weeks
    .map((week) => week.holdExpiresAt)
    .filter((at): at is string => at !== null)
    .sort((a, b) => Date.parse(a) - Date.parse(b))[0];

type SeriesCheckoutProps = {
  /** The series as the hold answered it: the held weeks and the weeks not free. */
  series: TSeriesResponse;
  trainerName: string;
  /** The zone the times are shown in (the browser's or the trainer's). */
  timeZone: string;
  /** The capture went through: the weeks it confirmed, when the server sent them. */
  onPaid: (captureId: string, bookings: TBooking[] | undefined) => void;
  onStopped: (stop: CheckoutStop) => void;
  /** Releases the weeks and goes back to the times; left out where there are no times to go back to. */
  onChooseAnother?: () => void;
};

/**
 * Pays for the held weeks of a standing weekly series by card (docs/product.md#standing-weekly-sessions): the weeks held,
 * those not free with why, the total and the hold, then one order of `{ seriesId }` for all the held weeks.
 */
export function SeriesCheckout({ series, trainerName, timeZone, onPaid, onStopped, onChooseAnother }: SeriesCheckoutProps) {
  // 'Continue' is gone: the summary takes focus, so 'Pay' is the next Tab.
  const summaryRef = useRef<HTMLDListElement>(null);
  useEffect(() => summaryRef.current?.focus(), []);
  const weeks = sortedWeeks(series.bookings);
  const total = totalOf(weeks);
  const until = heldUntil(weeks);
  const place = weeks[0] && placeOf(weeks[0].location, { showLink: false });

  return (
    <div className="space-y-4">
      <dl
        ref={summaryRef}
        tabIndex={-1}
        aria-label="Your weekly sessions"
        className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 rounded-xl border border-line p-4 text-sm focus:outline-none"
      >
        <dt className="text-muted">Trainer</dt>
        <dd className="font-semibold text-ink">{trainerName}</dd>
        <dt className="text-muted">Sessions</dt>
        <dd className="text-ink">
          {plural(weeks.length, 'one-hour session', 'one-hour sessions')}, one a week; times in {zoneCity(timeZone)} time
        </dd>
        {place && (
          <>
            <dt className="text-muted">Where</dt>
            <dd className="text-ink">
              {place.text}
              {weeks[0]?.location?.kind === 'online' && ' (the link is shown once you have paid)'}
            </dd>
          </>
        )}
        <dt className="text-muted">Cancellation</dt>
        <dd data-testid="policy" className="font-semibold text-ink">
          Each week on its own: cancelled more than 24 hours before it starts, its price is refunded to your card or PayPal
        </dd>
        <dt className="text-base font-bold text-ink">Total</dt>
        <dd data-testid="series-total" className="text-base font-bold text-ink">
          {formatPrice(total)}
        </dd>
      </dl>
      <div className="space-y-3">
        <WeekLists
          weeks={weeks}
          leftOut={leftOutOf(series.unavailable)}
          timeZone={timeZone}
          weeksTitle="Held for you"
          leftOutTitle="Not free, left out"
        />
      </div>
      {until && <p className="text-sm text-muted">We hold these weeks for you until {formatTime(until, timeZone)}.</p>}
      <ProviderPayment
        order={{ seriesId: series.seriesId }}
        amount={total}
        effect="confirms the weekly sessions"
        onPaid={(captureId, answer) => onPaid(captureId, answer.bookings)}
        onStopped={onStopped}
      />
      {onChooseAnother && (
        <Button variant="ghost" onClick={onChooseAnother}>
          Choose another time
        </Button>
      )}
    </div>
  );
}
