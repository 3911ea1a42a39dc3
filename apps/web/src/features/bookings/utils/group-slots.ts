import { formatDayHeading, localDayKey } from '@/lib/format';

type SlotDay = { key: string; heading: string; slots: string[] };

/**
 * The server's slots (UTC start times, soonest first) grouped by calendar day in the viewer's time
 * zone, or in `timeZone` (the trainer's, when the person switches to it).
 */
export function groupSlotsByLocalDay(slots: string[], timeZone?: string): SlotDay[] {
  const days: SlotDay[] = [];
  const sorted = [...slots].sort((a, b) => Date.parse(a) - Date.parse(b));
  for (const slot of sorted) {
    const key = localDayKey(slot, timeZone);
    const last = days.at(-1);
    if (last?.key === key) last.slots.push(slot);
    else days.push({ key, heading: formatDayHeading(slot, timeZone), slots: [slot] });
  }
  return days;
}
