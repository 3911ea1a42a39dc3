import { useState } from 'react';
import { zoneCity, zoneLabel, zoneOffset } from '@spotter/shared';
import { browserTimeZone } from '@/lib/format';

type ZoneChoice = 'browser' | 'trainer';

/** Whether two zones show different clock times now (Africa/Cairo and Egypt do not). */
const differ = (a: string, b: string, at: Date) => a !== b && zoneOffset(a, at) !== zoneOffset(b, at);

/**
 * Which zone session times are shown in (docs/product.md#booking-and-payment): the browser's at first,
 * the trainer's after a switch. `zoneOf` gives the zone for a trainer's zone (each card has its own).
 */
export function useZoneChoice() {
  const [choice, setChoice] = useState<ZoneChoice>('browser');
  const browser = browserTimeZone();
  return {
    choice,
    setChoice,
    browser,
    zoneOf: (trainerZone: string) => (choice === 'trainer' ? trainerZone : browser),
  };
}

type ZoneSwitchProps = {
  /** The trainer's zone, or several (session cards of trainers in different zones). */
  trainerZones: string[];
  choice: ZoneChoice;
  onChoose: (choice: ZoneChoice) => void;
  className?: string;
};

/**
 * 'Times in Tokyo time, GMT+9' and, when the trainer's zone shows other clock times, a button to switch
 * between theirs and the browser's.
 */
export function ZoneSwitch({ trainerZones, choice, onChoose, className }: ZoneSwitchProps) {
  const now = new Date();
  const browser = browserTimeZone();
  const zones = [...new Set(trainerZones)];
  const others = zones.filter((zone) => differ(zone, browser, now));
  const single = zones.length === 1 ? zones[0] : undefined;
  let shown: string;
  if (choice === 'browser' || others.length === 0) shown = zoneLabel(browser, now);
  else if (single) shown = zoneLabel(single, now);
  else shown = 'each trainer’s time zone';
  let switchLabel = '';
  if (others.length > 0) {
    if (choice === 'trainer') switchLabel = `Show in your time (${zoneCity(browser)})`;
    else if (single) switchLabel = `Show in ${zoneCity(single)} time (the trainer’s)`;
    else switchLabel = 'Show in each trainer’s time';
  }
  return (
    <p className={className ?? 'flex flex-wrap items-center gap-x-2 text-sm text-muted'}>
      <span>
        Times in <span className="font-semibold text-ink">{shown}</span>
      </span>
      {switchLabel && (
        <button
          type="button"
          onClick={() => onChoose(choice === 'trainer' ? 'browser' : 'trainer')}
          className="min-h-11 rounded-full font-semibold text-ink underline underline-offset-4 hover:decoration-accent-ink"
        >
          {switchLabel}
        </button>
      )}
    </p>
  );
}
