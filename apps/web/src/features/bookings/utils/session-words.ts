import { cancellationPolicy, formatDateTimeIn, zoneCity, type TBooking } from '@spotter/shared';

/**
 * How a session's place, policy and calendar entry are written on the web (the booking dialog, the
 * confirmation and the session card), with the shared words of docs/product.md#booking-and-payment.
 */

type Place = NonNullable<TBooking['location']>;

/**
 * The place as a person reads it: the address, 'At your home', or 'Online meeting' with its link
 * (`href`) once the session is paid for (`showLink`).
 */
export function placeOf(location: Place | null, { showLink }: { showLink: boolean }): { text: string; href?: string } | null {
  if (!location) return null;
  if (location.kind === 'address') return { text: location.text };
  if (location.kind === 'client') return { text: location.text ? `At your home (${location.text})` : 'At your home' };
  return showLink && location.text ? { text: 'Online meeting', href: location.text } : { text: 'Online meeting' };
}

/** The place in one line of text (calendar entries): the address, 'At your home', or the meeting link. */
function placeLine(location: Place | null): string {
  if (!location) return '';
  if (location.kind === 'online') return location.text || 'Online meeting';
  return placeOf(location, { showLink: false })?.text ?? '';
}

/**
 * The cancellation line of a booking in `timeZone`: the server's deadline (`cancellableUntil`) when it
 * sends one, otherwise the session's own policy applied to the start ('Starts in less than 24 hours:
 * not refundable', with the hours frozen on it, docs/decisions/052-frozen-session-policy.md).
 */
export function policyText(
  booking: Pick<TBooking, 'startsAt' | 'cancellableUntil' | 'policy'>,
  timeZone: string,
  now = new Date(),
) {
  if (booking.cancellableUntil && Date.parse(booking.cancellableUntil) > now.getTime()) {
    return `Free cancellation until ${formatDateTimeIn(booking.cancellableUntil, timeZone)} (${zoneCity(timeZone)} time)`;
  }
  // an answer kept offline from before bookings carried their policy has none: today's hours
  return cancellationPolicy({ startsAt: booking.startsAt, now, timeZone, cancelHours: booking.policy?.cancelHours }).text;
}

const trainerNameOf = (booking: TBooking) => `${booking.trainerFirstName} ${booking.trainerLastName}`.trim();

/** 20301130T050000Z: a moment as calendars write it (UTC). */
const calendarStamp = (iso: string) =>
  new Date(iso)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

function calendarDetails(booking: TBooking) {
  return `One-hour session with ${trainerNameOf(booking)}, booked on Spotter. ${policyText(booking, booking.timeZone)}.`;
}

/** A Google Calendar 'add event' link for the session. */
export function googleCalendarUrl(booking: TBooking) {
  const fields = [
    ['action', 'TEMPLATE'],
    ['text', `Training session with ${trainerNameOf(booking)}`],
    ['dates', `${calendarStamp(booking.startsAt)}/${calendarStamp(booking.endsAt)}`],
    ['details', calendarDetails(booking)],
    ['location', placeLine(booking.location)],
  ];
  const query = fields.map(([key, value]) => `${key}=${key === 'dates' ? value : encodeURIComponent(value)}`).join('&');
  return `https://calendar.google.com/calendar/render?${query}`;
}

/** RFC 5545 text: backslash, semicolon, comma and newline escaped. */
const icsText = (value: string) => value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n');

/** The session as an .ics file (a data: address to download), as the booking mails attach it. */
export function icsHref(booking: TBooking, now = new Date()) {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Spotter//Sessions//EN',
    'BEGIN:VEVENT',
    `UID:${booking._id}@spotter`,
    `DTSTAMP:${calendarStamp(now.toISOString())}`,
    `DTSTART:${calendarStamp(booking.startsAt)}`,
    `DTEND:${calendarStamp(booking.endsAt)}`,
    `SUMMARY:${icsText(`Training session with ${trainerNameOf(booking)}`)}`,
    `DESCRIPTION:${icsText(calendarDetails(booking))}`,
    ...(booking.location ? [`LOCATION:${icsText(placeLine(booking.location))}`] : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `data:text/calendar;charset=utf-8,${encodeURIComponent(lines.join('\r\n'))}`;
}
