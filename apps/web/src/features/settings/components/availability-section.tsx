import { useState } from 'react';
import { BOOKING_MSG, DEFAULT_TIME_ZONE, type TAvailability } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useAvailability, useSaveAvailability } from '@/lib/api/bookings';
import { cn } from '@/lib/cn';
import { notify } from '@/lib/toast';
import { FormError, SavedNote } from './form-feedback';
import { SettingsSection } from './settings-section';

/** Monday first, as a trainer plans a week; the numbers are JavaScript's (0 = Sunday), as the server takes them. */
const WEEKDAYS = [
  { weekday: 1, name: 'Monday' },
  { weekday: 2, name: 'Tuesday' },
  { weekday: 3, name: 'Wednesday' },
  { weekday: 4, name: 'Thursday' },
  { weekday: 5, name: 'Friday' },
  { weekday: 6, name: 'Saturday' },
  { weekday: 0, name: 'Sunday' },
] as const;
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

type Week = Record<number, number[]>;

const weekFrom = (availability: TAvailability): Week =>
  Object.fromEntries(availability.weekly.map(({ weekday, hours }) => [weekday, [...hours].sort((a, b) => a - b)]));

/** Every zone the browser knows, with the saved one kept even if this browser does not list it. */
function timeZonesWith(current: string) {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [DEFAULT_TIME_ZONE];
  return zones.includes(current) ? zones : [current, ...zones];
}

function AvailabilityForm({ availability }: { availability: TAvailability }) {
  const save = useSaveAvailability();
  const [week, setWeek] = useState<Week>(() => weekFrom(availability));
  const [timeZone, setTimeZone] = useState(availability.timeZone || DEFAULT_TIME_ZONE);
  const [isDirty, setIsDirty] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [zones] = useState(() => timeZonesWith(availability.timeZone || DEFAULT_TIME_ZONE));

  const change = (next: Week) => {
    setWeek(next);
    setIsDirty(true);
    setSaved(null);
  };

  const toggle = (weekday: number, hour: number) => {
    const hours = week[weekday] ?? [];
    const next = hours.includes(hour) ? hours.filter((h) => h !== hour) : [...hours, hour].sort((a, b) => a - b);
    change({ ...week, [weekday]: next });
  };

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const weekly = WEEKDAYS.map(({ weekday }) => ({ weekday, hours: week[weekday] ?? [] })).filter((day) => day.hours.length > 0);
    save.mutate(
      { timeZone, weekly },
      {
        onSuccess: (answer) => {
          notify.success(BOOKING_MSG.availabilitySaved);
          setSaved(BOOKING_MSG.availabilitySaved);
          setWeek(weekFrom(answer));
          setTimeZone(answer.timeZone);
          setIsDirty(false);
        },
        onError: (error) => setFailure(errorMessage(error)),
      },
    );
  };

  const total = Object.values(week).reduce((n, hours) => n + hours.length, 0);

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      <div>
        <label htmlFor="availability-time-zone" className="block text-sm font-semibold text-ink">
          Time zone
        </label>
        <select
          id="availability-time-zone"
          value={timeZone}
          onChange={(event) => {
            setTimeZone(event.target.value);
            setIsDirty(true);
            setSaved(null);
          }}
          aria-describedby="availability-time-zone-hint"
          className="mt-1.5 min-h-11 w-full max-w-sm rounded-xl border border-line-strong bg-canvas px-3 text-ink"
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
            </option>
          ))}
        </select>
        <p id="availability-time-zone-hint" className="mt-1 text-sm text-subtle">
          The hours below are in this zone; clients see them in their own local time.
        </p>
      </div>

      <div className="space-y-4">
        {WEEKDAYS.map(({ weekday, name }) => {
          const hours = week[weekday] ?? [];
          const headingId = `availability-day-${weekday}`;
          return (
            <div key={weekday} role="group" aria-labelledby={headingId} className="rounded-xl border border-line p-3 sm:p-4">
              <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
                <h3 id={headingId} className="font-semibold text-ink">
                  {name}
                </h3>
                <div className="flex items-center gap-3">
                  <span className="text-sm text-subtle">{hours.length === 0 ? 'Not available' : `${hours.length} h`}</span>
                  {hours.length > 0 && (
                    <button
                      type="button"
                      onClick={() => change({ ...week, [weekday]: [] })}
                      className="min-h-11 rounded-full px-3 text-sm font-semibold text-muted underline underline-offset-4 hover:text-ink"
                    >
                      Clear {name}
                    </button>
                  )}
                </div>
              </div>
              <div className="grid grid-cols-4 gap-1.5 sm:grid-cols-6 lg:grid-cols-8">
                {HOURS.map((hour) => {
                  const isOn = hours.includes(hour);
                  return (
                    <button
                      key={hour}
                      type="button"
                      aria-pressed={isOn}
                      aria-label={`${name} ${hourLabel(hour)}`}
                      onClick={() => toggle(weekday, hour)}
                      className={cn(
                        'min-h-11 rounded-lg border text-sm font-semibold tabular-nums transition-colors duration-150',
                        isOn
                          ? 'border-ink bg-accent text-ink'
                          : 'border-line bg-canvas text-muted hover:border-line-strong hover:text-ink',
                      )}
                    >
                      {hourLabel(hour)}
                    </button>
                  );
                })}
              </div>
            </div>
          );
        })}
      </div>

      <FormError message={failure} />
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" isLoading={save.isPending}>
          Save availability
        </Button>
        <p className="text-sm text-subtle">{total === 1 ? '1 hour a week' : `${total} hours a week`}</p>
        <SavedNote message={isDirty ? null : saved} />
      </div>
    </form>
  );
}

function AvailabilityBody() {
  const availability = useAvailability();
  if (availability.isPending) {
    return (
      <div aria-busy="true">
        <span role="status" className="sr-only">
          Loading your availability…
        </span>
        <Skeleton className="h-11 w-full max-w-sm" />
        <Skeleton className="mt-5 h-40 w-full" />
      </div>
    );
  }
  if (availability.isError) {
    return (
      <Alert
        tone="error"
        title="Could not load your availability"
        action={
          <Button variant="outline" onClick={() => void availability.refetch()} isLoading={availability.isFetching}>
            Retry
          </Button>
        }
      >
        {errorMessage(availability.error)}
      </Alert>
    );
  }
  return <AvailabilityForm availability={availability.data} />;
}

/** Trainer settings: the one-hour start times offered each weekday, and their time zone (docs/product.md#booking-and-payment). */
export function AvailabilitySection() {
  return (
    <SettingsSection
      id="availability"
      title="Availability"
      description="Choose the hours you train clients each week. Clients book these one-hour slots up to 14 days ahead."
    >
      <AvailabilityBody />
    </SettingsSection>
  );
}
