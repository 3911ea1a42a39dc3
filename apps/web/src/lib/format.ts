/** How the app writes numbers, money, dates and names: one place, so every screen agrees. */

/**
 * A value made on first use. The first Intl formatter a page creates costs 75–130 ms of one core on
 * this project's 2-core machine (V8 sets up ICU's number and date data then; four times that on
 * Lighthouse's phone), so none is made while a module loads, and the common cases below need none.
 */
function onFirstUse<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const count = onFirstUse(() => new Intl.NumberFormat('en-US'));

/** A whole number of at most 15 digits as en-US writes it ("1,234,567"), without Intl; undefined otherwise. */
function groupedDigits(n: number): string | undefined {
  if (!Number.isInteger(n) || Math.abs(n) >= 1e15 || Object.is(n, -0)) return undefined;
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

export const formatCount = (n: number) => groupedDigits(n) ?? count().format(n);

const moneyFormats = new Map<number, Intl.NumberFormat>();

/** "$1,200"; whole dollars unless `fractionDigits` asks for cents ("$9.99"). */
export function formatPrice(amount: number, fractionDigits = 0) {
  // whole dollars, the list's and the profile's prices, as Intl writes them ("$1,200", "-$5")
  const whole = fractionDigits === 0 ? groupedDigits(amount) : undefined;
  if (whole !== undefined) return whole.startsWith('-') ? `-$${whole.slice(1)}` : `$${whole}`;
  let format = moneyFormats.get(fractionDigits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    moneyFormats.set(fractionDigits, format);
  }
  return format.format(amount);
}

/** "4.8"; averages are shown with one decimal. */
export const formatRating = (rating: number) => rating.toFixed(1);

/** "1 review", "1,024 reviews". */
export const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

const moment = onFirstUse(() => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }));

/** "5 Jan 2025" for a moment (an ISO timestamp); empty when the value is not a date. */
export function formatDate(iso: string) {
  const value = new Date(iso);
  return Number.isNaN(value.getTime()) ? '' : moment().format(value);
}

const calendarDay = onFirstUse(
  () => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }),
);

/** "18 Sep 2025" (the same format as `formatDate`) for a calendar date (yyyy-mm-dd), read in UTC so it never shifts a day. */
export const formatCalendarDate = (isoDate: string) => calendarDay().format(new Date(`${isoDate}T00:00:00Z`));

/** "MA" for ('Mona', 'Adel'): the first letter of each name given. */
export const initials = (...names: string[]) =>
  names
    .map((name) => name.trim().charAt(0))
    .join('')
    .toUpperCase();

/** docs/product.md#limits: phones are shown with the (+2) prefix. */
export const formatPhone = (phone: string) => `(+2) ${phone}`;

/*
 * Session times are shown in the viewer's own time zone (the browser's) unless a `timeZone` (IANA) is
 * given, such as the trainer's (docs/product.md#booking-and-payment: times name their zone), so the
 * formats are made per call: a time zone change (travel, tests) shows at once.
 */
const local = (options: Intl.DateTimeFormatOptions, timeZone?: string) =>
  new Intl.DateTimeFormat('en-GB', timeZone ? { ...options, timeZone } : options);

/** The browser's time zone (IANA), such as 'Africa/Cairo'. */
export const browserTimeZone = () => new Intl.DateTimeFormat().resolvedOptions().timeZone;

/** "2025-07-14": the calendar day of a moment in the viewer's time zone (or `timeZone`), for grouping. */
export const localDayKey = (iso: string, timeZone?: string) =>
  new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).format(new Date(iso));

/** "Monday 14 July" in the viewer's time zone (or `timeZone`). */
export const formatDayHeading = (iso: string, timeZone?: string) =>
  local({ weekday: 'long', day: 'numeric', month: 'long' }, timeZone).format(new Date(iso));

/** "09:00" in the viewer's time zone (or `timeZone`). */
export const formatTime = (iso: string, timeZone?: string) =>
  local({ hour: '2-digit', minute: '2-digit' }, timeZone).format(new Date(iso));

/** "Mon 14 Jul 2025, 09:00" in the viewer's time zone (or `timeZone`). */
export const formatDateTime = (iso: string, timeZone?: string) =>
  local(
    { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' },
    timeZone,
  ).format(new Date(iso));

/** "Tue 07:00": a moment within the next two weeks (the next free slot), in the viewer's time zone (or `timeZone`). */
export const formatWeekdayTime = (iso: string, timeZone?: string) =>
  `${local({ weekday: 'short' }, timeZone).format(new Date(iso))} ${formatTime(iso, timeZone)}`;

/**
 * How long ago a message came, as the inbox shows it (docs/product.md#inbox: 'N min'): minutes for the
 * first hour, then hours, then days; '0 min' for just now (or a clock slightly ahead).
 */
export function formatMessageAge(iso: string, now: number = Date.now()) {
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return '';
  const minutes = Math.max(0, Math.floor((now - at) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

const messageTime = onFirstUse(
  () => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }),
);

/** "10 Jan, 14:05": when a chat message was sent, in the reader's time zone. */
export function formatMessageTime(iso: string) {
  const value = new Date(iso);
  return Number.isNaN(value.getTime()) ? '' : messageTime().format(value);
}
