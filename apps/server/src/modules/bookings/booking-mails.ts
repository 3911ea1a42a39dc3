import { buildIcs } from './ics';
import { fromCents } from '../../lib/money';
import type { Mail } from '../mail';

type BookingMailKind = 'confirmed' | 'reminder' | 'cancelled';

type BookingMailInput = {
  kind: BookingMailKind;
  /** Who the mail is for, and who the other side of the session is. */
  to: { email: string; firstName: string; role: 'user' | 'trainer' };
  other: { firstName: string; lastName: string };
  bookingId: string;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  priceCents: number;
  currency: string;
  /** Whether a cancelled session's payment went back. */
  refunded?: boolean;
  link: string;
  now: Date;
};

const NAME_MAX = 60;
/** A name as plain text: one line, no control characters, capped. */
export const plainName = (s: string) =>
  s
    .replace(/[\p{Cc}\u2028\u2029]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, NAME_MAX);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** "Tuesday, 24 November 2026 at 10:00 (Africa/Cairo)" */
function sessionTime(at: Date, timeZone: string) {
  const local = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `${local} (${timeZone})`;
}

/** The mail to one side of a booking, with the session as an .ics attachment. */
export function bookingMail(input: BookingMailInput): Mail {
  const firstName = plainName(input.to.firstName) || 'there';
  const other = plainName(`${input.other.firstName} ${input.other.lastName}`) || 'a Spotter member';
  const when = sessionTime(input.startsAt, input.timeZone);
  const price = `$${fromCents(input.priceCents).toFixed(2)}`;
  const forUser = input.to.role === 'user';
  const withWhom = forUser ? `your session with ${other}` : `the session ${other} booked with you`;
  const copy = {
    confirmed: {
      subject: forUser ? `Booked: your session with ${other}` : `New booking: ${other}`,
      intro: forUser
        ? `Your one-hour session with ${other} on ${when} is booked and paid (${price}).`
        : `${other} booked a one-hour session with you on ${when} and paid ${price}.`,
      outro:
        'The session is attached as a calendar file. It can be cancelled with a full refund until 24 hours before it starts.',
    },
    reminder: {
      subject: forUser ? `Tomorrow: your session with ${other}` : `Tomorrow: session with ${other}`,
      intro: `A reminder of ${withWhom} on ${when}.`,
      outro: 'The session is attached as a calendar file.',
    },
    cancelled: {
      subject: forUser ? `Cancelled: your session with ${other}` : `Cancelled: session with ${other}`,
      intro: `${withWhom[0].toUpperCase()}${withWhom.slice(1)} on ${when} is cancelled.${input.refunded ? ` The payment of ${price} is refunded.` : ''}`,
      outro: 'The attached calendar file removes it from your calendar. The slot is free again.',
    },
  }[input.kind];

  const ics = buildIcs({
    uid: `booking-${input.bookingId}@spotter`,
    start: input.startsAt,
    end: input.endsAt,
    summary: forUser ? `Training session with ${other}` : `Training session: ${other}`,
    description: `Spotter booking ${input.bookingId}. ${input.link}`,
    stamp: input.now,
    cancelled: input.kind === 'cancelled',
  });

  const text = `Hi ${firstName},\n\n${copy.intro}\n\nYour bookings: ${input.link}\n\n${copy.outro}\n\n— Spotter, find your personal trainer\n`;
  const html = `<!doctype html><html><body style="margin:0;background:#f4f6fa;font-family:Arial,Helvetica,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:22px;font-weight:bold;color:#0b1220">Spotter</td></tr>
<tr><td style="padding-top:16px;font-size:16px;line-height:1.5">Hi ${escapeHtml(firstName)},</td></tr>
<tr><td style="padding-top:8px;font-size:16px;line-height:1.5">${escapeHtml(copy.intro)}</td></tr>
<tr><td style="padding:24px 0"><a href="${escapeHtml(input.link)}" style="background:#c6f432;color:#0b1220;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">See my bookings</a></td></tr>
<tr><td style="font-size:13px;color:#475569;line-height:1.5">${escapeHtml(copy.outro)}</td></tr>
</table></td></tr></table></body></html>`;

  return {
    to: input.to.email,
    subject: copy.subject,
    text,
    html,
    links: [input.link],
    attachments: [
      {
        filename: 'session.ics',
        content: ics,
        contentType: `text/calendar; charset=utf-8; method=${input.kind === 'cancelled' ? 'CANCEL' : 'PUBLISH'}`,
      },
    ],
  };
}
