import { cancellationPolicy, formatDateTimeIn, zoneLabel, type TSessionLocation } from '@spotter/shared';
import { buildIcs } from './ics';
import { fromCents } from '../../lib/money';
import type { Mail } from '../mail';

type BookingMailKind = 'confirmed' | 'reminder' | 'cancelled' | 'moved' | 'offered' | 'refunded';

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
  /** A cancelled session paid from a package: its value is back in the user's balance. */
  toBalance?: boolean;
  /** An operator's refund: how much, why, and whether it was all of it and cancelled an upcoming session. */
  refundCents?: number;
  refundReason?: string;
  refundCancelled?: boolean;
  /** Where the session takes place (null: never set). */
  location: TSessionLocation | null;
  /** Its frozen policy's hours to cancel for a refund (docs/decisions/052-frozen-session-policy.md). */
  cancelHours: number;
  /** An offered slot (the waitlist's): until when it is held. */
  holdExpiresAt?: Date | null;
  /** A moved session: its start before the move. */
  movedFrom?: Date;
  /** The session's calendar SEQUENCE (raised by each move; a cancellation's file is one higher). */
  sequence?: number;
  /** Who cancelled a cancelled session, and the trainer's reason. */
  cancelledBy?: 'user' | 'trainer' | null;
  cancelReason?: string | null;
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

/** 'Mon 30 Nov, 07:00 (Cairo time, GMT+2)': the shared words (packages/shared/src/booking-policy.ts). */
function sessionTime(at: Date, timeZone: string) {
  return `${formatDateTimeIn(at, timeZone)} (${zoneLabel(timeZone, at)})`;
}

const REASON_MAX = 500;

/** The place as people read it: the address, 'At the client’s home (area)', 'Online: <link>'. */
function placeText(location: TSessionLocation | null): string | undefined {
  if (!location) return undefined;
  const text = location.text.replace(/[\p{Cc}\u2028\u2029]/gu, ' ').trim();
  if (location.kind === 'client') return text ? `At the client’s home (${text})` : 'At the client’s home';
  if (location.kind === 'online') return `Online: ${text}`;
  return text;
}

/** The mail to one side of a booking, with the session as an .ics attachment. */
export function bookingMail(input: BookingMailInput): Mail {
  const firstName = plainName(input.to.firstName) || 'there';
  const other = plainName(`${input.other.firstName} ${input.other.lastName}`) || 'a Spotter member';
  const when = sessionTime(input.startsAt, input.timeZone);
  const price = `$${fromCents(input.priceCents).toFixed(2)}`;
  const forUser = input.to.role === 'user';
  const withWhom = forUser ? `your session with ${other}` : `the session ${other} booked with you`;
  const place = placeText(input.location);
  const placeLine = place ? ` Place: ${place}.` : '';
  // the same words as the booking dialog and the session card (docs/product.md#booking-and-payment)
  const policy = cancellationPolicy({
    startsAt: input.startsAt,
    now: input.now,
    timeZone: input.timeZone,
    cancelHours: input.cancelHours,
  }).text;
  const byTrainer = input.cancelledBy === 'trainer';
  // the trainer's reason as one line of plain text
  const why = (input.cancelReason ?? '')
    .replace(/[\p{Cc}\u2028\u2029]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, REASON_MAX);
  const refunded = `$${fromCents(input.refundCents ?? 0).toFixed(2)}`;
  const refundWhy = (input.refundReason ?? '')
    .replace(/[\p{Cc}\u2028\u2029]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, REASON_MAX);
  const cancelledIntro = byTrainer
    ? forUser
      ? `${other} cancelled your session on ${when}.${why ? ` Reason: ${why}.` : ''} ${input.toBalance ? `Its ${price} is back in your package balance.` : `The payment of ${price} is refunded in full.`}`
      : `You cancelled the session ${other} booked with you on ${when}.${why ? ` Reason: ${why}.` : ''} ${input.toBalance ? `Its ${price} went back to the client’s package balance.` : `${other} is refunded in full (${price}).`}`
    : `${withWhom[0].toUpperCase()}${withWhom.slice(1)} on ${when} is cancelled.${input.refunded ? ` The payment of ${price} is refunded.` : ''}${input.toBalance ? (forUser ? ` Its ${price} is back in your package balance.` : ` Its ${price} went back to the client’s package balance.`) : ''}`;
  const copy = {
    confirmed: {
      subject: forUser ? `Booked: your session with ${other}` : `New booking: ${other}`,
      intro: forUser
        ? `Your one-hour session with ${other} on ${when} is booked and paid (${price}).${placeLine}`
        : `${other} booked a one-hour session with you on ${when} and paid ${price}.${placeLine}`,
      outro: `The session is attached as a calendar file. ${policy}.`,
    },
    reminder: {
      subject: forUser ? `Tomorrow: your session with ${other}` : `Tomorrow: session with ${other}`,
      intro: `A reminder of ${withWhom} on ${when}.${placeLine}`,
      outro: 'The session is attached as a calendar file.',
    },
    moved: {
      subject: forUser ? `Moved: your session with ${other}` : `Moved: session with ${other}`,
      intro: forUser
        ? `Your session with ${other}${input.movedFrom ? ` on ${sessionTime(input.movedFrom, input.timeZone)}` : ''} is moved to ${when}.${placeLine}`
        : `${other} moved the session booked with you${input.movedFrom ? ` on ${sessionTime(input.movedFrom, input.timeZone)}` : ''} to ${when}.${placeLine}`,
      outro: `The attached calendar file moves it in your calendar. ${policy}.`,
    },
    offered: {
      subject: `A time opened up with ${other}`,
      intro: `A time you are waiting for opened up: ${when} with ${other} (${price}). It is held for you${input.holdExpiresAt ? ` until ${formatDateTimeIn(input.holdExpiresAt, input.timeZone)}` : ''}, 30 minutes from now.${placeLine}`,
      outro: `Pay for it to book it. If you do not, it goes to the next person waiting and you stay on the waitlist. ${policy}.`,
    },
    refunded: {
      subject: forUser ? `Refunded: ${refunded} of your session with ${other}` : `Refunded to ${other}: ${refunded}`,
      intro: forUser
        ? `Spotter refunded ${refunded} of ${withWhom} on ${when}.${refundWhy ? ` Reason: ${refundWhy}.` : ''}${input.refundCancelled ? ' The session is cancelled.' : ''} The money goes back to the card or PayPal account that paid, usually within a few days.`
        : `Spotter refunded ${refunded} of ${withWhom} on ${when} to ${other}.${refundWhy ? ` Reason: ${refundWhy}.` : ''}${input.refundCancelled ? ' The session is cancelled.' : ''} Your share of the session is reduced in proportion.`,
      outro: input.refundCancelled
        ? 'The attached calendar file removes it from your calendar.'
        : 'The session itself is unchanged. Write to support if you have a question.',
    },
    cancelled: {
      subject: forUser ? `Cancelled: your session with ${other}` : `Cancelled: session with ${other}`,
      intro: cancelledIntro,
      // a user whose trainer cancelled (or left) is not told of that trainer's free time
      outro: `The attached calendar file removes it from your calendar.${forUser && byTrainer ? '' : ' The slot is free again.'}`,
    },
  }[input.kind];

  // a cancellation, or an operator's refund of all of an upcoming session, removes it from calendars
  const endsIt = input.kind === 'cancelled' || (input.kind === 'refunded' && !!input.refundCancelled);
  const ics = buildIcs({
    uid: `booking-${input.bookingId}@spotter`,
    start: input.startsAt,
    end: input.endsAt,
    summary: forUser ? `Training session with ${other}` : `Training session: ${other}`,
    description: [
      `Spotter booking ${input.bookingId}.`,
      ...(input.kind === 'cancelled' || input.kind === 'refunded' ? [] : [`${policy}.`]),
      ...(place ? [`Place: ${place}.`] : []),
      input.link,
    ].join('\n'),
    location: place,
    stamp: input.now,
    cancelled: endsIt,
    sequence: (input.sequence ?? 0) + (endsIt ? 1 : 0),
  });

  // where the session can be cancelled (the user inside the policy, the trainer at any time before it
  // starts) and moved (its user, inside the policy)
  const action =
    input.kind === 'offered'
      ? { label: 'Book this time', line: 'Book it on the trainer’s page' }
      : input.kind === 'cancelled' || input.kind === 'refunded'
        ? { label: forUser ? 'See my sessions' : 'See my schedule', line: 'Your bookings' }
        : forUser
          ? { label: 'See, move or cancel this session', line: 'See, move or cancel it in your sessions' }
          : { label: 'See or cancel this session', line: 'See, message or cancel it in your schedule' };
  const text = `Hi ${firstName},\n\n${copy.intro}\n\n${action.line}: ${input.link}\n\n${copy.outro}\n\n— Spotter, find your personal trainer\n`;
  const html = `<!doctype html><html><body style="margin:0;background:#f4f6fa;font-family:Arial,Helvetica,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:22px;font-weight:bold;color:#0b1220">Spotter</td></tr>
<tr><td style="padding-top:16px;font-size:16px;line-height:1.5">Hi ${escapeHtml(firstName)},</td></tr>
<tr><td style="padding-top:8px;font-size:16px;line-height:1.5">${escapeHtml(copy.intro)}</td></tr>
<tr><td style="padding:24px 0"><a href="${escapeHtml(input.link)}" style="background:#c6f432;color:#0b1220;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">${action.label}</a></td></tr>
<tr><td style="font-size:13px;color:#475569;line-height:1.5">${escapeHtml(copy.outro)}</td></tr>
</table></td></tr></table></body></html>`;

  return {
    to: input.to.email,
    subject: copy.subject,
    text,
    html,
    links: [input.link],
    // an offer is not booked yet: no calendar file
    attachments:
      input.kind === 'offered'
        ? []
        : [
            {
              filename: 'session.ics',
              content: ics,
              contentType: `text/calendar; charset=utf-8; method=${endsIt ? 'CANCEL' : 'PUBLISH'}`,
            },
          ],
  };
}

/**
 * The reminder 14 days before a package balance's end date (docs/product.md#packages): what is left,
 * the date, and what to do (book, or ask for the rest back).
 */
export function packageExpiryMail(input: {
  to: { email: string; firstName: string };
  trainer: { firstName: string; lastName: string };
  sessionsLeft: number;
  leftCents: number;
  expiresAt: Date;
  timeZone: string;
  link: string;
}): Mail {
  const firstName = plainName(input.to.firstName) || 'there';
  const trainer = plainName(`${input.trainer.firstName} ${input.trainer.lastName}`) || 'your trainer';
  const when = sessionTime(input.expiresAt, input.timeZone);
  const left = `$${fromCents(input.leftCents).toFixed(2)}`;
  const sessions = `${input.sessionsLeft} ${input.sessionsLeft === 1 ? 'session' : 'sessions'}`;
  const intro = `You have ${sessions} (${left}) left of your package with ${trainer}. It ends on ${when}.`;
  const outro = `Book them before then, or ask for the unused balance back on your payments page: it is refunded to how you paid. What is left when it ends goes to ${trainer}.`;
  const text = `Hi ${firstName},\n\n${intro}\n\n${outro}\n\nYour payments: ${input.link}\n\n— Spotter, find your personal trainer\n`;
  const html = `<!doctype html><html><body style="margin:0;background:#f4f6fa;font-family:Arial,Helvetica,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:22px;font-weight:bold;color:#0b1220">Spotter</td></tr>
<tr><td style="padding-top:16px;font-size:16px;line-height:1.5">Hi ${escapeHtml(firstName)},</td></tr>
<tr><td style="padding-top:8px;font-size:16px;line-height:1.5">${escapeHtml(intro)}</td></tr>
<tr><td style="padding:24px 0"><a href="${escapeHtml(input.link)}" style="background:#c6f432;color:#0b1220;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">See my package</a></td></tr>
<tr><td style="font-size:13px;color:#475569;line-height:1.5">${escapeHtml(outro)}</td></tr>
</table></td></tr></table></body></html>`;
  return {
    to: input.to.email,
    subject: `Your package with ${trainer} ends on ${formatDateTimeIn(input.expiresAt, input.timeZone).split(',')[0]}`,
    text,
    html,
    links: [input.link],
  };
}

/** To someone who favourited a trainer: a time of theirs opened up at short notice (a released session). */
export function timeOpenedMail(input: {
  to: { email: string; firstName: string };
  trainer: { firstName: string; lastName: string };
  startsAt: Date;
  timeZone: string;
  priceCents: number;
  link: string;
}): Mail {
  const firstName = plainName(input.to.firstName) || 'there';
  const trainer = plainName(`${input.trainer.firstName} ${input.trainer.lastName}`) || 'a trainer you saved';
  const when = sessionTime(input.startsAt, input.timeZone);
  const intro = `A time with ${trainer}, whom you saved, opened up at short notice: ${when} ($${fromCents(input.priceCents).toFixed(2)}).`;
  const outro = 'The first to book it gets it. Starting within 24 hours, it cannot be refunded.';
  const text = `Hi ${firstName},\n\n${intro}\n\nBook it: ${input.link}\n\n${outro}\n\n— Spotter, find your personal trainer\n`;
  const html = `<!doctype html><html><body style="margin:0;background:#f4f6fa;font-family:Arial,Helvetica,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:22px;font-weight:bold;color:#0b1220">Spotter</td></tr>
<tr><td style="padding-top:16px;font-size:16px;line-height:1.5">Hi ${escapeHtml(firstName)},</td></tr>
<tr><td style="padding-top:8px;font-size:16px;line-height:1.5">${escapeHtml(intro)}</td></tr>
<tr><td style="padding:24px 0"><a href="${escapeHtml(input.link)}" style="background:#c6f432;color:#0b1220;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">Book this time</a></td></tr>
<tr><td style="font-size:13px;color:#475569;line-height:1.5">${escapeHtml(outro)}</td></tr>
</table></td></tr></table></body></html>`;
  return { to: input.to.email, subject: `A time opened up with ${trainer}`, text, html, links: [input.link] };
}
