import { Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { hourLabel, nextRange, rangeProblem, rangesLabel, type HourRange } from '../utils/hour-ranges';

const STARTS = Array.from({ length: 24 }, (_, hour) => hour);
const ENDS = Array.from({ length: 24 }, (_, hour) => hour + 1);

const selectClass =
  'min-h-11 rounded-xl border bg-canvas px-3 text-base text-ink tabular-nums focus-visible:outline-none focus-visible:ring-3 focus-visible:ring-accent-ink/40';

type DayRangesProps = {
  /** Names the day or date in every control's label: 'Monday', '24 Dec 2026'. */
  label: string;
  ranges: HourRange[];
  onChange: (ranges: HourRange[]) => void;
};

/**
 * A day's ranges, each a 'from' and an 'until' hour and a remove button, and 'Add hours'. A range
 * that ends before it starts or overlaps another says so under itself (the form will not save it).
 */
export function DayRanges({ label, ranges, onChange }: DayRangesProps) {
  const baseId = useId();
  const next = nextRange(ranges);
  const update = (index: number, range: HourRange) => onChange(ranges.map((r, i) => (i === index ? range : r)));

  return (
    <div className="space-y-2">
      {ranges.length > 0 && (
        <ul className="space-y-2">
          {ranges.map((range, index) => {
            const problem = rangeProblem(range, ranges);
            const errorId = `${baseId}-${index}-error`;
            const name = `${label}, hours ${index + 1}`;
            return (
              <li key={index}>
                <div className="flex flex-wrap items-center gap-2">
                  <select
                    aria-label={`${name}, from`}
                    value={range.start}
                    onChange={(event) => update(index, { ...range, start: Number(event.target.value) })}
                    aria-invalid={problem ? true : undefined}
                    aria-describedby={problem ? errorId : undefined}
                    className={cn(selectClass, problem ? 'border-danger' : 'border-line-strong')}
                  >
                    {STARTS.map((hour) => (
                      <option key={hour} value={hour}>
                        {hourLabel(hour)}
                      </option>
                    ))}
                  </select>
                  <span aria-hidden="true" className="text-muted">
                    –
                  </span>
                  <select
                    aria-label={`${name}, until`}
                    value={range.end}
                    onChange={(event) => update(index, { ...range, end: Number(event.target.value) })}
                    aria-invalid={problem ? true : undefined}
                    aria-describedby={problem ? errorId : undefined}
                    className={cn(selectClass, problem ? 'border-danger' : 'border-line-strong')}
                  >
                    {ENDS.map((hour) => (
                      <option key={hour} value={hour}>
                        {hourLabel(hour)}
                      </option>
                    ))}
                  </select>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove ${rangesLabel([range])} on ${label}`}
                    title="Remove these hours"
                    onClick={() => onChange(ranges.filter((_, i) => i !== index))}
                  >
                    <Trash2 className="size-5" aria-hidden="true" />
                  </Button>
                </div>
                {problem && (
                  <p id={errorId} className="mt-1 text-sm font-medium text-danger">
                    {problem}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {next && (
        <Button variant="outline" aria-label={`Add hours to ${label}`} onClick={() => onChange([...ranges, next])}>
          <Plus className="size-4" aria-hidden="true" />
          Add hours
        </Button>
      )}
    </div>
  );
}
