import { Link } from 'react-router';
import type { TBooking } from '@spotter/shared';
import { cardLinkClass, SectionCard } from '@/components/section-card';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useBookings } from '@/lib/api/bookings';
import { formatDayHeading, formatPrice, formatTimeRange, localDayKey, plural } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { BookingStatus } from './booking-status';

const DAY = 24 * 60 * 60_000;
const SHOWN: ReadonlySet<TBooking['status']> = new Set(['pending', 'confirmed', 'completed']);

type ScheduleDay = { key: string; heading: string; sessions: TBooking[] };

/** Today and the next six days in the viewer's time zone, each with its live sessions in time order. */
function weekOf(bookings: TBooking[], now = new Date()): ScheduleDay[] {
  const start = new Date(now);
  start.setHours(0, 0, 0, 0);
  const days: ScheduleDay[] = [];
  for (let i = 0; i < 7; i += 1) {
    // noon, so a daylight-saving change never lands the day on its neighbour
    const noon = new Date(start.getFullYear(), start.getMonth(), start.getDate() + i, 12).toISOString();
    days.push({ key: localDayKey(noon), heading: formatDayHeading(noon), sessions: [] });
  }
  const end = start.getTime() + 7 * DAY;
  const sorted = bookings
    .filter((b) => SHOWN.has(b.status) && Date.parse(b.startsAt) >= start.getTime() && Date.parse(b.startsAt) < end)
    .sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
  for (const booking of sorted) days.find((day) => day.key === localDayKey(booking.startsAt))?.sessions.push(booking);
  return days;
}

/** A trainer's sessions of the coming seven days on their profile. */
export function WeekSchedule() {
  const { token } = useSession();
  const bookings = useBookings(token);

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
    const days = weekOf(bookings.data);
    const count = days.reduce((n, day) => n + day.sessions.length, 0);
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
                <p className="text-sm text-subtle">Free</p>
              ) : (
                <ul className="space-y-2">
                  {day.sessions.map((session) => (
                    <li key={session._id} className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                      <span className="font-semibold text-ink tabular-nums">
                        {formatTimeRange(session.startsAt, session.endsAt)}
                      </span>
                      <span className="text-ink">
                        {session.userFirstName} {session.userLastName}
                      </span>
                      <span className="text-muted">{formatPrice(session.price)}</span>
                      <BookingStatus status={session.status} />
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      </>
    );
  }

  return (
    <SectionCard
      title="This week's schedule"
      note="Times are in your local time."
      action={
        <Link to={`${paths.settings.trainer.getHref()}#availability`} className={cardLinkClass}>
          Edit availability
        </Link>
      }
    >
      {body}
    </SectionCard>
  );
}
