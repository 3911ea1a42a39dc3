import { useState } from 'react';
import { Link } from 'react-router';
import { formatDateTimeIn, zoneCity, zoneLabel, type TBooking } from '@spotter/shared';
import { cardLinkClass, SectionCard } from '@/components/section-card';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useOwnAccount } from '@/lib/api/accounts';
import { useAvailability, useBookings } from '@/lib/api/bookings';
import { usePayoutAddress } from '@/lib/api/payouts';
import { formatPrice, plural } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { BookingStatus } from './booking-status';
import { FirstRunChecklist, isBookable } from './first-run-checklist';
import { ScheduleRowActions } from './schedule-row-actions';
import { WeeklyBadge } from './weekly-badge';

const DAY = 24 * 60 * 60_000;
const UPCOMING: ReadonlySet<TBooking['status']> = new Set(['pending', 'confirmed', 'completed']);
/** Settled or past sessions in the history; lapsed holds never were sessions. */
const SETTLED: ReadonlySet<TBooking['status']> = new Set(['cancelled', 'refunded', 'no-show']);
const HISTORY_MAX = 20;

type ScheduleDay = { key: string; heading: string; sessions: TBooking[] };

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** 'YYYY-MM-DD' of an instant in the zone. */
const dayKeyIn = (at: Date | string, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(at));

const timeIn = (at: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(at));

/** Today and the next six days in the trainer's zone, each with its live sessions in time order. */
function weekOf(bookings: TBooking[], timeZone: string, now: Date): ScheduleDay[] {
  const [y, m, d] = dayKeyIn(now, timeZone).split('-').map(Number);
  const days: ScheduleDay[] = [];
  for (let i = 0; i < 7; i += 1) {
    // a calendar date, read in UTC so it never shifts a day
    const noon = new Date(Date.UTC(y, m - 1, d + i, 12));
    days.push({
      key: noon.toISOString().slice(0, 10),
      heading: new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' }).format(noon),
      sessions: [],
    });
  }
  const sorted = bookings
    .filter((b) => UPCOMING.has(b.status) && Date.parse(b.endsAt) > now.getTime() - DAY)
    .sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
  for (const booking of sorted) days.find((day) => day.key === dayKeyIn(booking.startsAt, timeZone))?.sessions.push(booking);
  return days;
}

/** Sessions that are over or settled, newest first: cancellations, refunds, no-shows and past sessions. */
function historyOf(bookings: TBooking[], timeZone: string, now: Date) {
  const today = dayKeyIn(now, timeZone);
  return bookings
    .filter(
      (b) =>
        SETTLED.has(b.status) || (UPCOMING.has(b.status) && b.status !== 'pending' && dayKeyIn(b.startsAt, timeZone) < today),
    )
    .sort((a, b) => Date.parse(b.startsAt) - Date.parse(a.startsAt))
    .slice(0, HISTORY_MAX);
}

/** Who cancelled and why, as the history says it. */
function settlement(booking: TBooking) {
  if (booking.status === 'no-show') return 'The client did not come.';
  if (booking.status !== 'cancelled' && booking.status !== 'refunded') return null;
  let refund = booking.status === 'refunded' ? ' Refunded in full.' : '';
  // paid from a package: the session went back to the client's balance, nothing to the card
  if (booking.paidFromBalance) refund = ' Back in the client’s package balance.';
  if (booking.cancelledBy === 'trainer')
    return `Cancelled by you${booking.cancelReason ? `: “${booking.cancelReason}”` : ''}.${refund}`;
  if (booking.cancelledBy === 'user') return `Cancelled by ${booking.userFirstName}.${refund}`;
  return refund.trim() || null;
}

function SessionRow({ session, timeZone }: { session: TBooking; timeZone: string }) {
  return (
    <li className="space-y-2 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-semibold text-ink tabular-nums">
          {timeIn(session.startsAt, timeZone)}–{timeIn(session.endsAt, timeZone)}
        </span>
        <span className="text-ink">
          {session.userFirstName} {session.userLastName}
        </span>
        {session.seriesId && <WeeklyBadge />}
        <span className="text-muted">{formatPrice(session.price)}</span>
        <BookingStatus status={session.status} />
      </div>
      <ScheduleRowActions booking={session} />
    </li>
  );
}

function HistoryRow({ booking, timeZone }: { booking: TBooking; timeZone: string }) {
  const detail = settlement(booking);
  return (
    <li className="space-y-2 px-4 py-3 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-semibold text-ink tabular-nums">{formatDateTimeIn(booking.startsAt, timeZone)}</span>
        <span className="text-ink">
          {booking.userFirstName} {booking.userLastName}
        </span>
        {booking.seriesId && <WeeklyBadge />}
        <span className="text-muted">{formatPrice(booking.price)}</span>
        <BookingStatus status={booking.status} />
      </div>
      {detail && <p className="text-muted">{detail}</p>}
      <ScheduleRowActions booking={booking} />
    </li>
  );
}

/**
 * A trainer's schedule on their profile (docs/product.md#own-profile): the coming seven days in their
 * zone with an action on every session, their history below, and while nobody can book them a
 * 'Not bookable yet' banner with the first steps.
 */
export function WeekSchedule() {
  const { token } = useSession();
  const bookings = useBookings(token);
  const availability = useAvailability();
  const account = useOwnAccount('trainer');
  const payout = usePayoutAddress(token);
  const [isInTrainerZone, setIsInTrainerZone] = useState(false);
  const now = new Date();
  const localZone = browserZone();
  const trainerZone = availability.data?.timeZone ?? bookings.data?.[0]?.timeZone ?? localZone;
  // the browser's zone, with a switch to the trainer's own when they differ (docs/product.md#booking-and-payment)
  const timeZone = isInTrainerZone ? trainerZone : localZone;
  const otherZone = isInTrainerZone ? localZone : trainerZone;
  const hasHours = availability.data ? isBookable(availability.data) : null;
  const ownAccount = account.data && 'price' in account.data ? account.data : null;
  // waits for the payout address, so its step never shows 'to do' and then ticks itself
  const hasPayoutAddress = payout.isPending ? undefined : payout.isError ? null : payout.data.email !== null;

  let body;
  if (bookings.isPending) {
    body = (
      <>
        <span role="status" className="sr-only">
          Loading your schedule…
        </span>
        <div aria-hidden="true" className="space-y-2">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-12 w-full" />
          ))}
        </div>
      </>
    );
  } else if (bookings.isError) {
    body = (
      <Alert
        tone="error"
        title="Could not load your schedule"
        action={
          <Button variant="outline" onClick={() => void bookings.refetch()} isLoading={bookings.isFetching}>
            Retry
          </Button>
        }
      >
        {errorMessage(bookings.error)}
      </Alert>
    );
  } else {
    const days = weekOf(bookings.data, timeZone, now);
    const count = days.reduce((n, day) => n + day.sessions.length, 0);
    const history = historyOf(bookings.data, timeZone, now);
    body = (
      <>
        <p className="mb-3 text-sm text-muted">
          {count === 0 ? 'No sessions booked this week yet.' : `${plural(count, 'session', 'sessions')} this week.`}
        </p>
        <ol aria-label="This week" className="divide-y divide-line rounded-xl border border-line">
          {days.map((day) => (
            <li key={day.key} className="grid gap-2 px-4 py-3 sm:grid-cols-[11rem_minmax(0,1fr)]">
              <h3 className="font-semibold text-ink">{day.heading}</h3>
              {day.sessions.length === 0 ? (
                <p className="text-sm text-subtle">No sessions</p>
              ) : (
                <ul className="space-y-4">
                  {day.sessions.map((session) => (
                    <SessionRow key={session._id} session={session} timeZone={timeZone} />
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
        <h3 className="mt-6 mb-2 font-display text-lg font-bold text-ink">History</h3>
        {history.length === 0 ? (
          <p className="text-sm text-subtle">No past or cancelled sessions yet.</p>
        ) : (
          <ul aria-label="History" className="divide-y divide-line rounded-xl border border-line">
            {history.map((booking) => (
              <HistoryRow key={booking._id} booking={booking} timeZone={timeZone} />
            ))}
          </ul>
        )}
      </>
    );
  }

  return (
    <SectionCard
      title="Your schedule"
      note={
        <>
          Times in {zoneLabel(timeZone, now)}.{' '}
          {otherZone !== timeZone && (
            <button
              type="button"
              onClick={() => setIsInTrainerZone(!isInTrainerZone)}
              className="min-h-11 font-semibold text-accent-ink underline underline-offset-4 hover:text-ink"
            >
              Show in {zoneCity(otherZone)} time
            </button>
          )}
        </>
      }
      action={
        <Link to={`${paths.settings.trainer.getHref()}#availability`} className={cardLinkClass}>
          Edit availability
        </Link>
      }
    >
      {hasHours === false && (
        <div className="mb-5 space-y-4">
          <Alert tone="warning" title="Not bookable yet" isLive={false}>
            Clients cannot book you until you set your hours.
          </Alert>
          {ownAccount && hasPayoutAddress !== undefined && (
            <FirstRunChecklist account={ownAccount} hasHours={false} hasPayoutAddress={hasPayoutAddress} />
          )}
        </div>
      )}
      {body}
    </SectionCard>
  );
}
