import type { z } from 'zod';
import {
  passwordLockedMessage,
  SERVER_MSG,
  SETTINGS_MSG,
  type Role,
  type TNotifications,
  type ZContactRequest,
  type ZEditTrainerProfileRequest,
} from '@spotter/shared';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { createFailureLimiter } from '../../platform/failure-limiter';
import { toCents } from '../../lib/money';
import { hashPassword } from '../../lib/passwords';
import type { TokenService } from '../../lib/tokens';
import type { AccountChanges, AccountsService, RegisteredAccount } from '../accounts';
import type { FavouritesService } from '../favourites';
import type { ImagesService } from '../images';
import * as repo from './settings.repo';

type Deps = {
  db: Db;
  tokens: TokenService;
  accounts: AccountsService;
  images: ImagesService;
  favourites: FavouritesService;
};

/** Wrong passwords per account on the settings screens before they answer 429 for a while. */
const PASSWORD_TRIES = { max: 5, windowMs: 15 * 60_000 };
/** Each contact save adds a point to the weight chart; older points beyond this are dropped. */
export const WEIGHT_ENTRIES_MAX = 1000;

/**
 * The accounts module's `onRegistered` hook (wired in app.ts): the weight given at sign-up is the
 * first point of the chart, written in the transaction that creates the account. An account made
 * without a weight (Google sign-in stores 0) starts with an empty chart until one is saved.
 */
export async function recordSignUpWeight(tx: Tx, account: Pick<RegisteredAccount, 'id' | 'weight'>): Promise<void> {
  if (account.weight > 0) await repo.addWeightEntry(tx, account.id, account.weight, WEIGHT_ENTRIES_MAX);
}

/** The signed-in person's own settings. Every function takes the caller's id from the token. */
export function createSettingsService({ db, tokens, accounts, images, favourites }: Deps) {
  const passwordTries = createFailureLimiter(PASSWORD_TRIES);

  /** 400 under `field` for a wrong password; 429 after too many wrong ones for this account. */
  async function checkPassword(id: string, password: string, field: string) {
    const attempt = passwordTries.begin(id, passwordLockedMessage);
    if (!(await accounts.isPasswordOf(id, password))) {
      throw new AppError('WRONG_PASSWORD', SETTINGS_MSG.wrongPassword, { [field]: SETTINGS_MSG.wrongPassword });
    }
    attempt.succeeded();
  }

  /**
   * Removes personal data, photos, weights and favourites, keeps the row (its reviews show as
   * "Former member"), and ends every token: each module removes its own, in `tx`.
   */
  async function removeAccount(id: string, tx: Tx): Promise<void> {
    await images.removeAllOf(id, tx);
    await repo.deleteWeightsOf(tx, id);
    await favourites.removeAllOf(id, tx);
    await accounts.anonymise(id, tx);
  }

  return {
    /**
     * Changes only the fields given (the user route's schema has no price, the trainer's has); a
     * new e-mail needs the current password and a new verification.
     */
    async editProfile(id: string, role: Role, input: z.output<typeof ZEditTrainerProfileRequest>): Promise<string> {
      const before = await accounts.getOwn(id);
      const emailChanged = input.email !== undefined && input.email.toLowerCase() !== before.email.toLowerCase();
      if (emailChanged) {
        if (!input.currentPassword) {
          throw new AppError('VALIDATION_FAILED', SETTINGS_MSG.currentPasswordForEmail, {
            currentPassword: SETTINGS_MSG.currentPasswordForEmail,
          });
        }
        await checkPassword(id, input.currentPassword, 'currentPassword');
        if (await accounts.isEmailTaken(role, input.email!, id))
          throw new AppError('EMAIL_TAKEN', SERVER_MSG.emailTaken, { email: SERVER_MSG.emailTaken });
      }
      const changes: AccountChanges = {};
      if (input.firstName !== undefined) changes.firstName = input.firstName;
      if (input.lastName !== undefined) changes.lastName = input.lastName;
      if (input.title !== undefined) changes.title = input.title ?? '';
      if (input.description !== undefined) changes.description = input.description ?? '';
      if (input.city !== undefined) changes.city = input.city;
      if (input.country !== undefined) changes.country = input.country;
      if (role === 'trainer' && input.price !== undefined) changes.priceCents = toCents(input.price);
      if (emailChanged) Object.assign(changes, { email: input.email, emailVerifiedAt: null });
      if (Object.keys(changes).length > 0) {
        await db.transaction(async (tx) => {
          await accounts.update(id, changes, tx);
          // links mailed to the old address must not verify the new one, nor reset its password
          if (emailChanged) await accounts.cancelLinks(id, tx);
        });
      }
      if (emailChanged) {
        await accounts.sendVerification(await accounts.getOwn(id));
        return SETTINGS_MSG.profileSavedVerify;
      }
      return SETTINGS_MSG.profileSaved;
    },

    /**
     * Stores the image's relative address, whichever form (relative or absolute) was sent, then
     * removes the owner's photos that nothing shows any more (the old one among them).
     */
    async setPhoto(id: string, url: string): Promise<string> {
      const picture = await images.resolveOwnImage(id, url);
      if (!picture) throw new AppError('VALIDATION_FAILED', SETTINGS_MSG.notOurImage, { picture: SETTINGS_MSG.notOurImage });
      await accounts.update(id, { picture });
      await images.pruneUnreferenced(id);
      return SETTINGS_MSG.photoSaved;
    },

    async editContact(id: string, input: z.output<typeof ZContactRequest>): Promise<string> {
      await db.transaction(async (tx) => {
        // the account row stays locked until commit, so one account's saves take turns
        await accounts.update(id, input, tx);
        await repo.addWeightEntry(tx, id, input.weight, WEIGHT_ENTRIES_MAX);
      });
      return SETTINGS_MSG.contactSaved;
    },

    async weights(id: string) {
      const rows = await repo.findWeights(db, id, WEIGHT_ENTRIES_MAX);
      return rows.map((r) => ({ weight: r.weight, recordedAt: r.recordedAt.toISOString() }));
    },

    /** Ends every older token and answers a fresh one, so this browser stays signed in. */
    async changePassword(id: string, oldPassword: string, newPassword: string): Promise<string> {
      await accounts.getOwn(id);
      await checkPassword(id, oldPassword, 'oldPassword');
      await accounts.setPassword(id, await hashPassword(newPassword));
      const fresh = await accounts.getOwn(id);
      return tokens.sign({ id, role: fresh.role, tv: fresh.tokenVersion });
    },

    async setNotifications(id: string, n: TNotifications): Promise<string> {
      await accounts.update(id, { notifyAccount: n.account, notifyMarketing: n.marketing });
      return SETTINGS_MSG.notificationsSaved;
    },

    /**
     * Removes personal data, photos, weights and favourites, keeps the row (its reviews show as
     * "Former member"), and ends every token, all in one transaction: each module removes its own.
     */
    async deleteAccount(id: string, password: string): Promise<string> {
      await accounts.getOwn(id);
      await checkPassword(id, password, 'password');
      await db.transaction((tx) => removeAccount(id, tx));
      return SETTINGS_MSG.accountDeleted;
    },

    /** The deletion without the password, in the caller's transaction: an operator's (modules/console). */
    removeAccount,
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
