import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export type MailAttachment = { filename: string; content: string; contentType: string };
export type Mail = { to: string; subject: string; text: string; html: string; links: string[]; attachments?: MailAttachment[] };

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set; otherwise each mail becomes an .eml file (plus a .json copy that
 * tests and people can read) in DATA_DIR/outbox, readable by the owner only. The log names the
 * file but never carries a link: a link's token is as good as a password.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; dataDir: string; log: FastifyBaseLogger }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({
          from: opts.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          attachments: mail.attachments,
        });
      },
    };
  }
  const outbox = join(opts.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let counter = 0;
  return {
    async send(mail) {
      const info = await transport.sendMail({
        from: opts.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments,
      });
      mkdirSync(outbox, { recursive: true, mode: 0o700 });
      const name = `${Date.now()}-${String(++counter).padStart(4, '0')}-${mail.to.replace(/[^a-z0-9@.-]/gi, '_')}`;
      const privateFile = { mode: 0o600 } as const;
      writeFileSync(join(outbox, `${name}.eml`), info.message as Buffer, privateFile);
      writeFileSync(
        join(outbox, `${name}.json`),
        JSON.stringify({ to: mail.to, subject: mail.subject, text: mail.text, links: mail.links }, null, 2),
        privateFile,
      );
      opts.log.info({ to: mail.to, subject: mail.subject }, `mail written to ${join(outbox, name)}.eml`);
    },
  };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export const MAIL_NAME_MAX = 50;

/**
 * A name as it may appear in a greeting: whoever signs up chooses it, so it is reduced to plain
 * words (letters, digits, spaces, apostrophes and hyphens), on one line, at most 50 characters.
 * Markup, addresses and line breaks cannot survive, so nothing in it renders as a link or a header.
 */
export function mailName(name: string): string {
  const words = name
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}'’ -]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const capped = Array.from(words).slice(0, MAIL_NAME_MAX).join('').trim();
  return capped || 'there';
}

function layout(opts: {
  to: string;
  firstName: string;
  intro: string;
  action: string;
  link: string;
  outro: string;
  subject: string;
}): Mail {
  const plain = mailName(opts.firstName);
  const name = escapeHtml(plain);
  const text = `Hi ${plain},\n\n${opts.intro}\n\n${opts.action}: ${opts.link}\n\n${opts.outro}\n\n— Spotter, find your personal trainer\n`;
  const html = `<!doctype html><html><body style="margin:0;background:#f4f6fa;font-family:Arial,Helvetica,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:22px;font-weight:bold;color:#0b1220">Spotter</td></tr>
<tr><td style="padding-top:16px;font-size:16px;line-height:1.5">Hi ${name},</td></tr>
<tr><td style="padding-top:8px;font-size:16px;line-height:1.5">${escapeHtml(opts.intro)}</td></tr>
<tr><td style="padding:24px 0"><a href="${escapeHtml(opts.link)}" style="background:#c6f432;color:#0b1220;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">${escapeHtml(opts.action)}</a></td></tr>
<tr><td style="font-size:13px;color:#475569;line-height:1.5">${escapeHtml(opts.outro)}<br>If the button does not work, paste this address into your browser:<br>${escapeHtml(opts.link)}</td></tr>
</table></td></tr></table></body></html>`;
  return { to: opts.to, subject: opts.subject, text, html, links: [opts.link] };
}

export const verificationMail = (to: string, firstName: string, link: string) =>
  layout({
    to,
    firstName,
    subject: 'Verify your e-mail for Spotter',
    intro: 'Welcome to Spotter! Please confirm that this is your e-mail address.',
    action: 'Verify my e-mail',
    link,
    outro: 'The link works for 48 hours. If you did not create a Spotter account, ignore this mail.',
  });

export const passwordResetMail = (to: string, firstName: string, link: string) =>
  layout({
    to,
    firstName,
    subject: 'Reset your Spotter password',
    intro: 'Someone (hopefully you) asked to reset the password of your Spotter account.',
    action: 'Choose a new password',
    link,
    outro: 'The link works for 1 hour and only once. If you did not ask for it, ignore this mail: your password stays as it is.',
  });
