import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import {
  suspendedMessage,
  SERVER_MSG,
  type Role,
  type TOwnAccount,
  type TOwnTrainer,
  type ZTrainerSignUpRequest,
  type ZUserSignUpRequest,
} from '@spotter/shared';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { fromCents, toCents } from '../../lib/money';
import { getDummyHash, hashPassword, verifyPassword } from '../../lib/passwords';
import { hashLinkToken, newLinkToken, type TokenService } from '../../lib/tokens';
import { passwordResetMail, verificationMail, type Mailer } from '../mail';
import * as repo from './accounts.repo';
import type { AccountChanges, OwnAccountRow } from './accounts.repo';

export type { AccountChanges };

const VERIFY_TTL_MS = 48 * 60 * 60 * 1000;
const RESET_TTL_MS = 60 * 60 * 1000;

/**
 * A suspended account signs in nowhere: the person reads the operator's reason, after the password
 * (or Google) proved who they are, so the answer tells a stranger nothing (docs/product.md#suspending-an-account).
 */
export function refuseSuspended(row: { suspendedAt: Date | null; suspensionReason: string | null }) {
  if (row.suspendedAt) throw new AppError('ACCOUNT_SUSPENDED', suspendedMessage(row.suspensionReason ?? ''));
}

/** A just-created account, as the modules that keep something of their own for it need it. */
export type RegisteredAccount = { id: string; role: Role; weight: number };
/**
 * Called inside the transaction that creates an account (sign-up, a first Google sign-in), so the
 * account never exists without what the hook writes; the app wires other modules' services to it.
 */
export type OnRegistered = (tx: Tx, account: RegisteredAccount) => Promise<void>;
/**
 * Called inside the transaction that deletes an account, so what other modules owe on it (a trainer's
 * paid sessions refunded, docs/decisions/042-money-ledger.md#a-trainer-who-leaves) is recorded
 * with the deletion or not at all. The app wires it: this module imports no module that imports it.
 */
export type OnDeleted = (tx: Tx, account: { id: string; role: Role }) => Promise<void>;

type Deps = {
  db: Db;
  tokens: TokenService;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
  onRegistered?: OnRegistered;
  onDeleted?: OnDeleted;
};

export function toOwnAccount(row: OwnAccountRow): TOwnAccount {
  return {
    _id: row.id,
    role: row.role,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    emailVerified: row.emailVerifiedAt !== null,
    title: row.title,
    description: row.description,
    phone: row.phone,
    gender: row.gender,
    age: row.age,
    height: row.height,
    weight: row.weight,
    picture: row.picture,
    city: row.city,
    country: row.country,
    website: row.website,
    notifications: { account: row.notifyAccount, marketing: row.notifyMarketing },
    createdAt: row.createdAt.toISOString(),
  };
}

export const toOwnTrainer = (row: OwnAccountRow): TOwnTrainer => ({
  ...toOwnAccount(row),
  price: fromCents(row.priceCents ?? 0),
  rating: Number(row.ratingAvg),
  ratingCount: row.ratingCount,
  profileHidden: row.profileHiddenAt !== null,
});

export function createAccountsService({ db, tokens, mailer, publicUrl, log, onRegistered, onDeleted }: Deps) {
  async function sendVerification(row: { id: string; email: string; firstName: string }) {
    const { token, hash } = newLinkToken();
    await repo.insertLinkToken(db, {
      accountId: row.id,
      purpose: 'verify',
      email: row.email,
      tokenHash: hash,
      expiresAt: new Date(Date.now() + VERIFY_TTL_MS),
    });
    const link = `${publicUrl}/api/verify?token=${token}`;
    await mailer
      .send(verificationMail(row.email, row.firstName, link))
      .catch((err) => log.error({ err, to: row.email }, 'verification mail failed'));
  }

  return {
    sendVerification,

    async register(
      role: Role,
      input: z.output<typeof ZUserSignUpRequest> | z.output<typeof ZTrainerSignUpRequest>,
    ): Promise<string> {
      const passwordHash = await hashPassword(input.password);
      const row = await db.transaction(async (tx) => {
        const created = await repo.insertAccount(tx, {
          role,
          email: input.email,
          passwordHash,
          firstName: input.firstName,
          lastName: input.lastName,
          phone: input.phone,
          gender: input.gender,
          age: input.age,
          height: input.height,
          weight: input.weight,
          // absent for a user who gave none: the columns' defaults ('' and Egypt) apply
          city: input.city,
          country: input.country,
          priceCents: role === 'trainer' && 'price' in input ? toCents(input.price) : null,
        });
        if (created && onRegistered) await onRegistered(tx, { id: created.id, role, weight: input.weight });
        return created;
      });
      if (!row) throw new AppError('EMAIL_TAKEN', SERVER_MSG.emailTaken, { email: SERVER_MSG.emailTaken });
      await sendVerification(row);
      return role === 'trainer' ? SERVER_MSG.trainerRegistered : SERVER_MSG.userRegistered;
    },

    async login(role: Role, email: string, password: string): Promise<string> {
      const row = await repo.findCredentialsByEmail(db, role, email);
      // An unknown e-mail costs the same hash check as a wrong password: no account enumeration.
      const ok = await verifyPassword(row?.passwordHash ?? (await getDummyHash()), password);
      if (!row || !ok) throw new AppError('INVALID_CREDENTIALS', SERVER_MSG.badCredentials);
      refuseSuspended(row);
      return tokens.sign({ id: row.id, role: row.role, tv: row.tokenVersion });
    },

    /** The caller's own account (no password hash); 401 when it is gone. */
    async getOwn(id: string, q: Db | Tx = db): Promise<OwnAccountRow> {
      const row = await repo.findAccountById(q, id);
      if (!row) throw new AppError('TOKEN_INVALID', SERVER_MSG.badToken);
      return row;
    },

    /** Whether `password` is this account's; false for a deleted one. */
    async isPasswordOf(id: string, password: string): Promise<boolean> {
      const row = await repo.findCredentialsById(db, id);
      return !!row && (await verifyPassword(row.passwordHash, password));
    },

    isVerified: (id: string) => repo.isVerifiedAccount(db, id),
    isEmailTaken: (role: Role, email: string, exceptId: string) => repo.isEmailTaken(db, role, email, exceptId),

    /** Changes the given columns; a unique-address clash (a race past isEmailTaken) is EMAIL_TAKEN. */
    async update(id: string, changes: AccountChanges, q: Db | Tx = db): Promise<void> {
      await repo.updateAccount(q, id, changes).catch((err: { code?: string; cause?: { code?: string } }) => {
        if (err.code === '23505' || err.cause?.code === '23505')
          throw new AppError('EMAIL_TAKEN', SERVER_MSG.emailTaken, { email: SERVER_MSG.emailTaken });
        throw err;
      });
    },

    /** Ends the account's open mailed links (an e-mail change: they were sent to the old address). */
    cancelLinks: (id: string, q: Db | Tx = db) => repo.cancelLinkTokens(q, id, ['verify', 'reset']),

    /** A new password hash; every older token and open reset link stops working. */
    setPassword: (id: string, passwordHash: string) => repo.setPassword(db, id, passwordHash),

    /** Blanks the personal data, keeps the row, ends every token and open link (the database tells the sockets). */
    async anonymise(id: string, tx: Tx): Promise<void> {
      await repo.cancelLinkTokens(tx, id, ['verify', 'reset']);
      const deleted = await repo.anonymiseAccount(tx, id);
      if (deleted && onDeleted) await onDeleted(tx, { id, role: deleted.role });
    },

    /**
     * Answers the role of the verified account, and `already` when it was verified before (a link
     * opened twice); null when the link is unknown or old, or was mailed to an address the account
     * no longer has.
     */
    async verifyEmail(token: string | undefined): Promise<{ role: Role; already: boolean } | null> {
      if (!token) return null;
      const hash = hashLinkToken(token);
      const used = await repo.consumeLinkToken(db, 'verify', hash);
      if (!used) {
        const again = await repo.findVerifiedByUsedLink(db, hash);
        return again ? { role: again.role, already: true } : null;
      }
      const verified = await repo.markEmailVerified(db, used.accountId, used.email);
      return verified ? { role: verified.role, already: verified.wasVerified } : null;
    },

    async resendVerification(id: string): Promise<string> {
      const row = await repo.findAccountById(db, id);
      if (!row) throw new AppError('TOKEN_INVALID', SERVER_MSG.badToken);
      if (row.emailVerifiedAt) return SERVER_MSG.alreadyVerified;
      await sendVerification(row);
      return SERVER_MSG.verifySent;
    },

    /** Same answer whether or not the account exists. */
    async requestPasswordReset(role: Role, email: string): Promise<string> {
      const row = await repo.findCredentialsByEmail(db, role, email);
      if (row) {
        const { token, hash } = newLinkToken();
        await repo.insertLinkToken(db, {
          accountId: row.id,
          purpose: 'reset',
          email: row.email,
          tokenHash: hash,
          expiresAt: new Date(Date.now() + RESET_TTL_MS),
        });
        const link = `${publicUrl}/reset-password?token=${token}&role=${row.role}`;
        await mailer
          .send(passwordResetMail(row.email, row.firstName, link))
          .catch((err) => log.error({ err, to: row.email }, 'reset mail failed'));
      }
      return SERVER_MSG.resetRequested;
    },

    async resetPassword(token: string, password: string): Promise<string> {
      const passwordHash = await hashPassword(password);
      await db.transaction(async (tx) => {
        const used = await repo.consumeLinkToken(tx, 'reset', hashLinkToken(token));
        // whoever could read the mail owns the address, as long as it is still the account's
        const owner = used && (await repo.markEmailVerified(tx, used.accountId, used.email));
        if (!used || !owner) throw new AppError('LINK_INVALID', SERVER_MSG.resetInvalid, { token: SERVER_MSG.resetInvalid });
        await repo.setPassword(tx, used.accountId, passwordHash);
      });
      return SERVER_MSG.resetDone;
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;

/** Other modules (chat sockets) learn of password changes and deletions on this channel. */
