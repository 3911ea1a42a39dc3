import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { cn } from '@/lib/cn';
import { defaultScheduleDay, SCHEDULE_DAYS, scheduleByDay, type ScheduleDay } from '../data/gym-schedule';

/** The Gym Schedule filtered by day: a tab per day (arrow keys move between them) and a table. */
export function GymSchedule() {
  const [day, setDay] = useState<ScheduleDay>(() => defaultScheduleDay());
  const baseId = useId();
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const tabId = (d: ScheduleDay) => `${baseId}-tab-${d}`;
  const panelId = `${baseId}-panel`;

  const onTabKeyDown = (event: KeyboardEvent, index: number) => {
    const last = SCHEDULE_DAYS.length - 1;
    const target =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (target === null) return;
    event.preventDefault();
    setDay(SCHEDULE_DAYS[target]);
    tabRefs.current[target]?.focus();
  };

  return (
    <section aria-labelledby="schedule-title" className="bg-surface">
      <div className="mx-auto w-full max-w-7xl px-4 py-20 sm:px-6">
        <div className="max-w-2xl">
          <p className="text-sm font-semibold tracking-wide text-accent-ink uppercase">Classes</p>
          <h2 id="schedule-title" className="mt-2 font-display text-3xl font-bold text-ink sm:text-4xl">
            Gym Schedule
          </h2>
          <p className="mt-3 text-lg text-muted">
            One-hour coached classes from 6 in the morning until midnight, Monday to Saturday. Sunday is for rest.
          </p>
        </div>

        <div role="tablist" aria-label="Day of the week" className="mt-8 grid grid-cols-3 gap-2 sm:flex sm:flex-wrap">
          {SCHEDULE_DAYS.map((d, index) => {
            const isSelected = d === day;
            return (
              <button
                key={d}
                ref={(node) => {
                  tabRefs.current[index] = node;
                }}
                type="button"
                role="tab"
                id={tabId(d)}
                aria-selected={isSelected}
                aria-controls={panelId}
                tabIndex={isSelected ? 0 : -1}
                onClick={() => setDay(d)}
                onKeyDown={(event) => onTabKeyDown(event, index)}
                className={cn(
                  'inline-flex min-h-11 items-center justify-center rounded-full border px-2 text-sm font-semibold transition-colors duration-150 sm:px-5',
                  isSelected ? 'border-ink bg-ink text-on-ink' : 'border-line-strong bg-canvas text-ink hover:bg-surface',
                )}
              >
                {d}
              </button>
            );
          })}
        </div>

        <div
          role="tabpanel"
          id={panelId}
          aria-labelledby={tabId(day)}
          tabIndex={0}
          className="mt-6 max-w-3xl overflow-hidden rounded-card border border-line bg-canvas"
        >
          <table className="w-full text-left">
            <caption className="border-b border-line px-5 py-4 text-left font-display text-lg font-semibold text-ink">
              Classes on {day}
            </caption>
            <thead className="bg-surface text-sm text-muted">
              <tr>
                <th scope="col" className="px-5 py-3 font-semibold">
                  Class
                </th>
                <th scope="col" className="px-5 py-3 font-semibold">
                  Time
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {scheduleByDay[day].map((slot) => (
                <tr key={slot.className}>
                  <th scope="row" className="px-5 py-3 font-display font-semibold text-ink">
                    {slot.className}
                  </th>
                  <td className="px-5 py-3 text-muted tabular-nums">{slot.time}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
