import { and, eq, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, accountTokens, messages, weightEntries } from '../../db/schema';
import { isId, type Role } from '@spotter/shared';

export type NewAccount = typeof accounts.$inferInsert;

type Q = Db | Tx;

/** Answers the new account's id, e-mail and first name; undefined when the address is taken. */
export async function insertAccount(db: Q, values: NewAccount) {
  const [row] = await db
    .insert(accounts)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: accounts.id, email: accounts.email, firstName: accounts.firstName });
  return row;
}

/** What the owner of an account sees, and what the settings screens change: never the password hash. */
const ownColumns = {
  id: accounts.id,
  role: accounts.role,
  email: accounts.email,
  firstName: accounts.firstName,
  lastName: accounts.lastName,
  emailVerifiedAt: accounts.emailVerifiedAt,
  title: accounts.title,
  description: accounts.description,
  phone: accounts.phone,
  gender: accounts.gender,
  age: accounts.age,
  height: accounts.height,
  weight: accounts.weight,
  picture: accounts.picture,
  city: accounts.city,
  country: accounts.country,
  website: accounts.website,
  notifyAccount: accounts.notifyAccount,
  notifyMarketing: accounts.notifyMarketing,
  createdAt: accounts.createdAt,
  priceCents: accounts.priceCents,
  ratingAvg: accounts.ratingAvg,
  ratingCount: accounts.ratingCount,
  profileHiddenAt: accounts.profileHiddenAt,
  tokenVersion: accounts.tokenVersion,
};

/** What a login, a reset mail or a password check needs. */
const credentialColumns = {
  id: accounts.id,
  role: accounts.role,
  email: accounts.email,
  firstName: accounts.firstName,
  passwordHash: accounts.passwordHash,
  tokenVersion: accounts.tokenVersion,
  suspendedAt: accounts.suspendedAt,
  suspensionReason: accounts.suspensionReason,
};

export async function findCredentialsByEmail(db: Q, role: Role, email: string) {
  const [row] = await db
    .select(credentialColumns)
    .from(accounts)
    .where(and(eq(accounts.role, role), sql`lower(${accounts.email}) = lower(${email})`, isNull(accounts.deletedAt)))
    .limit(1);
  return row;
}

export async function findCredentialsById(db: Q, id: string) {
  const [row] = await db
    .select(credentialColumns)
    .from(accounts)
    .where(and(eq(accounts.id, id), isNull(accounts.deletedAt)))
    .limit(1);
  return row;
}

/** The signed-in account as its owner sees it. */
export async function findAccountById(db: Q, id: string) {
  const [row] = await db
    .select(ownColumns)
    .from(accounts)
    .where(and(eq(accounts.id, id), isNull(accounts.deletedAt)))
    .limit(1);
  return row;
}
export type OwnAccountRow = NonNullable<Awaited<ReturnType<typeof findAccountById>>>;

function tokenStateQuery(db: Db) {
  return db
    .select({ tokenVersion: accounts.tokenVersion, role: accounts.role, deletedAt: accounts.deletedAt })
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder('id')))
    .limit(1)
    .prepare('token_state');
}
/** Prepared once per database: every authenticated request runs it, so its SQL is built once. */
const tokenStateQueries = new WeakMap<Db, ReturnType<typeof tokenStateQuery>>();

/** The lean lookup behind every authenticated request: does this token still hold? */
export async function findTokenState(db: Db, id: string) {
  // a token's id claim that is no id names no account (the uuid column would refuse it with an error)
  if (!isId(id)) return undefined;
  let query = tokenStateQueries.get(db);
  if (!query) tokenStateQueries.set(db, (query = tokenStateQuery(db)));
  const [row] = await query.execute({ id });
  return row;
}

/** Whether the account exists and has verified its current e-mail address. */
export async function isVerifiedAccount(db: Q, id: string) {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.id, id), isNull(accounts.deletedAt), isNotNull(accounts.emailVerifiedAt)))
    .limit(1);
  return !!row;
}

/** Whether another account of this role already uses the address. */
export async function isEmailTaken(db: Q, role: Role, email: string, exceptId: string) {
  const [taken] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.role, role), sql`lower(${accounts.email}) = ${email.toLowerCase()}`, ne(accounts.id, exceptId)))
    .limit(1);
  return !!taken;
}

/** The columns the settings screens change. */
export type AccountChanges = Partial<
  Pick<
    NewAccount,
    | 'firstName'
    | 'lastName'
    | 'email'
    | 'emailVerifiedAt'
    | 'title'
    | 'description'
    | 'city'
    | 'country'
    | 'priceCents'
    | 'picture'
    | 'phone'
    | 'website'
    | 'weight'
    | 'height'
    | 'notifyAccount'
    | 'notifyMarketing'
  >
>;

export async function updateAccount(db: Q, id: string, changes: AccountChanges) {
  await db.update(accounts).set(changes).where(eq(accounts.id, id));
}

/**
 * Personal data blanked, the row kept (its reviews show as "Former member"), every token ended.
 * Answers the role of the account it deleted (undefined when it was already gone).
 */
export async function anonymiseAccount(db: Q, id: string) {
  const [row] = await db
    .update(accounts)
    .set({
      email: `deleted-${id}@deleted.invalid`,
      passwordHash: '!',
      firstName: '',
      lastName: '',
      phone: '',
      title: '',
      description: '',
      city: '',
      website: '',
      picture: '',
      age: 0,
      height: 0,
      weight: 0,
      notifyAccount: false,
      notifyMarketing: false,
      deletedAt: sql`now()`,
      tokenVersion: sql`${accounts.tokenVersion} + 1`,
    })
    .where(and(eq(accounts.id, id), isNull(accounts.deletedAt)))
    .returning({ role: accounts.role });
  return row;
}

/**
 * An account that never proved its address, retired when the address's proven owner arrives
 * (docs/decisions/034-socket-and-sign-in-limits.md): the chat messages it sent and its weights are
 * deleted, the row is anonymised as a deleted account's is (bookings and payments keep their
 * records, under "Former member"), its links and tokens end, and every process is told. Answers
 * its role, as `anonymiseAccount` does.
 */
export async function retireUnprovenAccount(db: Q, id: string) {
  await db
    .delete(messages)
    .where(
      or(
        and(eq(messages.userId, id), eq(messages.senderRole, 'user')),
        and(eq(messages.trainerId, id), eq(messages.senderRole, 'trainer')),
      ),
    );
  await db.delete(weightEntries).where(eq(weightEntries.accountId, id));
  await cancelLinkTokens(db, id, ['verify', 'reset']);
  // the account trigger tells every process that its tokens ended (docs/caching.md)
  return anonymiseAccount(db, id);
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
    // RETURNING sees the new value: now() (the transaction's start) only when it was null before
    .returning({ role: accounts.role, wasVerified: sql<boolean>`${accounts.emailVerifiedAt} <> now()` });
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
}

type LinkPurpose = 'verify' | 'reset';

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

/**
 * The account a used, unexpired verification link verified, when it is still verified at the
 * address the link was mailed to: the link opened a second time. Links ended by an e-mail change
 * or a deletion never match (the address differs, or the account is gone).
 */
export async function findVerifiedByUsedLink(db: Q, tokenHash: string) {
  const [row] = await db
    .select({ role: accounts.role })
    .from(accountTokens)
    .innerJoin(accounts, eq(accounts.id, accountTokens.accountId))
    .where(
      and(
        eq(accountTokens.tokenHash, tokenHash),
        eq(accountTokens.purpose, 'verify'),
        isNotNull(accountTokens.usedAt),
        sql`${accountTokens.expiresAt} > now()`,
        sql`lower(${accounts.email}) = lower(${accountTokens.email})`,
        isNotNull(accounts.emailVerifiedAt),
        isNull(accounts.deletedAt),
      ),
    )
    .limit(1);
  return row;
}
