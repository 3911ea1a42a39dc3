import { useState } from 'react';
import {
  AVAILABILITY_POLICY,
  BOOKING_MSG,
  DEFAULT_TIME_ZONE,
  ZAvailabilityRequest,
  zoneLabel,
  type TAvailability,
  type TAvailabilityRequest,
  type TSessionLocationKind,
} from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useAvailability, useSaveAvailability } from '@/lib/api/bookings';
import { cn } from '@/lib/cn';
import { notify } from '@/lib/toast';
import { hoursFromRanges, rangeProblem, rangesFromHours, type HourRange } from '../utils/hour-ranges';
import { DateOverrides, type DraftOverride } from './date-overrides';
import { DayRanges } from './day-ranges';
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
const WORKDAYS = [1, 2, 3, 4, 5];

const LOCATION_CHOICES: { value: '' | TSessionLocationKind; label: string }[] = [
  { value: '', label: 'Not set' },
  { value: 'address', label: 'An address' },
  { value: 'client', label: 'At the client’s home' },
  { value: 'online', label: 'Online' },
];
const LOCATION_TEXT: Record<TSessionLocationKind, { label: string; hint: string }> = {
  address: { label: 'Address', hint: 'Where clients meet you, e.g. a gym’s name and street.' },
  client: { label: 'Area (optional)', hint: 'Where you travel to, e.g. Zamalek or Maadi.' },
  online: { label: 'Meeting link', hint: 'The link clients open, starting with https://' },
};

type Week = Record<number, HourRange[]>;
type Errors = Partial<Record<'timeZone' | 'weekly' | 'minNoticeHours' | 'bufferMinutes' | 'overrides' | 'location', string>>;

type Draft = {
  week: Week;
  timeZone: string;
  minNotice: string;
  buffer: number;
  overrides: DraftOverride[];
  locationKind: '' | TSessionLocationKind;
  locationText: string;
};

const draftFrom = (a: TAvailability): Draft => ({
  week: Object.fromEntries(a.weekly.map(({ weekday, hours }) => [weekday, rangesFromHours(hours)])),
  timeZone: a.timeZone || DEFAULT_TIME_ZONE,
  minNotice: String(a.minNoticeHours),
  buffer: a.bufferMinutes,
  overrides: a.overrides.map(({ date, hours }) => ({ date, ranges: rangesFromHours(hours) })),
  locationKind: a.location?.kind ?? '',
  locationText: a.location?.text ?? '',
});

/** The draft as PUT /api/trainer/availability takes it; a number field left empty stays a number the schema refuses. */
const requestFrom = (d: Draft): TAvailabilityRequest => ({
  timeZone: d.timeZone,
  weekly: WEEKDAYS.map(({ weekday }) => ({ weekday, hours: hoursFromRanges(d.week[weekday] ?? []) })).filter(
    (w) => w.hours.length > 0,
  ),
  minNoticeHours: d.minNotice.trim() === '' ? Number.NaN : Number(d.minNotice),
  bufferMinutes: d.buffer,
  overrides: d.overrides.map(({ date, ranges }) => ({ date, hours: hoursFromRanges(ranges) })),
  location: d.locationKind ? { kind: d.locationKind, text: d.locationText } : null,
});

/** The shared schema's messages, by the field they are shown next to. */
function errorsOf(request: TAvailabilityRequest): Errors {
  const parsed = ZAvailabilityRequest.safeParse(request);
  if (parsed.success) return {};
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof Errors;
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Every zone the browser knows, with the saved one kept even if this browser does not list it. */
function timeZonesWith(current: string) {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [DEFAULT_TIME_ZONE];
  return zones.includes(current) ? zones : [current, ...zones];
}

const safeZoneLabel = (zone: string) => {
  try {
    return zoneLabel(zone, new Date());
  } catch {
    return zone;
  }
};

const selectClass =
  'mt-1.5 min-h-11 w-full max-w-sm rounded-xl border border-line-strong bg-canvas px-3 text-ink focus-visible:outline-none focus-visible:ring-3 focus-visible:ring-accent-ink/40';

function Subsection({ title, description, children }: { title: string; description?: string; children: React.ReactNode }) {
  const id = `availability-part-${title.toLowerCase().replaceAll(/[^a-z]+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="space-y-3 border-t border-line pt-5 first:border-t-0 first:pt-0">
      <div>
        <h3 id={id} className="font-display text-lg font-bold text-ink">
          {title}
        </h3>
        {description && <p className="mt-0.5 text-sm text-muted">{description}</p>}
      </div>
      {children}
    </section>
  );
}

function AvailabilityForm({ availability }: { availability: TAvailability }) {
  const save = useSaveAvailability();
  const [draft, setDraft] = useState<Draft>(() => draftFrom(availability));
  const [errors, setErrors] = useState<Errors>({});
  const [isDirty, setIsDirty] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [copied, setCopied] = useState('');
  const [zones] = useState(() => timeZonesWith(draft.timeZone));

  const change = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setIsDirty(true);
    setSaved(null);
    setCopied('');
  };
  /** Checks one field against the shared schema once the person leaves it. */
  const recheck = (field: keyof Errors, next: Draft = draft) =>
    setErrors((e) => ({ ...e, [field]: errorsOf(requestFrom(next))[field] }));
  const setDay = (weekday: number, ranges: HourRange[]) => change({ week: { ...draft.week, [weekday]: ranges } });

  const copyToWeekdays = (weekday: number, name: string) => {
    const ranges = draft.week[weekday] ?? [];
    const week = { ...draft.week };
    for (const day of WORKDAYS) week[day] = ranges.map((r) => ({ ...r }));
    change({ week });
    setCopied(`${name}’s hours copied to Monday to Friday.`);
  };

  const hasRangeProblem =
    Object.values(draft.week).some((ranges) => ranges.some((r) => rangeProblem(r, ranges))) ||
    draft.overrides.some((o) => o.ranges.some((r) => rangeProblem(r, o.ranges)));

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const request = requestFrom(draft);
    const found = errorsOf(request);
    setErrors(found);
    if (hasRangeProblem) {
      setFailure('Fix the hours marked above, then save.');
      return;
    }
    if (Object.values(found).some(Boolean)) {
      setFailure('Check the fields marked above, then save.');
      return;
    }
    save.mutate(request, {
      onSuccess: (answer) => {
        notify.success(BOOKING_MSG.availabilitySaved);
        setSaved(BOOKING_MSG.availabilitySaved);
        setDraft(draftFrom(answer));
        setIsDirty(false);
      },
      onError: (error) => setFailure(errorMessage(error)),
    });
  };

  const weeklyHours = WEEKDAYS.reduce((n, { weekday }) => n + hoursFromRanges(draft.week[weekday] ?? []).length, 0);
  const locationText = draft.locationKind ? LOCATION_TEXT[draft.locationKind] : null;

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-6">
      <div>
        <label htmlFor="availability-time-zone" className="block text-sm font-semibold text-ink">
          Time zone
        </label>
        <select
          id="availability-time-zone"
          value={draft.timeZone}
          onChange={(event) => change({ timeZone: event.target.value })}
          aria-describedby="availability-time-zone-hint"
          className={selectClass}
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
            </option>
          ))}
        </select>
        <p id="availability-time-zone-hint" className="mt-1 text-sm text-subtle">
          {safeZoneLabel(draft.timeZone)}. Your hours are in this zone; clients see them in their own local time.
        </p>
        {errors.timeZone && <p className="mt-1 text-sm font-medium text-danger">{errors.timeZone}</p>}
      </div>

      <Subsection title="Weekly hours" description="Each range is one-hour sessions: 09:00–12:00 offers 09:00, 10:00 and 11:00.">
        <div className="space-y-3">
          {WEEKDAYS.map(({ weekday, name }) => {
            const ranges = draft.week[weekday] ?? [];
            const headingId = `availability-day-${weekday}`;
            const isOn = ranges.length > 0;
            return (
              <div key={weekday} role="group" aria-labelledby={headingId} className="rounded-xl border border-line p-3 sm:p-4">
                <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
                  <label className="flex min-h-11 cursor-pointer items-center gap-3">
                    <input
                      type="checkbox"
                      checked={isOn}
                      onChange={() => setDay(weekday, isOn ? [] : [{ start: 9, end: 17 }])}
                      aria-describedby={`${headingId}-state`}
                      className="size-5 accent-ink"
                    />
                    <span id={headingId} className="font-semibold text-ink">
                      {name}
                    </span>
                  </label>
                  <span id={`${headingId}-state`} className="text-sm text-subtle">
                    {isOn ? `${hoursFromRanges(ranges).length} h` : 'Unavailable'}
                  </span>
                </div>
                {isOn && <DayRanges label={name} ranges={ranges} onChange={(next) => setDay(weekday, next)} />}
                {isOn && (
                  <button
                    type="button"
                    aria-label={`Copy to weekdays from ${name}`}
                    onClick={() => copyToWeekdays(weekday, name)}
                    className="mt-2 min-h-11 rounded-full px-1 text-sm font-semibold text-accent-ink underline underline-offset-4 hover:text-ink"
                  >
                    Copy to weekdays
                  </button>
                )}
              </div>
            );
          })}
        </div>
        <p role="status" className="text-sm text-muted">
          {copied}
        </p>
      </Subsection>

      <Subsection title="Booking rules">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Minimum notice (hours)"
            type="number"
            inputMode="numeric"
            min={AVAILABILITY_POLICY.minNoticeHours.min}
            max={AVAILABILITY_POLICY.minNoticeHours.max}
            step={1}
            value={draft.minNotice}
            onChange={(event) => change({ minNotice: event.target.value })}
            onBlur={() => recheck('minNoticeHours')}
            hint={`Sessions sooner than this are not offered (${AVAILABILITY_POLICY.minNoticeHours.min}–${AVAILABILITY_POLICY.minNoticeHours.max} hours).`}
            error={errors.minNoticeHours}
          />
          <div>
            <label htmlFor="availability-buffer" className="block text-sm font-semibold text-ink">
              Buffer between sessions
            </label>
            <select
              id="availability-buffer"
              value={draft.buffer}
              onChange={(event) => change({ buffer: Number(event.target.value) })}
              aria-describedby="availability-buffer-hint"
              aria-invalid={errors.bufferMinutes ? true : undefined}
              className={selectClass}
            >
              {AVAILABILITY_POLICY.bufferMinutes.map((minutes) => (
                <option key={minutes} value={minutes}>
                  {minutes === 0 ? 'No buffer' : `${minutes} minutes`}
                </option>
              ))}
            </select>
            <p id="availability-buffer-hint" className="mt-1 text-sm text-subtle">
              Free time kept before and after each booked session.
            </p>
            {errors.bufferMinutes && <p className="mt-1 text-sm font-medium text-danger">{errors.bufferMinutes}</p>}
          </div>
        </div>
      </Subsection>

      <Subsection title="Date overrides" description="A day off, a holiday, or other hours on one date. Saved with the rest.">
        <DateOverrides
          overrides={draft.overrides}
          onChange={(overrides) => change({ overrides })}
          timeZone={draft.timeZone}
          error={errors.overrides}
        />
      </Subsection>

      <Subsection title="Place" description="Shown to clients when they book, on their session and in the mails.">
        <fieldset>
          <legend className="mb-1.5 block text-sm font-semibold text-ink">Where sessions take place</legend>
          <div className="flex flex-wrap gap-3">
            {LOCATION_CHOICES.map((choice) => (
              <label
                key={choice.value}
                className="flex min-h-11 cursor-pointer items-center gap-2.5 rounded-xl border border-line-strong px-4 has-[:checked]:border-ink has-[:checked]:bg-accent-soft has-[:focus-visible]:ring-3 has-[:focus-visible]:ring-accent-ink/40"
              >
                <input
                  type="radio"
                  name="availability-location-kind"
                  value={choice.value}
                  checked={draft.locationKind === choice.value}
                  onChange={() => {
                    change({ locationKind: choice.value });
                    setErrors((e) => ({ ...e, location: undefined }));
                  }}
                  className="size-4 accent-ink focus-visible:outline-none"
                />
                <span className="text-sm font-medium text-ink">{choice.label}</span>
              </label>
            ))}
          </div>
        </fieldset>
        {locationText && (
          <TextField
            label={locationText.label}
            value={draft.locationText}
            maxLength={AVAILABILITY_POLICY.locationTextMax + 50}
            onChange={(event) => change({ locationText: event.target.value })}
            onBlur={() => recheck('location')}
            hint={locationText.hint}
            error={errors.location}
            type={draft.locationKind === 'online' ? 'url' : 'text'}
            containerClassName="max-w-lg"
          />
        )}
      </Subsection>

      <FormError message={failure} />
      <div className={cn('flex flex-wrap items-center gap-4 border-t border-line pt-5')}>
        <Button type="submit" isLoading={save.isPending}>
          Save availability
        </Button>
        <p className="text-sm text-subtle">{weeklyHours === 1 ? '1 hour a week' : `${weeklyHours} hours a week`}</p>
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
  const a = availability.data;
  const isBookable = a.weekly.some((w) => w.hours.length > 0) || a.overrides.some((o) => o.hours.length > 0);
  return (
    <>
      {!isBookable && (
        <Alert tone="warning" title="Not bookable yet" isLive={false} className="mb-5">
          Clients can book you once you add your hours below and save.
        </Alert>
      )}
      <AvailabilityForm availability={a} />
    </>
  );
}

/**
 * Trainer settings (docs/product.md#booking-and-payment): weekly hours as ranges per day, the time zone,
 * the minimum notice and buffer, date overrides and the place, saved together with PUT.
 */
export function AvailabilitySection() {
  return (
    <SettingsSection
      id="availability"
      title="Availability"
      description="When and where you train clients. Clients book one-hour sessions up to 14 days ahead."
    >
      <AvailabilityBody />
    </SettingsSection>
  );
}
