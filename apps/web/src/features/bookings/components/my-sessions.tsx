import { CalendarDays } from 'lucide-react';
import { Link } from 'react-router';
import type { TBooking } from '@spotter/shared';
import { cardLinkClass, SectionCard } from '@/components/section-card';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useBookings } from '@/lib/api/bookings';
import { formatDateTime, formatPrice, formatTime } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { BookingStatus } from './booking-status';
import { CancelBookingDialog } from './cancel-booking-dialog';

const isUpcoming = (booking: TBooking, now: number) =>
  (booking.status === 'pending' || booking.status === 'confirmed') && Date.parse(booking.endsAt) > now;

/** Upcoming sessions soonest first; past and cancelled ones newest first. Lapsed unpaid holds were never sessions. */
function splitSessions(bookings: TBooking[], now = Date.now()) {
  const upcoming = bookings.filter((b) => isUpcoming(b, now)).sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
  const past = bookings
    .filter((b) => !isUpcoming(b, now) && b.status !== 'expired')
    .sort((a, b) => Date.parse(b.startsAt) - Date.parse(a.startsAt));
  return { upcoming, past };
}

function SessionItem({ booking, isCancellable }: { booking: TBooking; isCancellable: boolean }) {
  const trainerName = `${booking.trainerFirstName} ${booking.trainerLastName}`.trim();
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-4">
      <div className="min-w-0">
        <p className="font-semibold text-ink">
          <Link to={paths.trainerPublicProfile.getHref(booking.trainerId)} className="underline-offset-4 hover:underline">
            {trainerName}
          </Link>
        </p>
        <p className="text-sm text-muted">
          <time dateTime={booking.startsAt}>{formatDateTime(booking.startsAt)}</time>–{formatTime(booking.endsAt)} ·{' '}
          {formatPrice(booking.price)}
        </p>
      </div>
      <div className="flex items-center gap-3">
        <BookingStatus status={booking.status} />
        {isCancellable && <CancelBookingDialog booking={booking} withName={trainerName} />}
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

/** A user's sessions on their profile: upcoming with Cancel, then past and cancelled ones. */
export function MySessions() {
  const { token } = useSession();
  const bookings = useBookings(token);

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
          <div>
            <h3 className="font-semibold text-ink">Upcoming</h3>
            {upcoming.length === 0 ? (
              <p className="mt-2 text-sm text-muted">Nothing booked.</p>
            ) : (
              <ul aria-label="Upcoming sessions" className="divide-y divide-line">
                {upcoming.map((booking) => (
                  <SessionItem key={booking._id} booking={booking} isCancellable />
                ))}
              </ul>
            )}
          </div>
          {past.length > 0 && (
            <div>
              <h3 className="font-semibold text-ink">Past and cancelled</h3>
              <ul aria-label="Past and cancelled sessions" className="divide-y divide-line">
                {past.map((booking) => (
                  <SessionItem key={booking._id} booking={booking} isCancellable={false} />
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
      note="Times are in your local time."
      action={
        <Link to={paths.payments.user.getHref()} className={cardLinkClass}>
          Payments
        </Link>
      }
    >
      {body}
    </SectionCard>
  );
}
