import { formatDayHeading, localDayKey } from '@/lib/format';

type SlotDay = { key: string; heading: string; slots: string[] };

/** The server's slots (UTC start times, soonest first) grouped by the viewer's local calendar day. */
export function groupSlotsByLocalDay(slots: string[]): SlotDay[] {
  const days: SlotDay[] = [];
  const sorted = [...slots].sort((a, b) => Date.parse(a) - Date.parse(b));
  for (const slot of sorted) {
    const key = localDayKey(slot);
    const last = days.at(-1);
    if (last?.key === key) last.slots.push(slot);
    else days.push({ key, heading: formatDayHeading(slot), slots: [slot] });
  }
  return days;
}
