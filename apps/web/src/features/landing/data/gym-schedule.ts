/** The Gym Schedule of docs/product.md#limits. */
export const SCHEDULE_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export type ScheduleDay = (typeof SCHEDULE_DAYS)[number];
type ScheduleSlot = { className: string; time: string };

/** One-hour slots from 06AM to midnight; both day groups share this list (docs/product.md#limits). */
const slots: ScheduleSlot[] = [
  { className: 'Deadlift', time: '06-07AM' },
  { className: 'Back squat', time: '07-08AM' },
  { className: 'Bench Press', time: '08-09AM' },
  { className: 'Dumbbell', time: '09-10AM' },
  { className: 'Pushups', time: '11AM-12PM' },
  { className: 'Chest', time: '5-6PM' },
  { className: 'Kettlebell', time: '6-7PM' },
  { className: 'Pullup', time: '7-8PM' },
  { className: 'Biceps', time: '8-9PM' },
  { className: 'Triceps', time: '9-10PM' },
  { className: 'Legs', time: '11PM-12AM' },
];

const mondayWednesdayFriday = slots;
const tuesdayThursdaySaturday = slots;

export const scheduleByDay: Record<ScheduleDay, ScheduleSlot[]> = {
  Monday: mondayWednesdayFriday,
  Tuesday: tuesdayThursdaySaturday,
  Wednesday: mondayWednesdayFriday,
  Thursday: tuesdayThursdaySaturday,
  Friday: mondayWednesdayFriday,
  Saturday: tuesdayThursdaySaturday,
};

/** Today's day when the gym is open (Monday to Saturday), Monday on Sundays. */
export function defaultScheduleDay(date = new Date()): ScheduleDay {
  const index = date.getDay(); // 0 is Sunday
  return index === 0 ? 'Monday' : SCHEDULE_DAYS[index - 1];
}
