import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, accountTokens } from '../../db/schema';
import type { Role } from '@spotter/shared';

export type AccountRow = typeof accounts.$inferSelect;
export type NewAccount = typeof accounts.$inferInsert;

type Q = Db | Tx;

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

export async function markEmailVerified(db: Q, id: string) {
  await db
    .update(accounts)
    .set({ emailVerifiedAt: sql`coalesce(${accounts.emailVerifiedAt}, now())` })
    .where(eq(accounts.id, id));
}

/** Sets a new password hash and bumps the token version, which ends every older token. */
export async function setPassword(db: Q, id: string, passwordHash: string) {
  await db
    .update(accounts)
    .set({ passwordHash, tokenVersion: sql`${accounts.tokenVersion} + 1` })
    .where(eq(accounts.id, id));
}

export async function insertLinkToken(
  db: Q,
  values: { accountId: string; purpose: 'verify' | 'reset'; tokenHash: string; expiresAt: Date },
) {
  await db.insert(accountTokens).values(values);
}

/** Marks a live link token used and answers its account, in one statement so it works once. */
export async function consumeLinkToken(db: Q, purpose: 'verify' | 'reset', tokenHash: string) {
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
    .returning({ accountId: accountTokens.accountId });
  return row;
}
