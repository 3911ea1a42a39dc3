import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, accountTokens } from '../../db/schema';
import { notify } from '../../lib/notify-bus';
import type { Role } from '@spotter/shared';

export type AccountRow = typeof accounts.$inferSelect;
export type NewAccount = typeof accounts.$inferInsert;

type Q = Db | Tx;

/** The channel (lowercase for PGlite) that says an account's tokens changed or it was deleted. */
export const ACCOUNT_CHANNEL = 'spotter_account';

/**
 * Tells every process, after the surrounding transaction commits, that this account's older
 * tokens no longer hold, so open connections (chat sockets) are closed.
 */
export async function announceAccountChanged(db: Q, id: string) {
  await notify(db, ACCOUNT_CHANNEL, id);
}

export async function insertAccount(db: Q, values: NewAccount): Promise<AccountRow | undefined> {
  const [row] = await db.insert(accounts).values(values).onConflictDoNothing().returning();
  return row;
}

export async function findAccountByEmail(db: Q, role: Role, email: string): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.role, role), sql`lower(${accounts.email}) = lower(${email})`, isNull(accounts.deletedAt)))
    .limit(1);
  return row;
}

export async function findAccountById(db: Q, id: string): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, id), isNull(accounts.deletedAt)))
    .limit(1);
  return row;
}

/**
 * Marks the account verified if `email` is still its address (a link proves the address it was
 * mailed to, nothing else). Answers the account's role, or undefined when nothing was verified.
 */
export async function markEmailVerified(db: Q, id: string, email: string) {
  const [row] = await db
    .update(accounts)
    .set({ emailVerifiedAt: sql`coalesce(${accounts.emailVerifiedAt}, now())` })
    .where(and(eq(accounts.id, id), sql`lower(${accounts.email}) = lower(${email})`, isNull(accounts.deletedAt)))
    .returning({ role: accounts.role });
  return row;
}

/**
 * Sets a new password hash and bumps the token version, which ends every older token; open reset
 * links stop working too.
 */
export async function setPassword(db: Q, id: string, passwordHash: string) {
  await db
    .update(accounts)
    .set({ passwordHash, tokenVersion: sql`${accounts.tokenVersion} + 1` })
    .where(eq(accounts.id, id));
  await cancelLinkTokens(db, id, ['reset']);
  await announceAccountChanged(db, id);
}

export type LinkPurpose = 'verify' | 'reset';

export async function insertLinkToken(
  db: Q,
  values: { accountId: string; purpose: LinkPurpose; email: string; tokenHash: string; expiresAt: Date },
) {
  await db.insert(accountTokens).values(values);
}

/** Ends the account's open links of these kinds (an e-mail change ends both, a new password the resets). */
export async function cancelLinkTokens(db: Q, accountId: string, purposes: LinkPurpose[]) {
  await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(accountTokens.accountId, accountId), inArray(accountTokens.purpose, purposes), isNull(accountTokens.usedAt)));
}

/**
 * Marks a live link token used and answers its account and the address it was mailed to, in one
 * statement so it works once.
 */
export async function consumeLinkToken(db: Q, purpose: LinkPurpose, tokenHash: string) {
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.tokenHash, tokenHash),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        sql`${accountTokens.expiresAt} > now()`,
      ),
    )
    .returning({ accountId: accountTokens.accountId, email: accountTokens.email });
  return row;
}
