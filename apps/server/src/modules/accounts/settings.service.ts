import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { SERVER_MSG, SETTINGS_MSG, type Role, type TNotifications } from '@spotter/shared';
import type { Db } from '../../db/client';
import { accounts, favourites, images as imagesTable, weightEntries } from '../../db/schema';
import { badRequest, conflict, unauthorized } from '../../lib/app-error';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import type { TokenService } from '../../lib/tokens';
import type { ImagesService } from '../images/images.service';
import type { AccountsService } from './accounts.service';
import * as repo from './accounts.repo';

type Deps = { db: Db; tokens: TokenService; images: ImagesService; accounts: AccountsService };

/** The signed-in person's own settings. Every function takes the caller's id from the token. */
export function createSettingsService({ db, tokens, images, accounts: accountsService }: Deps) {
  async function own(id: string) {
    const row = await repo.findAccountById(db, id);
    if (!row) throw unauthorized(SERVER_MSG.badToken);
    return row;
  }

  return {
    async editProfile(
      id: string,
      role: Role,
      input: { firstName: string; lastName: string; email: string; title: string; description: string; price?: number },
    ): Promise<string> {
      const before = await own(id);
      const emailChanged = input.email.toLowerCase() !== before.email.toLowerCase();
      if (emailChanged) {
        const [taken] = await db
          .select({ id: accounts.id })
          .from(accounts)
          .where(and(eq(accounts.role, role), sql`lower(${accounts.email}) = ${input.email.toLowerCase()}`, ne(accounts.id, id)))
          .limit(1);
        if (taken) throw conflict(SERVER_MSG.emailTaken, { email: SERVER_MSG.emailTaken });
      }
      const [after] = await db
        .update(accounts)
        .set({
          firstName: input.firstName,
          lastName: input.lastName,
          email: input.email,
          title: input.title,
          description: input.description,
          ...(role === 'trainer' && input.price !== undefined ? { priceCents: input.price * 100 } : {}),
          ...(emailChanged ? { emailVerifiedAt: null } : {}),
        })
        .where(eq(accounts.id, id))
        .returning()
        .catch((err: { code?: string; cause?: { code?: string } }) => {
          if (err.code === '23505' || err.cause?.code === '23505') throw conflict(SERVER_MSG.emailTaken, { email: SERVER_MSG.emailTaken });
          throw err;
        });
      if (emailChanged) {
        await accountsService.sendVerification(after);
        return SETTINGS_MSG.profileSavedVerify;
      }
      return SETTINGS_MSG.profileSaved;
    },

    async setPhoto(id: string, picture: string): Promise<string> {
      if (!(await images.isOwnImage(id, picture))) throw badRequest(SETTINGS_MSG.notOurImage, { picture: SETTINGS_MSG.notOurImage });
      await db.update(accounts).set({ picture }).where(eq(accounts.id, id));
      return SETTINGS_MSG.photoSaved;
    },

    async editContact(id: string, input: { phone: string; website: string; weight: number; height: number }): Promise<string> {
      await db.transaction(async (tx) => {
        await tx.update(accounts).set(input).where(eq(accounts.id, id));
        await tx.insert(weightEntries).values({ accountId: id, weight: input.weight });
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
      if (!(await verifyPassword(row.passwordHash, oldPassword))) {
        throw badRequest(SETTINGS_MSG.wrongPassword, { oldPassword: SETTINGS_MSG.wrongPassword });
      }
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
      if (!(await verifyPassword(row.passwordHash, password))) {
        throw badRequest(SETTINGS_MSG.wrongPassword, { password: SETTINGS_MSG.wrongPassword });
      }
      await db.transaction(async (tx) => {
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
      });
      return SETTINGS_MSG.accountDeleted;
    },
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
