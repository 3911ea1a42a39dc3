import { and, desc, eq, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, auditLog, operators } from '../../db/schema';

type Q = Db | Tx;
type OperatorRow = typeof operators.$inferSelect;

export async function findOperatorByEmail(q: Q, email: string): Promise<OperatorRow | undefined> {
  const [row] = await q
    .select()
    .from(operators)
    .where(sql`lower(${operators.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

export async function findOperator(q: Q, id: string): Promise<OperatorRow | undefined> {
  const [row] = await q.select().from(operators).where(eq(operators.id, id)).limit(1);
  return row;
}

/** A member account of this e-mail (either role, not deleted), which an operator is promoted from. */
export async function memberOfEmail(q: Q, email: string): Promise<string | undefined> {
  const [row] = await q
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(sql`lower(${accounts.email}) = ${email.toLowerCase()}`, isNull(accounts.deletedAt)))
    .orderBy(accounts.createdAt)
    .limit(1);
  return row?.id;
}

/** A new operator, or the one of that e-mail again (restored if removed), waiting for its welcome; every console session of it ends. */
export async function upsertWaitingOperator(
  tx: Tx,
  v: { email: string; accountId: string | null; welcomeTokenHash: string; welcomeExpiresAt: Date; now: Date },
): Promise<{ row: OperatorRow; created: boolean }> {
  const existing = await findOperatorByEmail(tx, v.email);
  const waiting = {
    passwordHash: null,
    totpSecret: null,
    totpLastStep: null,
    recoveryCodeHashes: [],
    welcomeTokenHash: v.welcomeTokenHash,
    welcomeExpiresAt: v.welcomeExpiresAt,
    removedAt: null,
  };
  if (existing) {
    const [row] = await tx
      .update(operators)
      .set({ ...waiting, accountId: existing.accountId ?? v.accountId, tokenVersion: sql`${operators.tokenVersion} + 1` })
      .where(eq(operators.id, existing.id))
      .returning();
    return { row, created: false };
  }
  const [row] = await tx
    .insert(operators)
    .values({ email: v.email, accountId: v.accountId, ...waiting, tokenVersion: 0, createdAt: v.now, lastSignInAt: null })
    .returning();
  return { row, created: true };
}

/** Removed: no sign-in, every console session ended at once, no welcome link left. */
export async function removeOperator(tx: Tx, id: string, now: Date) {
  await tx
    .update(operators)
    .set({ removedAt: now, welcomeTokenHash: null, welcomeExpiresAt: null, tokenVersion: sql`${operators.tokenVersion} + 1` })
    .where(eq(operators.id, id));
}

/** The operator's TOTP secret, kept in the clear before secrets were sealed, replaced by its sealed form. */
export async function sealTotpSecret(q: Q, id: string, plain: string, sealed: string) {
  await q
    .update(operators)
    .set({ totpSecret: sealed })
    .where(and(eq(operators.id, id), eq(operators.totpSecret, plain)));
}

/** Every console session of the operator ended (a sign-out): the token version moves on. */
export async function endSessions(tx: Tx, id: string) {
  await tx
    .update(operators)
    .set({ tokenVersion: sql`${operators.tokenVersion} + 1` })
    .where(eq(operators.id, id));
}

export async function findWaitingByWelcome(q: Q, hash: string, now: Date): Promise<OperatorRow | undefined> {
  const [row] = await q
    .select()
    .from(operators)
    .where(and(eq(operators.welcomeTokenHash, hash), gt(operators.welcomeExpiresAt, now), isNull(operators.removedAt)))
    .limit(1);
  return row;
}

/** The welcome used once: the password and second factor set, the link gone. False when another request used it first. */
export async function completeWelcome(
  tx: Tx,
  id: string,
  hash: string,
  v: { passwordHash: string; totpSecret: string; recoveryCodeHashes: string[] },
): Promise<boolean> {
  const rows = await tx
    .update(operators)
    .set({
      ...v,
      totpLastStep: null,
      welcomeTokenHash: null,
      welcomeExpiresAt: null,
      tokenVersion: sql`${operators.tokenVersion} + 1`,
    })
    .where(and(eq(operators.id, id), eq(operators.welcomeTokenHash, hash)))
    .returning({ id: operators.id });
  return rows.length > 0;
}

/** Takes a code's 30-second step: false when that step (or a later one) signed in already, so a code works once. */
export async function takeTotpStep(q: Q, id: string, step: number, now: Date): Promise<boolean> {
  const rows = await q
    .update(operators)
    .set({ totpLastStep: step, lastSignInAt: now })
    .where(and(eq(operators.id, id), or(isNull(operators.totpLastStep), lt(operators.totpLastStep, step))))
    .returning({ id: operators.id });
  return rows.length > 0;
}

/** Uses up a recovery code: false when it is not (or no longer) one of the operator's. */
export async function takeRecoveryCode(q: Q, id: string, hash: string, now: Date): Promise<boolean> {
  const rows = await q
    .update(operators)
    .set({ recoveryCodeHashes: sql`array_remove(${operators.recoveryCodeHashes}, ${hash})`, lastSignInAt: now })
    .where(and(eq(operators.id, id), sql`${hash} = any(${operators.recoveryCodeHashes})`))
    .returning({ id: operators.id });
  return rows.length > 0;
}

export type AuditInput = {
  at: Date;
  operatorId: string | null;
  action: string;
  targetKind: string;
  targetId: string | null;
  reason: string;
  before: unknown;
  after: unknown;
};

/** One entry of the audit log, in the caller's transaction (the action's own). */
export async function insertAudit(tx: Tx, e: AuditInput) {
  await tx.insert(auditLog).values({
    at: e.at,
    operatorId: e.operatorId,
    action: e.action,
    targetKind: e.targetKind,
    targetId: e.targetId,
    reason: e.reason,
    before: e.before ?? null,
    after: e.after ?? null,
  });
}

export async function listAudit(
  q: Q,
  f: { action?: string; operatorId?: string; targetId?: string; before?: Date; limit: number },
) {
  const where: SQL[] = [];
  if (f.action) where.push(eq(auditLog.action, f.action));
  if (f.operatorId) where.push(sql`${auditLog.operatorId}::text = ${f.operatorId}`);
  if (f.targetId) where.push(eq(auditLog.targetId, f.targetId));
  if (f.before) where.push(lt(auditLog.at, f.before));
  return q
    .select({
      id: auditLog.id,
      at: auditLog.at,
      operatorId: auditLog.operatorId,
      operatorEmail: operators.email,
      action: auditLog.action,
      targetKind: auditLog.targetKind,
      targetId: auditLog.targetId,
      reason: auditLog.reason,
      before: auditLog.before,
      after: auditLog.after,
    })
    .from(auditLog)
    .leftJoin(operators, eq(operators.id, auditLog.operatorId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(f.limit);
}
