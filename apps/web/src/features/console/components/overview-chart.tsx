import { useId } from 'react';

/** One measure drawn per day: its name, its colour (a Tailwind fill and stroke) and how its values are written. */
export type ChartSeries = {
  key: string;
  label: string;
  /** Its colour as a bar's `fill-…` and a line's `stroke-…` class, 3:1 or more on white (WCAG 1.4.11). */
  tone: { fill: string; stroke: string };
  /** A line's dashes, so lines differ by more than their colour. */
  dash?: string;
  values: number[];
};

type DayChartProps = {
  title: string;
  /** The days, oldest first, as YYYY-MM-DD (UTC). */
  days: string[];
  series: ChartSeries[];
  kind: 'bars' | 'lines';
  format: (value: number) => string;
};

const WIDTH = 600;
const HEIGHT = 180;
const dayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** A UTC day (YYYY-MM-DD) as the console writes it: "7 Dec". */
export const formatDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

/** The top of the scale: the largest value, rounded up to a round number (at least 1). */
function scaleTop(max: number) {
  if (max <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  const top = Math.ceil(max / step) * step;
  return Math.max(top, 1);
}

/** What a screen reader hears of the chart: each series' sum and its busiest day. */
function summaryOf({ title, days, series, format }: DayChartProps) {
  const parts = series.map((s) => {
    const total = s.values.reduce((sum, v) => sum + v, 0);
    const max = Math.max(0, ...s.values);
    if (max === 0) return `${s.label}: ${format(0)} in all`;
    const busiest = days[s.values.indexOf(max)];
    return `${s.label}: ${format(total)} in all, most on ${formatDay(busiest)} (${format(max)})`;
  });
  return `${title}, ${formatDay(days[0])} to ${formatDay(days.at(-1)!)}. ${parts.join('; ')}.`;
}

/**
 * A chart of measures per day, hand-drawn in SVG so the console carries no chart library: it scales to
 * its box's width, says what it shows in its `aria-label`, and "Show as table" gives every number.
 */
export function DayChart(props: DayChartProps) {
  const { title, days, series, kind, format } = props;
  const headingId = useId();
  const all = series.flatMap((s) => s.values);
  const top = scaleTop(Math.max(0, ...all));
  // below zero only when a value is (a day whose refunds gave back more fees than it took)
  const low = Math.min(0, ...all);
  const bottom = low < 0 ? -scaleTop(-low) : 0;
  const slot = WIDTH / Math.max(days.length, 1);
  const y = (value: number) => HEIGHT - ((value - bottom) / (top - bottom)) * HEIGHT;

  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-2xl border border-line bg-canvas p-4 sm:p-5">
      <h2 id={headingId} className="font-display text-lg font-bold text-ink">
        {title}
      </h2>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted" aria-hidden="true">
        {series.map((s) => (
          <li key={s.key} className="flex items-center gap-1.5">
            <svg viewBox="0 0 16 8" className="h-2 w-4" focusable="false">
              {kind === 'bars' ? (
                <rect width="16" height="8" className={s.tone.fill} />
              ) : (
                <line x1="0" y1="4" x2="16" y2="4" strokeWidth="2.5" strokeDasharray={s.dash} className={s.tone.stroke} />
              )}
            </svg>
            {s.label}
          </li>
        ))}
      </ul>
      <div className="mt-3 flex gap-2">
        <div className="flex flex-col justify-between text-right text-xs text-subtle" aria-hidden="true">
          <span>{format(top)}</span>
          <span>{format(bottom)}</span>
        </div>
        <div className="min-w-0 flex-1">
          <svg
            role="img"
            aria-label={summaryOf(props)}
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            preserveAspectRatio="none"
            className="block h-40 w-full overflow-visible sm:h-48"
            focusable="false"
          >
            <line x1="0" y1={y(0)} x2={WIDTH} y2={y(0)} className="stroke-line-strong" strokeWidth="1" />
            <line x1="0" y1="0" x2={WIDTH} y2="0" className="stroke-line" strokeWidth="1" strokeDasharray="4 4" />
            {kind === 'bars'
              ? series.map((s, index) => {
                  const barWidth = (slot * 0.8) / series.length;
                  return s.values.map((value, day) =>
                    value > 0 ? (
                      <rect
                        key={`${s.key}-${days[day]}`}
                        x={day * slot + slot * 0.1 + index * barWidth}
                        y={y(value)}
                        width={barWidth}
                        height={y(0) - y(value)}
                        className={s.tone.fill}
                      />
                    ) : null,
                  );
                })
              : series.map((s) => (
                  <polyline
                    key={s.key}
                    points={s.values.map((value, day) => `${day * slot + slot / 2},${y(value)}`).join(' ')}
                    fill="none"
                    strokeWidth="2.5"
                    strokeLinejoin="round"
                    strokeDasharray={s.dash}
                    vectorEffect="non-scaling-stroke"
                    className={s.tone.stroke}
                  />
                ))}
          </svg>
          <div className="mt-1 flex justify-between text-xs text-subtle" aria-hidden="true">
            <span>{formatDay(days[0])}</span>
            <span>{formatDay(days.at(-1)!)}</span>
          </div>
        </div>
      </div>
      <details className="mt-3 text-sm">
        <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-ink underline underline-offset-4">
          Show as table
        </summary>
        <div
          role="region"
          aria-label={`${title}, by day`}
          tabIndex={0}
          className="mt-2 max-h-80 overflow-auto rounded-xl border border-line"
        >
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{`${title}, by day`}</caption>
            <thead className="sticky top-0 bg-surface text-xs text-muted uppercase">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Day
                </th>
                {series.map((s) => (
                  <th key={s.key} scope="col" className="px-3 py-2 text-right font-semibold">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((day, index) => (
                <tr key={day} className="border-t border-line">
                  <th scope="row" className="px-3 py-1.5 font-normal whitespace-nowrap">
                    <time dateTime={day}>{formatDay(day)}</time>
                  </th>
                  {series.map((s) => (
                    <td key={s.key} className="px-3 py-1.5 text-right tabular-nums">
                      {format(s.values[index])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
