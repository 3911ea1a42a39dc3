import { CalendarDays, CalendarPlus, MapPin } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { zoneLabel, type TBooking } from '@spotter/shared';
import { cardLinkClass, SectionCard } from '@/components/section-card';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useBookings } from '@/lib/api/bookings';
import { formatDateTime, formatPrice, formatTime, plural } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { googleCalendarUrl, icsHref, placeOf, policyText } from '../utils/session-words';
import { BookingStatus } from './booking-status';
import { CancelBookingDialog } from './cancel-booking-dialog';
import { DisputeDialog, DisputeStatusLine } from './dispute-dialog';
import { PaySeriesDialog, type HeldSeries } from './pay-series-dialog';
import { ReleaseBookingDialog, RELEASED_LINE } from './release-booking-dialog';
import { RescheduleDialog } from './reschedule-dialog';
import { WeeklyBadge } from './weekly-badge';
import { useZoneChoice, ZoneSwitch } from './zone-switch';

/** An unpaid hold whose time ran out: never a session, whatever status the list still has for it. */
const isLapsedHold = (booking: TBooking, now: number) =>
  booking.status === 'expired' ||
  (booking.status === 'pending' && (!booking.holdExpiresAt || Date.parse(booking.holdExpiresAt) <= now));

const isUpcoming = (booking: TBooking, now: number) =>
  (booking.status === 'pending' || booking.status === 'confirmed') && Date.parse(booking.endsAt) > now;

/** Upcoming sessions soonest first; past and cancelled ones newest first. Lapsed unpaid holds were never sessions. */
function splitSessions(bookings: TBooking[], now = Date.now()) {
  const sessions = bookings.filter((b) => !isLapsedHold(b, now));
  const upcoming = sessions.filter((b) => isUpcoming(b, now)).sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
  const past = sessions.filter((b) => !isUpcoming(b, now)).sort((a, b) => Date.parse(b.startsAt) - Date.parse(a.startsAt));
  return { upcoming, past };
}

/**
 * The held weeks of each weekly series still held, by series, soonest first: a week of a series is paid with the
 * others, never alone (docs/product.md#standing-weekly-sessions).
 */
function heldSeriesOf(upcoming: TBooking[]): Map<string, HeldSeries> {
  const bySeries = new Map<string, HeldSeries>();
  for (const booking of upcoming) {
    if (booking.status !== 'pending' || !booking.seriesId) continue;
    const series = bySeries.get(booking.seriesId) ?? {
      seriesId: booking.seriesId,
      trainerId: booking.trainerId,
      trainerName: `${booking.trainerFirstName} ${booking.trainerLastName}`.trim(),
      weeks: [],
    };
    series.weeks.push(booking);
    bySeries.set(booking.seriesId, series);
  }
  return bySeries;
}

/** What the card of a held week of a series says: held with the others until when, and paying for them all. */
function HeldWeekLine({
  booking,
  series,
  timeZone,
  onPay,
}: {
  booking: TBooking;
  series: HeldSeries;
  timeZone: string;
  onPay: (series: HeldSeries) => void;
}) {
  const first = series.weeks[0];
  const count = plural(series.weeks.length, 'weekly session', 'weekly sessions');
  return (
    <div className="space-y-2 text-sm text-muted">
      <p>
        Not paid yet: one of {count} held for you
        {booking.holdExpiresAt && ` until ${formatTime(booking.holdExpiresAt, timeZone)}`}, paid together
        {first._id !== booking._id && ` (see ${formatDateTime(first.startsAt, timeZone)})`}.
      </p>
      {first._id === booking._id && (
        <Button
          variant="outline"
          onClick={() => onPay(series)}
          aria-label={`Pay for ${count} with ${series.trainerName} from ${formatDateTime(first.startsAt, timeZone)}`}
        >
          Pay for {count}
        </Button>
      )}
    </div>
  );
}

/** What the card says about cancelling: the deadline while there is one, otherwise why it cannot be cancelled. */
function CancellationLine({ booking, timeZone }: { booking: TBooking; timeZone: string }) {
  if (booking.status === 'pending') {
    return (
      <p className="text-sm text-muted">
        Not paid yet
        {booking.holdExpiresAt && `: held for you until ${formatTime(booking.holdExpiresAt, timeZone)}`}.{' '}
        <Link
          to={paths.trainerPublicProfile.getHref(booking.trainerId)}
          className="font-semibold text-ink underline underline-offset-4"
        >
          Continue to payment
        </Link>
      </p>
    );
  }
  const text = policyText(booking, timeZone);
  if (booking.canCancel) {
    return (
      <p className="text-sm text-muted">
        {text}
        {booking.paidFromBalance && ': the session goes back to your package balance'}
      </p>
    );
  }
  // docs/product.md#booking-and-payment: past the deadline the card says why, rather than offering a Cancel that is refused.
  const isPastDeadline = text.startsWith('Starts in less than');
  return (
    <p className="text-sm font-semibold text-warning-ink">
      {isPastDeadline ? text : 'This session can no longer be cancelled here'}. To change it, message {booking.trainerFirstName}.
    </p>
  );
}

/** Who cancelled a cancelled or refunded session, and the trainer's reason. */
function CancelledLine({ booking, trainerName }: { booking: TBooking; trainerName: string }) {
  const backTo = booking.paidFromBalance ? 'Back in your package balance' : 'Refunded in full';
  if (booking.cancelledBy === 'trainer') {
    return (
      <div className="text-sm">
        <p className="font-semibold text-ink">
          Cancelled by {trainerName} · {booking.status === 'refunded' || booking.paidFromBalance ? backTo : 'Nothing was charged'}
        </p>
        {booking.cancelReason && <p className="break-words text-muted">Reason: “{booking.cancelReason}”</p>}
      </div>
    );
  }
  if (booking.status === 'refunded' || booking.paidFromBalance)
    return <p className="text-sm text-muted">Cancelled by you · {backTo}</p>;
  return null;
}

function SessionItem({
  booking,
  timeZone,
  isUpcomingSession,
  heldSeries,
  onPaySeries,
}: {
  booking: TBooking;
  timeZone: string;
  isUpcomingSession: boolean;
  /** The series this held week is one of, paid together. */
  heldSeries?: HeldSeries;
  onPaySeries?: (series: HeldSeries) => void;
}) {
  const trainerName = `${booking.trainerFirstName} ${booking.trainerLastName}`.trim();
  const place = placeOf(booking.location, { showLink: booking.status === 'confirmed' });
  const isCancellable = isUpcomingSession && booking.canCancel;
  const disputeLine = useRef<HTMLParagraphElement>(null);
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-4">
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-center gap-x-2 font-semibold text-ink">
          <Link to={paths.trainerPublicProfile.getHref(booking.trainerId)} className="underline-offset-4 hover:underline">
            {trainerName}
          </Link>
          {booking.seriesId && <WeeklyBadge />}
        </p>
        <p className="text-sm text-muted">
          <time dateTime={booking.startsAt}>{formatDateTime(booking.startsAt, timeZone)}</time>–
          {formatTime(booking.endsAt, timeZone)} ({zoneLabel(timeZone, new Date(booking.startsAt))}) ·{' '}
          {booking.paidFromBalance ? `${formatMoney(booking.price)} from your package` : formatPrice(booking.price)}
        </p>
        {place && (
          <p className="flex items-center gap-1 text-sm text-muted">
            <MapPin className="size-4 shrink-0" aria-hidden="true" />
            {place.href ? (
              <a
                href={place.href}
                target="_blank"
                rel="noreferrer"
                className="font-semibold text-ink underline underline-offset-4"
              >
                {place.text}
              </a>
            ) : (
              <span className="break-words">{place.text}</span>
            )}
          </p>
        )}
        {isUpcomingSession &&
          (booking.releasedAt && booking.status === 'confirmed' ? (
            <p className="text-sm font-semibold text-ink">{RELEASED_LINE}</p>
          ) : heldSeries && onPaySeries ? (
            <HeldWeekLine booking={booking} series={heldSeries} timeZone={timeZone} onPay={onPaySeries} />
          ) : (
            <CancellationLine booking={booking} timeZone={timeZone} />
          ))}
        {(booking.status === 'cancelled' || booking.status === 'refunded') && (
          <CancelledLine booking={booking} trainerName={trainerName} />
        )}
        {booking.status === 'no-show' && (
          <p className="text-sm text-muted">{booking.trainerFirstName} marked that you did not come. No refund.</p>
        )}
        {booking.disputeStatus && <DisputeStatusLine ref={disputeLine} status={booking.disputeStatus} />}
        {isUpcomingSession && booking.status === 'confirmed' && (
          <p className="flex flex-wrap items-center gap-x-3 text-sm">
            <CalendarPlus className="size-4 text-subtle" aria-hidden="true" />
            <a
              href={googleCalendarUrl(booking)}
              target="_blank"
              rel="noreferrer"
              aria-label={`Add the session with ${trainerName} to Google Calendar`}
              className="inline-flex min-h-11 items-center font-semibold text-ink underline underline-offset-4"
            >
              Google Calendar
            </a>
            <a
              href={icsHref(booking)}
              download="session.ics"
              aria-label={`Download the session with ${trainerName} as an .ics file`}
              className="inline-flex min-h-11 items-center font-semibold text-ink underline underline-offset-4"
            >
              .ics file
            </a>
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <BookingStatus status={booking.status} />
        {/* shown while the server says it can be moved (paid, more than 24 h ahead) */}
        {isUpcomingSession && <RescheduleDialog booking={booking} timeZone={timeZone} />}
        {isCancellable && <CancelBookingDialog booking={booking} withName={trainerName} />}
        {/* shown while the server says it can be released (paid, inside 24 hours, not started, not released) */}
        {isUpcomingSession && <ReleaseBookingDialog booking={booking} withName={trainerName} timeZone={timeZone} />}
        {/* shown while the server says it can be disputed (paid, ended, within 48 hours, not disputed yet) */}
        <DisputeDialog booking={booking} withName={trainerName} timeZone={timeZone} returnFocusTo={disputeLine} />
      </div>
    </li>
  );
}

function SessionsSkeleton() {
  return (
    <div aria-hidden="true" className="space-y-3">
      <Skeleton className="h-14 w-full" />
      <Skeleton className="h-14 w-full" />
    </div>
  );
}

/** A user's sessions on their profile: upcoming with Move and Cancel, then past and cancelled ones. */
export function MySessions() {
  const { token } = useSession();
  const bookings = useBookings(token);
  const zones = useZoneChoice();
  const [paying, setPaying] = useState<HeldSeries | null>(null);

  let body;
  if (bookings.isPending) {
    body = (
      <>
        <span role="status" className="sr-only">
          Loading your sessions…
        </span>
        <SessionsSkeleton />
      </>
    );
  } else if (bookings.isError) {
    body = (
      <Alert
        tone="error"
        title="Could not load your sessions"
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
    const { upcoming, past } = splitSessions(bookings.data);
    const heldSeries = heldSeriesOf(upcoming);
    const trainerZones = [...upcoming, ...past].map((b) => b.timeZone);
    body =
      upcoming.length === 0 && past.length === 0 ? (
        <div className="flex flex-col items-center rounded-xl border border-dashed border-line-strong px-6 py-8 text-center">
          <CalendarDays className="size-8 text-subtle" aria-hidden="true" />
          <p className="mt-3 font-semibold text-ink">No sessions yet</p>
          <p className="mt-1 text-sm text-muted">Find a trainer and book a one-hour session at a time that suits you.</p>
          <Link to={paths.trainers.getHref()} className={buttonClasses({ className: 'mt-4' })}>
            Find a trainer
          </Link>
        </div>
      ) : (
        <div className="space-y-6">
          <ZoneSwitch trainerZones={trainerZones} choice={zones.choice} onChoose={zones.setChoice} />
          <div>
            <h3 className="font-semibold text-ink">Upcoming</h3>
            {upcoming.length === 0 ? (
              <p className="mt-2 text-sm text-muted">Nothing booked.</p>
            ) : (
              <ul aria-label="Upcoming sessions" className="divide-y divide-line">
                {upcoming.map((booking) => (
                  <SessionItem
                    key={booking._id}
                    booking={booking}
                    timeZone={zones.zoneOf(booking.timeZone)}
                    isUpcomingSession
                    heldSeries={booking.status === 'pending' && booking.seriesId ? heldSeries.get(booking.seriesId) : undefined}
                    onPaySeries={setPaying}
                  />
                ))}
              </ul>
            )}
          </div>
          {past.length > 0 && (
            <div>
              <h3 className="font-semibold text-ink">Past and cancelled</h3>
              <ul aria-label="Past and cancelled sessions" className="divide-y divide-line">
                {past.map((booking) => (
                  <SessionItem
                    key={booking._id}
                    booking={booking}
                    timeZone={zones.zoneOf(booking.timeZone)}
                    isUpcomingSession={false}
                  />
                ))}
              </ul>
            </div>
          )}
        </div>
      );
  }

  return (
    <SectionCard
      title="My sessions"
      action={
        <Link to={paths.payments.user.getHref()} className={cardLinkClass}>
          Payments
        </Link>
      }
    >
      {body}
      {/* outside the list: it stays open while paying turns the held weeks into sessions */}
      <PaySeriesDialog
        series={paying}
        timeZone={zones.zoneOf(paying?.weeks[0]?.timeZone ?? zones.browser)}
        onClose={() => setPaying(null)}
      />
    </SectionCard>
  );
}
