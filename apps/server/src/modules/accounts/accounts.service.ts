import type { FastifyBaseLogger } from 'fastify';
import {
  SERVER_MSG,
  type Role,
  type TOwnAccount,
  type TOwnTrainer,
  type TPublicTrainer,
} from '@spotter/shared';
import type { Db } from '../../db/client';
import { badRequest, conflict, unauthorized } from '../../lib/app-error';
import { getDummyHash, hashPassword, verifyPassword } from '../../lib/passwords';
import { hashLinkToken, newLinkToken, type TokenService } from '../../lib/tokens';
import { passwordResetMail, verificationMail, type Mailer } from '../mail/mail.service';
import * as repo from './accounts.repo';
import type { AccountRow } from './accounts.repo';

const VERIFY_TTL_MS = 48 * 60 * 60 * 1000;
const RESET_TTL_MS = 60 * 60 * 1000;

export type SignUpInput = {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  phone: string;
  age: number;
  gender: 'male' | 'female';
  height: number;
  weight: number;
  price?: number;
};

type Deps = { db: Db; tokens: TokenService; mailer: Mailer; publicUrl: string; log: FastifyBaseLogger };

export function toOwnAccount(row: AccountRow): TOwnAccount {
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

const trainerNumbers = (row: AccountRow) => ({
  price: Math.round((row.priceCents ?? 0) / 100),
  rating: Number(row.ratingAvg),
  ratingCount: row.ratingCount,
});

export const toOwnTrainer = (row: AccountRow): TOwnTrainer => ({ ...toOwnAccount(row), ...trainerNumbers(row) });

export const toPublicTrainer = (row: AccountRow): TPublicTrainer => ({
  _id: row.id,
  firstName: row.firstName,
  lastName: row.lastName,
  title: row.title,
  description: row.description,
  picture: row.picture,
  city: row.city,
  country: row.country,
  gender: row.gender,
  ...trainerNumbers(row),
});

export function createAccountsService({ db, tokens, mailer, publicUrl, log }: Deps) {
  async function sendVerification(row: AccountRow) {
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

    async register(role: Role, input: SignUpInput): Promise<string> {
      const passwordHash = await hashPassword(input.password);
      const row = await repo.insertAccount(db, {
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
        priceCents: role === 'trainer' ? Math.round((input.price ?? 0) * 100) : null,
      });
      if (!row) throw conflict(SERVER_MSG.emailTaken, { email: SERVER_MSG.emailTaken });
      await sendVerification(row);
      return role === 'trainer' ? SERVER_MSG.trainerRegistered : SERVER_MSG.userRegistered;
    },

    async login(role: Role, email: string, password: string): Promise<string> {
      const row = await repo.findAccountByEmail(db, role, email);
      // An unknown e-mail costs the same hash check as a wrong password: no account enumeration.
      const ok = await verifyPassword(row?.passwordHash ?? (await getDummyHash()), password);
      if (!row || !ok) throw unauthorized(SERVER_MSG.badCredentials);
      return tokens.sign({ id: row.id, role: row.role, tv: row.tokenVersion });
    },

    async getOwn(id: string): Promise<AccountRow> {
      const row = await repo.findAccountById(db, id);
      if (!row) throw unauthorized(SERVER_MSG.badToken);
      return row;
    },

    /**
     * Answers the role of the verified account, or null when the link is unknown, used or old, or
     * was mailed to an address the account no longer has.
     */
    async verifyEmail(token: string | undefined): Promise<Role | null> {
      if (!token) return null;
      const used = await repo.consumeLinkToken(db, 'verify', hashLinkToken(token));
      if (!used) return null;
      const verified = await repo.markEmailVerified(db, used.accountId, used.email);
      return verified?.role ?? null;
    },

    async resendVerification(id: string): Promise<string> {
      const row = await repo.findAccountById(db, id);
      if (!row) throw unauthorized(SERVER_MSG.badToken);
      if (row.emailVerifiedAt) return SERVER_MSG.alreadyVerified;
      await sendVerification(row);
      return SERVER_MSG.verifySent;
    },

    /** Same answer whether or not the account exists. */
    async requestPasswordReset(role: Role, email: string): Promise<string> {
      const row = await repo.findAccountByEmail(db, role, email);
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
        if (!used || !owner) throw badRequest(SERVER_MSG.resetInvalid, { token: SERVER_MSG.resetInvalid });
        await repo.setPassword(tx, used.accountId, passwordHash);
      });
      return SERVER_MSG.resetDone;
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;

/** Other modules (chat sockets) learn of password changes and deletions on this channel. */
export { ACCOUNT_CHANNEL, announceAccountChanged } from './accounts.repo';
