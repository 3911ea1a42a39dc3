import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import {
  CONSOLE_MSG,
  CONSOLE_RULES,
  type TAuditEntry,
  type TConsoleLoginRequest,
  type TConsoleWelcomeResponse,
} from '@spotter/shared';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { getDummyHash, hashPassword, verifyPassword } from '../../lib/passwords';
import { hashLinkToken, newLinkToken, type TokenService } from '../../lib/tokens';
import * as repo from './operators.repo';

const HOUR = 3_600_000;
const ISSUER = 'Spotter console';

export type ConsoleDeps = { db: Db; tokens: TokenService; now: () => Date };

/** The authenticator app's view of an operator's secret: RFC 6238, SHA-1, 6 digits, 30 seconds. */
const totpOf = (email: string, base32: string) =>
  new TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: CONSOLE_RULES.codeDigits,
    period: CONSOLE_RULES.codePeriodSeconds,
    secret: Secret.fromBase32(base32),
  });

/** Recovery codes are compared as typed without spaces, dashes or case. */
const normalCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();
const hashCode = (code: string) => createHash('sha256').update(normalCode(code)).digest('hex');

/**
 * `npm run operator -- add --email …` (src/operator.ts): a new operator, or the one of that e-mail
 * again (restored if removed, its password and second factor set anew), with a one-time welcome link
 * for 24 hours; a member account of the same e-mail is recorded as promoted. Written to the audit log.
 */
export async function addOperator(deps: Pick<ConsoleDeps, 'db' | 'now'>, email: string) {
  const at = deps.now();
  const { token, hash } = newLinkToken();
  const expiresAt = new Date(at.getTime() + CONSOLE_RULES.welcomeHours * HOUR);
  const result = await deps.db.transaction(async (tx) => {
    const before = await repo.findOperatorByEmail(tx, email);
    const accountId = (await repo.memberOfEmail(tx, email)) ?? null;
    const { row, created } = await repo.upsertWaitingOperator(tx, {
      email,
      accountId,
      welcomeTokenHash: hash,
      welcomeExpiresAt: expiresAt,
      now: at,
    });
    await repo.insertAudit(tx, {
      at,
      operatorId: null,
      action: 'operator.add',
      targetKind: 'operator',
      targetId: row.id,
      reason: created ? 'added on the command line' : 'added again on the command line: a new welcome link',
      before: before ? { email: before.email, removed: before.removedAt !== null } : null,
      after: { email: row.email, promotedFrom: row.accountId },
    });
    return { id: row.id, created, promoted: row.accountId !== null };
  });
  return { ...result, token, expiresAt };
}

/** `npm run operator -- remove --email …`: no more sign-in, every console session ended at once. False when there is none. */
export async function removeOperatorByEmail(deps: Pick<ConsoleDeps, 'db' | 'now'>, email: string): Promise<boolean> {
  const at = deps.now();
  return deps.db.transaction(async (tx) => {
    const row = await repo.findOperatorByEmail(tx, email);
    if (!row || row.removedAt) return false;
    await repo.removeOperator(tx, row.id, at);
    await repo.insertAudit(tx, {
      at,
      operatorId: null,
      action: 'operator.remove',
      targetKind: 'operator',
      targetId: row.id,
      reason: 'removed on the command line',
      before: { email: row.email, removed: false },
      after: { email: row.email, removed: true },
    });
    return true;
  });
}

/**
 * The welcome link used (once, within 24 hours): the operator's password, a new TOTP secret and ten
 * recovery codes, answered once and kept only as hashes (the codes) or for checking (the secret).
 */
export async function welcome(deps: ConsoleDeps, input: { token: string; password: string }): Promise<TConsoleWelcomeResponse> {
  const at = deps.now();
  const hash = hashLinkToken(input.token);
  const row = await repo.findWaitingByWelcome(deps.db, hash, at);
  if (!row) throw new AppError('LINK_INVALID', CONSOLE_MSG.welcomeInvalid);
  const secret = new Secret({ size: 20 });
  const recoveryCodes = Array.from({ length: CONSOLE_RULES.recoveryCodes }, () => {
    const hex = randomBytes(5).toString('hex');
    return `${hex.slice(0, 5)}-${hex.slice(5)}`;
  });
  const passwordHash = await hashPassword(input.password);
  const done = await deps.db.transaction(async (tx) => {
    if (
      !(await repo.completeWelcome(tx, row.id, hash, {
        passwordHash,
        totpSecret: deps.tokens.seal(secret.base32),
        recoveryCodeHashes: recoveryCodes.map(hashCode),
      }))
    )
      return false;
    await repo.insertAudit(tx, {
      at,
      operatorId: row.id,
      action: 'operator.welcome',
      targetKind: 'operator',
      targetId: row.id,
      reason: 'set a password and a second factor with the welcome link',
      before: null,
      after: null,
    });
    return true;
  });
  if (!done) throw new AppError('LINK_INVALID', CONSOLE_MSG.welcomeInvalid);
  return { totpSecret: secret.base32, otpauthUrl: totpOf(row.email, secret.base32).toString(), recoveryCodes };
}

/**
 * A console sign-in: the password, then the second factor: a code of the current 30-second step
 * (or the one before or after, for a clock a little off), each step once; or a recovery code, each
 * once. One answer for every failure. Written to the audit log.
 */
export async function signIn(deps: ConsoleDeps, input: TConsoleLoginRequest): Promise<{ token: string }> {
  const at = deps.now();
  const row = await repo.findOperatorByEmail(deps.db, input.email.trim());
  const usable = row && !row.removedAt && row.passwordHash && row.totpSecret ? row : undefined;
  // the same work whether or not the operator exists
  const passwordOk = await verifyPassword(usable?.passwordHash ?? (await getDummyHash()), input.password);
  const failed = () => new AppError('INVALID_CREDENTIALS', CONSOLE_MSG.signInFailed);
  if (!usable || !passwordOk) throw failed();
  const code = input.code.replace(/\s/g, '');
  let how: string;
  if (/^\d{6}$/.test(code)) {
    const secret = deps.tokens.open(usable.totpSecret!);
    // sealed under another server secret: the operator needs a new welcome (npm run operator -- add)
    if (secret === undefined) throw failed();
    const totp = totpOf(usable.email, secret);
    const delta = totp.validate({ token: code, timestamp: at.getTime(), window: 1 });
    if (delta === null) throw failed();
    const step = TOTP.counter({ period: CONSOLE_RULES.codePeriodSeconds, timestamp: at.getTime() }) + delta;
    if (!(await repo.takeTotpStep(deps.db, usable.id, step, at))) throw failed();
    // a secret kept before secrets were sealed is sealed now
    if (secret === usable.totpSecret) await repo.sealTotpSecret(deps.db, usable.id, secret, deps.tokens.seal(secret));
    how = 'an authenticator code';
  } else {
    if (!(await repo.takeRecoveryCode(deps.db, usable.id, hashCode(code), at))) throw failed();
    how = 'a recovery code';
  }
  await deps.db.transaction((tx) =>
    repo.insertAudit(tx, {
      at,
      operatorId: usable.id,
      action: 'operator.sign-in',
      targetKind: 'operator',
      targetId: usable.id,
      reason: `signed in with ${how}`,
      before: null,
      after: null,
    }),
  );
  return { token: await deps.tokens.signConsole({ id: usable.id, tv: usable.tokenVersion }, CONSOLE_RULES.sessionHours) };
}

/**
 * A console sign-out (POST /api/console/logout): every console session of this operator ends at once,
 * on every process (the token version moves on and is read on every call), written to the audit log.
 */
export async function signOut(deps: Pick<ConsoleDeps, 'db' | 'now'>, operatorId: string): Promise<void> {
  const at = deps.now();
  await deps.db.transaction(async (tx) => {
    await repo.endSessions(tx, operatorId);
    await repo.insertAudit(tx, {
      at,
      operatorId,
      action: 'operator.sign-out',
      targetKind: 'operator',
      targetId: operatorId,
      reason: 'signed out: every console session of this operator ended',
      before: null,
      after: null,
    });
  });
}

/** The operator a console session's claims name, while it is not removed nor its sessions ended since. */
export async function operatorOfSession(deps: Pick<ConsoleDeps, 'db'>, claims: { id: string; tv: number }) {
  const row = await repo.findOperator(deps.db, claims.id);
  if (!row || row.removedAt || row.tokenVersion !== claims.tv) return undefined;
  return { id: row.id, email: row.email };
}

function toEntry(r: Awaited<ReturnType<typeof repo.listAudit>>[number]): TAuditEntry {
  return {
    _id: r.id,
    at: r.at.toISOString(),
    operatorId: r.operatorId,
    operatorEmail: r.operatorEmail,
    action: r.action,
    targetKind: r.targetKind,
    targetId: r.targetId,
    reason: r.reason,
    before: r.before,
    after: r.after,
  };
}

type AuditFilter = { action?: string; operatorId?: string; targetId?: string; before?: string; limit?: number };

/** The audit log, newest first, filtered. */
export async function listAudit(deps: Pick<ConsoleDeps, 'db'>, f: AuditFilter): Promise<TAuditEntry[]> {
  const rows = await repo.listAudit(deps.db, {
    action: f.action,
    operatorId: f.operatorId,
    targetId: f.targetId,
    before: f.before ? new Date(f.before) : undefined,
    limit: f.limit ?? 50,
  });
  return rows.map(toEntry);
}

/** A cell as a spreadsheet reads it: quoted, and never a formula (a leading =, +, - or @ is escaped). */
function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

const CSV_COLUMNS = [
  'at',
  'operatorEmail',
  'operatorId',
  'action',
  'targetKind',
  'targetId',
  'reason',
  'before',
  'after',
] as const;

/** The audit log as CSV (RFC 4180), newest first. */
export function auditCsv(entries: TAuditEntry[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const e of entries) lines.push(CSV_COLUMNS.map((c) => csvCell(e[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}

/**
 * An operator's action written to the audit log in the caller's transaction (the action's own), so
 * the action and its entry commit together or not at all (docs/product.md#the-audit-log).
 */
export const writeAudit = (tx: Tx, entry: repo.AuditInput) => repo.insertAudit(tx, entry);
