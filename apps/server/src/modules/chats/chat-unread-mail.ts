import type { Mail } from '../mail';

/** Names are people's input: capped, so a mail cannot be stuffed, and escaped in the HTML part. */
const NAME_MAX = 60;
const cap = (s: string) => {
  const flat = s.replace(/\p{Cc}+/gu, ' ').trim();
  return flat.length > NAME_MAX ? `${flat.slice(0, NAME_MAX - 1)}…` : flat;
};
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** "You have unread messages": no message text, only who wrote and a link to the inbox. */
export function chatUnreadMail(opts: { to: string; firstName: string; senderName: string; count: number; link: string }): Mail {
  const name = cap(opts.firstName) || 'there';
  const sender = cap(opts.senderName) || 'Someone';
  const what = opts.count === 1 ? 'a message' : `${opts.count} messages`;
  const subject = `${sender} sent you ${what} on Spotter`;
  const intro = `${sender} sent you ${what} that you have not read yet.`;
  const text = `Hi ${name},\n\n${intro}\n\nRead and reply: ${opts.link}\n\nYou get this mail because account notifications are on; turn them off in your settings.\n\n— Spotter, find your personal trainer\n`;
  const html = `<!doctype html><html><body style="margin:0;background:#f4f6fa;font-family:Arial,Helvetica,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:22px;font-weight:bold;color:#0b1220">Spotter</td></tr>
<tr><td style="padding-top:16px;font-size:16px;line-height:1.5">Hi ${escapeHtml(name)},</td></tr>
<tr><td style="padding-top:8px;font-size:16px;line-height:1.5">${escapeHtml(intro)}</td></tr>
<tr><td style="padding:24px 0"><a href="${escapeHtml(opts.link)}" style="background:#c6f432;color:#0b1220;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">Read and reply</a></td></tr>
<tr><td style="font-size:13px;color:#475569;line-height:1.5">You get this mail because account notifications are on; turn them off in your settings.</td></tr>
</table></td></tr></table></body></html>`;
  return { to: opts.to, subject, text, html, links: [opts.link] };
}
