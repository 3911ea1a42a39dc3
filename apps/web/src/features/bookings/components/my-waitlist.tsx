import { Link } from 'react-router';
import { SectionCard } from '@/components/section-card';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { useLeaveWaitlist, useWaitlist } from '@/lib/api/waitlist';
import { formatDateTimeIn, zoneLabel, type TWaitlistEntry } from '@spotter/shared';
import { browserTimeZone, formatDayHeading, formatTime, localDayKey } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';

/** 'Monday 14 July, 06:00–12:00', or with both days when the window spans midnight (in the viewer's zone). */
function windowWords({ from, to }: Pick<TWaitlistEntry, 'from' | 'to'>) {
  const sameDay = localDayKey(from) === localDayKey(new Date(Date.parse(to) - 1).toISOString());
  return sameDay
    ? `${formatDayHeading(from)}, ${formatTime(from)}–${formatTime(to)}`
    : `${formatDayHeading(from)} ${formatTime(from)} – ${formatDayHeading(to)} ${formatTime(to)}`;
}

function StatusLine({ entry }: { entry: TWaitlistEntry }) {
  if (entry.status === 'offered' && entry.offer) {
    const { startsAt, holdExpiresAt } = entry.offer;
    return (
      <div className="space-y-2">
        <p className="rounded-lg bg-accent-soft px-3 py-2 text-sm font-medium text-ink">
          A time is held for you{holdExpiresAt && ` until ${formatTime(holdExpiresAt)}`}:{' '}
          <time dateTime={startsAt} className="font-semibold">
            {formatDateTimeIn(startsAt, browserTimeZone())}
          </time>
        </p>
        <Link to={paths.trainerPublicProfile.getHref(entry.trainerId)} className={buttonClasses({ className: 'max-sm:w-full' })}>
          Continue to payment
        </Link>
      </div>
    );
  }
  if (entry.status === 'booked') {
    return (
      <p className="text-sm font-semibold text-success">
        Booked{entry.offer && `: ${formatDateTimeIn(entry.offer.startsAt, browserTimeZone())}`}
      </p>
    );
  }
  return <p className="text-sm text-muted">Waiting</p>;
}

function WaitItem({ entry }: { entry: TWaitlistEntry }) {
  const leave = useLeaveWaitlist();
  const trainerName = `${entry.trainerFirstName} ${entry.trainerLastName}`.trim();
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-4">
      <div className="min-w-0 flex-1 basis-56 space-y-1">
        <p className="font-semibold text-ink">
          <Link to={paths.trainerPublicProfile.getHref(entry.trainerId)} className="underline-offset-4 hover:underline">
            {trainerName}
          </Link>
        </p>
        <p className="text-sm text-muted">
          <time dateTime={entry.from}>{windowWords(entry)}</time>
        </p>
        <StatusLine entry={entry} />
        {leave.isError && (
          <Alert tone="error" className="mt-2">
            {errorMessage(leave.error)}
          </Alert>
        )}
      </div>
      <Button
        variant="outline"
        onClick={() => leave.mutate(entry._id)}
        isLoading={leave.isPending}
        aria-label={`Leave ${trainerName}’s waitlist for ${windowWords(entry)}`}
      >
        Leave
      </Button>
    </li>
  );
}

/**
 * A user's waits on their profile (docs/product.md#waitlist): each with its window and whether a time
 * is held for them ('Continue to payment' on the trainer's page) or booked. Nothing when there are none.
 */
export function MyWaitlist() {
  const { role } = useSession();
  const waitlist = useWaitlist();
  if (role !== 'user') return null;

  // Most people wait for nothing: no card shows until there is something in it (or an error).
  if (waitlist.isPending) {
    return (
      <span role="status" className="sr-only">
        Loading your waitlist…
      </span>
    );
  }
  let body;
  if (waitlist.isError) {
    body = (
      <Alert
        tone="error"
        title="Could not load your waitlist"
        action={
          <Button variant="outline" onClick={() => void waitlist.refetch()} isLoading={waitlist.isFetching}>
            Retry
          </Button>
        }
      >
        {errorMessage(waitlist.error)}
      </Alert>
    );
  } else if (waitlist.data.length === 0) {
    return null;
  } else {
    body = (
      <ul aria-label="Your waits" className="divide-y divide-line">
        {waitlist.data.map((entry) => (
          <WaitItem key={entry._id} entry={entry} />
        ))}
      </ul>
    );
  }

  return (
    <SectionCard
      id="waitlist"
      title="Your waitlist"
      note={`Times in ${zoneLabel(browserTimeZone(), new Date())}. A time freed in your window is held for you for 30 minutes.`}
    >
      {body}
    </SectionCard>
  );
}
