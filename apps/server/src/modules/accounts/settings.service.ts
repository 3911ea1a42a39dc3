import { and, asc, desc, eq, ne, notInArray, sql } from 'drizzle-orm';
import { passwordLockedMessage, SERVER_MSG, SETTINGS_MSG, type Role, type TNotifications } from '@spotter/shared';
import type { Db } from '../../db/client';
import { accounts, favourites, images as imagesTable, weightEntries } from '../../db/schema';
import { badRequest, conflict, unauthorized } from '../../lib/app-error';
import { createFailureLimiter } from '../../lib/failure-limiter';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import type { TokenService } from '../../lib/tokens';
import type { ImagesService } from '../images/images.service';
import type { AccountsService } from './accounts.service';
import * as repo from './accounts.repo';
import type { AccountRow } from './accounts.repo';

type Deps = { db: Db; tokens: TokenService; images: ImagesService; accounts: AccountsService };

/** Wrong passwords per account on the settings screens before they answer 429 for a while. */
export const PASSWORD_TRIES = { max: 5, windowMs: 15 * 60_000 };
/** Each contact save adds a point to the weight chart; older points beyond this are dropped. */
export const WEIGHT_ENTRIES_MAX = 1000;

export type EditProfileInput = {
  firstName?: string;
  lastName?: string;
  email?: string;
  /** null clears; absent (or blank in the request) leaves it */
  title?: string | null;
  description?: string | null;
  currentPassword?: string;
  price?: number;
};

/** The signed-in person's own settings. Every function takes the caller's id from the token. */
export function createSettingsService({ db, tokens, images, accounts: accountsService }: Deps) {
  const passwordTries = createFailureLimiter(PASSWORD_TRIES);

  async function own(id: string) {
    const row = await repo.findAccountById(db, id);
    if (!row) throw unauthorized(SERVER_MSG.badToken);
    return row;
  }

  /** 400 under `field` for a wrong password; 429 after too many wrong ones for this account. */
  async function checkPassword(row: AccountRow, password: string, field: string) {
    const attempt = passwordTries.begin(row.id, passwordLockedMessage);
    if (!(await verifyPassword(row.passwordHash, password))) {
      throw badRequest(SETTINGS_MSG.wrongPassword, { [field]: SETTINGS_MSG.wrongPassword });
    }
    attempt.succeeded();
  }

  async function isEmailTaken(role: Role, email: string, id: string) {
    const [taken] = await db
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.role, role), sql`lower(${accounts.email}) = ${email.toLowerCase()}`, ne(accounts.id, id)))
      .limit(1);
    return !!taken;
  }

  return {
    /** Changes only the fields given; a new e-mail needs the current password and a new verification. */
    async editProfile(id: string, role: Role, input: EditProfileInput): Promise<string> {
      const before = await own(id);
      const emailChanged = input.email !== undefined && input.email.toLowerCase() !== before.email.toLowerCase();
      if (emailChanged) {
        if (!input.currentPassword) {
          throw badRequest(SETTINGS_MSG.currentPasswordForEmail, { currentPassword: SETTINGS_MSG.currentPasswordForEmail });
        }
        await checkPassword(before, input.currentPassword, 'currentPassword');
        if (await isEmailTaken(role, input.email!, id)) throw conflict(SERVER_MSG.emailTaken, { email: SERVER_MSG.emailTaken });
      }
      const changes: Partial<typeof accounts.$inferInsert> = {};
      if (input.firstName !== undefined) changes.firstName = input.firstName;
      if (input.lastName !== undefined) changes.lastName = input.lastName;
      if (input.title !== undefined) changes.title = input.title ?? '';
      if (input.description !== undefined) changes.description = input.description ?? '';
      if (role === 'trainer' && input.price !== undefined) changes.priceCents = Math.round(input.price * 100);
      if (emailChanged) Object.assign(changes, { email: input.email, emailVerifiedAt: null });
      if (Object.keys(changes).length > 0) {
        await db.transaction(async (tx) => {
          await tx
            .update(accounts)
            .set(changes)
            .where(eq(accounts.id, id))
            .catch((err: { code?: string; cause?: { code?: string } }) => {
              if (err.code === '23505' || err.cause?.code === '23505') throw conflict(SERVER_MSG.emailTaken, { email: SERVER_MSG.emailTaken });
              throw err;
            });
          // links mailed to the old address must not verify the new one, nor reset its password
          if (emailChanged) await repo.cancelLinkTokens(tx, id, ['verify', 'reset']);
        });
      }
      if (emailChanged) {
        await accountsService.sendVerification(await own(id));
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
      if (!picture) throw badRequest(SETTINGS_MSG.notOurImage, { picture: SETTINGS_MSG.notOurImage });
      await db.update(accounts).set({ picture }).where(eq(accounts.id, id));
      await images.pruneUnreferenced(id);
      return SETTINGS_MSG.photoSaved;
    },

    async editContact(id: string, input: { phone: string; website: string; weight: number; height: number }): Promise<string> {
      await db.transaction(async (tx) => {
        // the account row stays locked until commit, so one account's saves take turns
        await tx.update(accounts).set(input).where(eq(accounts.id, id));
        await tx.insert(weightEntries).values({ accountId: id, weight: input.weight });
        const newest = tx
          .select({ id: weightEntries.id })
          .from(weightEntries)
          .where(eq(weightEntries.accountId, id))
          .orderBy(desc(weightEntries.recordedAt), desc(weightEntries.id))
          .limit(WEIGHT_ENTRIES_MAX);
        await tx.delete(weightEntries).where(and(eq(weightEntries.accountId, id), notInArray(weightEntries.id, newest)));
      });
      return SETTINGS_MSG.contactSaved;
    },

    async weights(id: string) {
      const rows = await db
        .select({ weight: weightEntries.weight, recordedAt: weightEntries.recordedAt })
        .from(weightEntries)
        .where(eq(weightEntries.accountId, id))
        .orderBy(asc(weightEntries.recordedAt))
        .limit(1000);
      return rows.map((r) => ({ weight: r.weight, recordedAt: r.recordedAt.toISOString() }));
    },

    /** Ends every older token and answers a fresh one, so this browser stays signed in. */
    async changePassword(id: string, oldPassword: string, newPassword: string): Promise<string> {
      const row = await own(id);
      await checkPassword(row, oldPassword, 'oldPassword');
      await repo.setPassword(db, id, await hashPassword(newPassword));
      const fresh = await own(id);
      return tokens.sign({ id, role: fresh.role, tv: fresh.tokenVersion });
    },

    async setNotifications(id: string, n: TNotifications): Promise<string> {
      await db.update(accounts).set({ notifyAccount: n.account, notifyMarketing: n.marketing }).where(eq(accounts.id, id));
      return SETTINGS_MSG.notificationsSaved;
    },

    /**
     * Removes personal data and photos, keeps the row (its reviews show as "Former member"),
     * and ends every token, all in one transaction.
     */
    async deleteAccount(id: string, password: string): Promise<string> {
      const row = await own(id);
      await checkPassword(row, password, 'password');
      await db.transaction(async (tx) => {
        await repo.cancelLinkTokens(tx, id, ['verify', 'reset']);
        await tx.delete(imagesTable).where(eq(imagesTable.ownerId, id));
        await tx.delete(weightEntries).where(eq(weightEntries.accountId, id));
        await tx.delete(favourites).where(eq(favourites.userId, id));
        await tx
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
          .where(eq(accounts.id, id));
        await repo.announceAccountChanged(tx, id);
      });
      return SETTINGS_MSG.accountDeleted;
    },
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
