import { z } from 'zod';

/**
 * The operator console (docs/product.md#the-operator-console): operators are not users or trainers;
 * they are made on the command line (`npm run operator -- add --email …`), sign in with a password
 * and a second factor (RFC 6238 codes from an authenticator app, or a one-time recovery code), and
 * every action they take is written to an append-only audit log.
 */
export const CONSOLE_RULES = {
  /** An operator's password: longer than a member's, since it opens everyone's data. */
  passwordMin: 12,
  passwordMax: 200,
  /** RFC 6238: HMAC-SHA-1, 6 digits, a new code every 30 seconds. */
  codeDigits: 6,
  codePeriodSeconds: 30,
  recoveryCodes: 10,
  /** The welcome link the command prints lasts this long. */
  welcomeHours: 24,
  /** A console session lasts this long, then the operator signs in again. */
  sessionHours: 12,
  auditPageMax: 200,
} as const;

export const CONSOLE_MSG = {
  passwordShort: `Use at least ${CONSOLE_RULES.passwordMin} characters`,
  passwordLong: `Use at most ${CONSOLE_RULES.passwordMax} characters`,
  welcomeInvalid: 'This welcome link is unknown, used or expired. Ask for a new one (npm run operator -- add --email …).',
  codeRequired: 'Enter the 6-digit code from your authenticator app, or a recovery code',
  signInFailed: 'The e-mail, the password or the code is wrong',
  onlyOperators: 'Only operators can use the console',
  signedOut: 'Your console session ended. Sign in again.',
} as const;

const ZConsolePassword = z
  .string({ error: CONSOLE_MSG.passwordShort })
  .min(CONSOLE_RULES.passwordMin, CONSOLE_MSG.passwordShort)
  .max(CONSOLE_RULES.passwordMax, CONSOLE_MSG.passwordLong);

/** POST /api/console/welcome: the one-time link's token and the operator's new password. */
export const ZConsoleWelcomeRequest = z.object({
  token: z.string({ error: CONSOLE_MSG.welcomeInvalid }).min(10, CONSOLE_MSG.welcomeInvalid).max(200, CONSOLE_MSG.welcomeInvalid),
  password: ZConsolePassword,
});
export type TConsoleWelcomeRequest = z.input<typeof ZConsoleWelcomeRequest>;

/** The second factor, answered once: the secret for an authenticator app (also as an otpauth:// URL for a QR code) and the recovery codes. */
export const ZConsoleWelcomeResponse = z.object({
  totpSecret: z.string(),
  otpauthUrl: z.string(),
  recoveryCodes: z.array(z.string()),
});
export type TConsoleWelcomeResponse = z.infer<typeof ZConsoleWelcomeResponse>;

/** POST /api/console/login: `code` is the authenticator's 6 digits, or one of the recovery codes (each works once). */
export const ZConsoleLoginRequest = z.object({
  email: z.string({ error: CONSOLE_MSG.signInFailed }).trim().min(3, CONSOLE_MSG.signInFailed).max(254, CONSOLE_MSG.signInFailed),
  password: z
    .string({ error: CONSOLE_MSG.signInFailed })
    .min(1, CONSOLE_MSG.signInFailed)
    .max(CONSOLE_RULES.passwordMax, CONSOLE_MSG.signInFailed),
  code: z
    .string({ error: CONSOLE_MSG.codeRequired })
    .trim()
    .min(CONSOLE_RULES.codeDigits, CONSOLE_MSG.codeRequired)
    .max(40, CONSOLE_MSG.codeRequired),
});
export type TConsoleLoginRequest = z.input<typeof ZConsoleLoginRequest>;
export const ZConsoleLoginResponse = z.object({ token: z.string() });

/** GET /api/console/me: the signed-in operator. */
export const ZConsoleMeResponse = z.object({ operator: z.object({ _id: z.string(), email: z.string() }) });

/** One entry of the audit log: what was done, on whom, why, when, by whom, with the state before and after. */
export const ZAuditEntry = z.object({
  _id: z.string(),
  at: z.string(),
  /** The operator who did it, or null for the command line (adding and removing operators). */
  operatorId: z.string().nullable(),
  operatorEmail: z.string().nullable(),
  action: z.string(),
  targetKind: z.string(),
  targetId: z.string().nullable(),
  reason: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

/** GET /api/console/audit?action=&operatorId=&targetId=&before=&format=csv: newest first. */
export const ZAuditQuery = z.object({
  action: z.string().max(64).optional(),
  operatorId: z.string().max(64).optional(),
  targetId: z.string().max(64).optional(),
  /** Entries before this one's time (ISO), for the next page. */
  before: z.iso.datetime({ offset: true, error: 'Give a time such as 2026-11-28T10:00:00Z' }).optional(),
  limit: z.coerce.number().int().min(1).max(CONSOLE_RULES.auditPageMax).optional(),
  format: z.enum(['json', 'csv']).optional(),
});
export const ZAuditResponse = z.object({ entries: z.array(ZAuditEntry) });
export type TAuditResponse = z.infer<typeof ZAuditResponse>;
