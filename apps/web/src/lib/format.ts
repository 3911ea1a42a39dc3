/** How the app writes numbers, money, dates and names: one place, so every screen agrees. */

const count = new Intl.NumberFormat('en-US');

export const formatCount = (n: number) => count.format(n);

const moneyFormats = new Map<number, Intl.NumberFormat>();

/** "$1,200"; whole dollars unless `fractionDigits` asks for cents ("$9.99"). */
export function formatPrice(amount: number, fractionDigits = 0) {
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

const moment = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** "5 Jan 2025" for a moment (an ISO timestamp); empty when the value is not a date. */
export function formatDate(iso: string) {
  const value = new Date(iso);
  return Number.isNaN(value.getTime()) ? '' : moment.format(value);
}

const calendarDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "18 September 2025" for a calendar date (yyyy-mm-dd), read and shown in UTC so it never shifts a day. */
export const formatCalendarDate = (isoDate: string) => calendarDay.format(new Date(`${isoDate}T00:00:00Z`));

/** "MA" for ('Mona', 'Adel'): the first letter of each name given. */
export const initials = (...names: string[]) =>
  names
    .map((name) => name.trim().charAt(0))
    .join('')
    .toUpperCase();

/** Spec section 9: phones are shown with the (+2) prefix. */
export const formatPhone = (phone: string) => `(+2) ${phone}`;
