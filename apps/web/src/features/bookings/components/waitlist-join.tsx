import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { WAITLIST_RULES, zoneLabel } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError, inputClasses } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useJoinWaitlist } from '@/lib/api/waitlist';
import { cn } from '@/lib/cn';
import { formatDayHeading, localDayKey } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';

const HOUR = 60 * 60_000;

/** The parts of a day a person can wait for, as hours of the day in the zone the times are shown in. */
const PARTS = [
  { value: 'morning', label: 'Morning', hours: '06:00–12:00', from: 6, to: 12 },
  { value: 'afternoon', label: 'Afternoon', hours: '12:00–17:00', from: 12, to: 17 },
  { value: 'evening', label: 'Evening', hours: '17:00–22:00', from: 17, to: 22 },
  { value: 'any', label: 'Any time', hours: '06:00–22:00', from: 6, to: 22 },
] as const;
type Part = (typeof PARTS)[number]['value'];

/** How far `timeZone`'s clock is ahead of UTC at the instant `at` (ms), to the second. */
function zoneOffsetMs(timeZone: string, at: number) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(at));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(at / 1000) * 1000;
}

/** The instant a wall-clock hour of a calendar day (yyyy-mm-dd) is in `timeZone` (daylight saving included). */
function wallTimeToUtc(day: string, hour: number, timeZone: string) {
  const [y, m, d] = day.split('-').map(Number);
  const asUtc = Date.UTC(y, m - 1, d, hour);
  const first = asUtc - zoneOffsetMs(timeZone, asUtc);
  const second = asUtc - zoneOffsetMs(timeZone, first);
  return new Date(second);
}

/** The window of a part of a day, as the API takes it (UTC ISO). */
function windowOf(day: string, part: Part, timeZone: string) {
  const { from, to } = PARTS.find((p) => p.value === part) ?? PARTS[3];
  return { from: wallTimeToUtc(day, from, timeZone), to: wallTimeToUtc(day, to, timeZone) };
}

/** A window has passed once less than an hour of it is left (the server's rule). */
const hasPassed = (window: { to: Date }, now: number) => window.to.getTime() - HOUR < now;

/** The calendar days of the next 14 days in `timeZone`, from today (left out once its last hour has begun). */
function nextDays(timeZone: string, now: number) {
  const [y, m, d] = localDayKey(new Date(now).toISOString(), timeZone).split('-').map(Number);
  const days = Array.from({ length: WAITLIST_RULES.daysAhead }, (_, i) => {
    const key = new Date(Date.UTC(y, m - 1, d + i)).toISOString().slice(0, 10);
    return { key, label: formatDayHeading(`${key}T12:00:00.000Z`, 'UTC') };
  });
  return hasPassed(windowOf(days[0].key, 'any', timeZone), now) ? days.slice(1) : days;
}

type WaitlistJoinProps = {
  trainer: { _id: string; firstName: string };
  /** The zone the days and hours are in: the one the slot picker shows its times in. */
  timeZone: string;
  /** Moves the focus to the form when it appears (it replaced the button that opened it). */
  isFocusedOnOpen?: boolean;
};

/**
 * Joining a trainer's waitlist (docs/product.md#waitlist) for a part of one of the next 14 days: a time
 * freed in it is held for the user for 30 minutes. Visitors are asked to log in; trainers see nothing.
 */
export function WaitlistJoin({ trainer, timeZone, isFocusedOnOpen = false }: WaitlistJoinProps) {
  const { isLoggedIn, role } = useSession();
  const location = useLocation();
  if (!isLoggedIn) {
    return (
      <p className="text-sm text-muted">
        <Link
          to={paths.login.user.getHref(location.pathname)}
          className="font-semibold text-ink underline underline-offset-4 hover:decoration-accent-ink"
        >
          Log in
        </Link>{' '}
        to join {trainer.firstName}’s waitlist.
      </p>
    );
  }
  if (role === 'trainer') return null;
  return <JoinForm trainer={trainer} timeZone={timeZone} isFocusedOnOpen={isFocusedOnOpen} />;
}

function JoinForm({ trainer, timeZone, isFocusedOnOpen }: Required<WaitlistJoinProps>) {
  const join = useJoinWaitlist();
  const [now] = useState(() => Date.now());
  const days = nextDays(timeZone, now);
  const [day, setDay] = useState(days[0].key);
  const [part, setPart] = useState<Part>('any');
  const [joined, setJoined] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ message: string; errors: Record<string, string> } | null>(null);
  const ids = useId();
  const dayRef = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    if (isFocusedOnOpen) dayRef.current?.focus();
  }, [isFocusedOnOpen]);

  const dayError = failure?.errors.from;
  const partError = failure?.errors.to;
  const clear = () => {
    setFailure(null);
    setJoined(null);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    clear();
    const { from, to } = windowOf(day, part, timeZone);
    join.mutate(
      { trainerId: trainer._id, from: from.toISOString(), to: to.toISOString() },
      {
        onSuccess: ({ message }) => setJoined(message),
        onError: (error) =>
          setFailure({ message: errorMessage(error), errors: (error instanceof ApiError && error.errors) || {} }),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} aria-labelledby={`${ids}-title`} className="space-y-3" noValidate>
      <div>
        <h3 id={`${ids}-title`} className="font-semibold text-ink">
          Join {trainer.firstName}’s waitlist
        </h3>
        <p className="text-sm text-muted">
          If a time in this window opens up, we hold it for you for 30 minutes and e-mail you. You pay only if you book it.
        </p>
      </div>
      <div>
        <label htmlFor={`${ids}-day`} className="mb-1.5 block text-sm font-semibold text-ink">
          Date
        </label>
        <select
          ref={dayRef}
          id={`${ids}-day`}
          value={day}
          onChange={(event) => {
            const next = event.target.value;
            setDay(next);
            // a part of today that has passed cannot stay chosen
            if (hasPassed(windowOf(next, part, timeZone), now)) setPart('any');
            clear();
          }}
          aria-invalid={dayError ? true : undefined}
          aria-describedby={dayError ? `${ids}-day-error` : undefined}
          className={cn(inputClasses, dayError ? 'border-danger' : 'border-line-strong hover:border-muted')}
        >
          {days.map((d) => (
            <option key={d.key} value={d.key}>
              {d.label}
            </option>
          ))}
        </select>
        <FieldError id={`${ids}-day-error`}>{dayError}</FieldError>
      </div>
      <fieldset aria-describedby={partError ? `${ids}-part-error` : undefined}>
        <legend className="mb-1.5 block text-sm font-semibold text-ink">
          Part of the day ({zoneLabel(timeZone, new Date(now))})
        </legend>
        <div className="grid grid-cols-2 gap-2">
          {PARTS.map((option) => {
            const isPast = hasPassed(windowOf(day, option.value, timeZone), now);
            return (
              <label
                key={option.value}
                className={cn(
                  'flex min-h-11 cursor-pointer items-center gap-2 rounded-xl border border-line-strong px-3 py-1.5 has-[:checked]:border-ink has-[:checked]:bg-accent-soft has-[:focus-visible]:ring-3 has-[:focus-visible]:ring-accent-ink/40',
                  isPast && 'cursor-not-allowed opacity-50',
                )}
              >
                <input
                  type="radio"
                  name={`${ids}-part`}
                  value={option.value}
                  checked={part === option.value}
                  disabled={isPast}
                  onChange={() => {
                    setPart(option.value);
                    clear();
                  }}
                  aria-invalid={partError ? true : undefined}
                  className="size-4 shrink-0 accent-ink focus-visible:outline-none"
                />
                <span className="text-sm leading-tight">
                  <span className="block font-medium text-ink">{option.label}</span>
                  <span className="block whitespace-nowrap text-muted tabular-nums">{option.hours}</span>
                </span>
              </label>
            );
          })}
        </div>
        <FieldError id={`${ids}-part-error`}>{partError}</FieldError>
      </fieldset>
      {failure && <Alert tone="error">{failure.message}</Alert>}
      {joined && <Alert tone="success">{joined}</Alert>}
      <Button type="submit" isLoading={join.isPending} className="w-full sm:w-auto">
        Join the waitlist
      </Button>
    </form>
  );
}
