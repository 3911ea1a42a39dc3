import { Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { ZIsoDate } from '@spotter/shared';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { formatCalendarDate } from '@/lib/format';
import { rangeProblem, rangesLabel, type HourRange } from '../utils/hour-ranges';
import { DayRanges } from './day-ranges';

/** One date with its own hours; no ranges is a day off. */
export type DraftOverride = { date: string; ranges: HourRange[] };

/** Today's date (YYYY-MM-DD) in the zone, where overrides start. */
function todayIn(timeZone: string, now = new Date()) {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

type DateOverridesProps = {
  overrides: DraftOverride[];
  onChange: (overrides: DraftOverride[]) => void;
  timeZone: string;
  /** The server's word on the overrides, after a failed save. */
  error?: string;
};

/**
 * Date overrides (a day off, a holiday, extra hours on one date): add a date as 'Unavailable' or with
 * its own ranges; the list shows each, soonest first, with Remove. A date added twice keeps the last.
 */
export function DateOverrides({ overrides, onChange, timeZone, error }: DateOverridesProps) {
  const radioName = useId();
  const [date, setDate] = useState('');
  const [isOff, setIsOff] = useState(true);
  const [ranges, setRanges] = useState<HourRange[]>([{ start: 9, end: 17 }]);
  const [dateError, setDateError] = useState<string | undefined>();
  const [rangesError, setRangesError] = useState<string | undefined>();
  const today = todayIn(timeZone);

  const add = () => {
    const parsed = ZIsoDate.safeParse(date);
    if (!parsed.success) {
      setDateError(parsed.error.issues[0]?.message);
      return;
    }
    if (date < today) {
      setDateError('Choose today or a later date');
      return;
    }
    setDateError(undefined);
    const chosen = isOff ? [] : ranges;
    if (!isOff && (chosen.length === 0 || chosen.some((r) => rangeProblem(r, chosen)))) {
      setRangesError(chosen.length === 0 ? 'Add hours, or choose Unavailable' : 'Fix the hours above first');
      return;
    }
    setRangesError(undefined);
    const next = [...overrides.filter((o) => o.date !== date), { date, ranges: chosen }].sort((a, b) =>
      a.date.localeCompare(b.date),
    );
    onChange(next);
    setDate('');
  };

  return (
    <div className="space-y-4">
      <div role="group" aria-labelledby={`${radioName}-add`} className="space-y-3 rounded-xl border border-line p-3 sm:p-4">
        <h4 id={`${radioName}-add`} className="font-semibold text-ink">
          Add a date
        </h4>
        <TextField
          label="Date"
          type="date"
          min={today}
          value={date}
          onChange={(event) => {
            setDate(event.target.value);
            setDateError(undefined);
          }}
          error={dateError}
          containerClassName="max-w-xs"
        />
        <fieldset>
          <legend className="mb-1.5 block text-sm font-semibold text-ink">On that date</legend>
          <div className="flex flex-wrap gap-3">
            {[
              { value: true, label: 'Unavailable' },
              { value: false, label: 'Available at these hours' },
            ].map((option) => (
              <label
                key={option.label}
                className="flex min-h-11 cursor-pointer items-center gap-2.5 rounded-xl border border-line-strong px-4 has-[:checked]:border-ink has-[:checked]:bg-accent-soft has-[:focus-visible]:ring-3 has-[:focus-visible]:ring-accent-ink/40"
              >
                <input
                  type="radio"
                  name={radioName}
                  checked={isOff === option.value}
                  onChange={() => {
                    setIsOff(option.value);
                    setRangesError(undefined);
                  }}
                  className="size-4 accent-ink focus-visible:outline-none"
                />
                <span className="text-sm font-medium text-ink">{option.label}</span>
              </label>
            ))}
          </div>
        </fieldset>
        {!isOff && <DayRanges label="the date" ranges={ranges} onChange={setRanges} />}
        {rangesError && <p className="text-sm font-medium text-danger">{rangesError}</p>}
        <Button variant="secondary" onClick={add}>
          Add date
        </Button>
      </div>

      {overrides.length === 0 ? (
        <p className="text-sm text-subtle">No dates with their own hours.</p>
      ) : (
        <ul aria-label="Dates with their own hours" className="divide-y divide-line rounded-xl border border-line">
          {overrides.map((o) => {
            const day = formatCalendarDate(o.date);
            return (
              <li key={o.date} className="flex flex-wrap items-center justify-between gap-2 px-4 py-2">
                <span className="text-sm text-ink">
                  <span className="font-semibold">{day}</span>: {o.ranges.length === 0 ? 'Unavailable' : rangesLabel(o.ranges)}
                </span>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove ${day}`}
                  title="Remove this date"
                  onClick={() => onChange(overrides.filter((x) => x.date !== o.date))}
                >
                  <Trash2 className="size-5" aria-hidden="true" />
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {error && <p className="text-sm font-medium text-danger">{error}</p>}
    </div>
  );
}
