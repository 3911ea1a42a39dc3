import type { ReportKind, ReportStatus } from '@spotter/shared';
import type { Mail } from '../mail';

const NAME_MAX = 60;
const cap = (s: string) => {
  const flat = s.replace(/\p{Cc}+/gu, ' ').trim();
  return flat.length > NAME_MAX ? `${flat.slice(0, NAME_MAX - 1)}…` : flat;
};
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const WHAT: Record<ReportKind, string> = { review: 'review', message: 'message', profile: 'profile' };
const OUTCOME: Record<Exclude<ReportStatus, 'open'>, string> = {
  hidden: 'We hid it: only its author sees it now.',
  restored: 'We looked at it and it stays visible to everyone.',
  dismissed: 'We looked at it and decided to leave it as it is.',
};

/**
 * "We looked at what you reported" (docs/product.md#reports-and-moderation): the outcome only,
 * never the operator's reason or the reported text.
 */
export function reportOutcomeMail(opts: {
  to: string;
  firstName: string;
  kind: ReportKind;
  outcome: Exclude<ReportStatus, 'open'>;
}): Mail {
  const name = cap(opts.firstName) || 'there';
  const subject = `We looked at the ${WHAT[opts.kind]} you reported`;
  const intro = `Thank you for reporting a ${WHAT[opts.kind]} on Spotter. ${OUTCOME[opts.outcome]}`;
  const text = `Hi ${name},\n\n${intro}\n\n— Spotter, find your personal trainer\n`;
  const html = `<!doctype html><html><body style="margin:0;background:#f4f6fa;font-family:Arial,Helvetica,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:22px;font-weight:bold;color:#0b1220">Spotter</td></tr>
<tr><td style="padding-top:16px;font-size:16px;line-height:1.5">Hi ${escapeHtml(name)},</td></tr>
<tr><td style="padding-top:8px;font-size:16px;line-height:1.5">${escapeHtml(intro)}</td></tr>
</table></td></tr></table></body></html>`;
  return { to: opts.to, subject, text, html, links: [] };
}
