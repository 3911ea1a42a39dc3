import type { Mail } from '../mail';

/** People's input (names, issuers, reasons) is capped and flattened, and escaped in the HTML part. */
const cap = (s: string, max: number) => {
  const flat = s.replace(/\p{Cc}+/gu, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function build(opts: { to: string; firstName: string; subject: string; lines: string[]; link: string; action: string }): Mail {
  const name = cap(opts.firstName, 60) || 'there';
  const text = `Hi ${name},\n\n${opts.lines.join('\n\n')}\n\n${opts.action}: ${opts.link}\n\n— Spotter, find your personal trainer\n`;
  const paragraphs = opts.lines
    .map((l) => `<tr><td style="padding-top:8px;font-size:16px;line-height:1.5">${escapeHtml(l)}</td></tr>`)
    .join('\n');
  const html = `<!doctype html><html><body style="margin:0;background:#f4f6fa;font-family:Arial,Helvetica,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:22px;font-weight:bold;color:#0b1220">Spotter</td></tr>
<tr><td style="padding-top:16px;font-size:16px;line-height:1.5">Hi ${escapeHtml(name)},</td></tr>
${paragraphs}
<tr><td style="padding:24px 0"><a href="${escapeHtml(opts.link)}" style="background:#c6f432;color:#0b1220;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">${escapeHtml(opts.action)}</a></td></tr>
</table></td></tr></table></body></html>`;
  return { to: opts.to, subject: opts.subject, text, html, links: [opts.link] };
}

type Who = { to: string; firstName: string; link: string };
type Cert = { issuer: string; expiresOn: string };

/** The certificate approved: the trainer shows as a verified coach until it expires. */
export const certificateApprovedMail = (who: Who, cert: Cert): Mail =>
  build({
    ...who,
    subject: 'Your certificate was approved: you are a verified coach on Spotter',
    lines: [
      `Your certificate from ${cap(cert.issuer, 120)} was approved.`,
      `Your profile shows the 'Verified coach' badge until ${cert.expiresOn}, the day it expires.`,
    ],
    action: 'See your certificates',
  });

/** The certificate rejected, with the operator's reason. */
export const certificateRejectedMail = (who: Who, cert: Cert & { reason: string }): Mail =>
  build({
    ...who,
    subject: 'Your certificate was not approved',
    lines: [
      `Your certificate from ${cap(cert.issuer, 120)} was not approved.`,
      `The reason: ${cap(cert.reason, 500)}`,
      'You can upload it again, or another certificate.',
    ],
    action: 'Upload a certificate',
  });

/** 30 days before the last day: the badge goes then unless a newer certificate is approved. */
export const certificateExpiringMail = (who: Who, cert: Cert): Mail =>
  build({
    ...who,
    subject: 'Your certificate expires soon',
    lines: [
      `Your certificate from ${cap(cert.issuer, 120)} expires on ${cert.expiresOn}.`,
      `After that day your profile no longer shows the 'Verified coach' badge. Upload your renewed certificate so an operator can check it in time.`,
    ],
    action: 'Upload a certificate',
  });
