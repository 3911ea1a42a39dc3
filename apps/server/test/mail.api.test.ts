import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAIL_NAME_MAX, mailName, passwordResetMail, verificationMail } from '../src/modules/mail/mail.service';
import { useTestApp, validSignUp } from './helper';

const t = await useTestApp();
const EVIL = '<a href="https://evil">Click</a>\r\nBcc: x';
const LINK = 'http://localhost:3000/api/verify?token=abc';

describe('names in mails', () => {
  it('a first name with markup, a URL and a header arrives inert', async () => {
    const body = validSignUp({ firstName: EVIL });
    expect((await t.app.inject({ method: 'POST', url: '/api/users/register', payload: body })).statusCode).toBe(201);

    const outbox = join(t.config.dataDir, 'outbox');
    const eml = readdirSync(outbox).find((f) => f.endsWith('.eml') && f.includes(body.email.replace(/[^a-z0-9@.-]/gi, '_')))!;
    const raw = readFileSync(join(outbox, eml), 'utf8');
    // no line of the message, header or body, starts with what the name smuggled in
    expect(raw).not.toMatch(/^bcc:/im);
    expect(raw).not.toContain('https://evil');
    expect(raw).not.toMatch(/<a href="https:\/\/evil/);

    const mail = t.outbox().find((m) => m.to === body.email)!;
    const greeting = mail.text.split('\n')[0];
    expect(greeting).toBe('Hi a href https evil Click a Bcc x,');
  });

  for (const [kind, make] of [
    ['verification', verificationMail],
    ['password reset', passwordResetMail],
  ] as const) {
    it(`the ${kind} mail greets in plain text, on one line, HTML-escaped`, () => {
      const mail = make('a@example.com', EVIL, LINK);
      expect(mail.text.split('\n')[0]).toMatch(/^Hi [\p{L}\p{N} '’-]+,$/u);
      expect(mail.text).not.toContain('https://evil');
      expect(mail.html).not.toContain('https://evil');
      expect(mail.html).not.toMatch(/<a href="https:\/\/evil|Bcc: x/);
      expect(mail.html).toContain('Hi a href https evil Click a Bcc x,');
      // the mail's own link is still there, once in the button and once in plain text
      expect(mail.html.split(LINK)).toHaveLength(3);
    });
  }

  it('keeps real names, caps long ones, and greets "there" when nothing is left', () => {
    expect(mailName('  Anne-Marie  O’Brien ')).toBe('Anne-Marie O’Brien');
    expect(mailName('Zoë')).toBe('Zoë');
    expect(mailName('محمد')).toBe('محمد');
    expect(mailName('Bob\u202eevil\u0000\u2028x')).toBe('Bob evil x');
    expect(Array.from(mailName('é'.repeat(80)))).toHaveLength(MAIL_NAME_MAX);
    expect(mailName('<>"&;')).toBe('there');
  });
});
