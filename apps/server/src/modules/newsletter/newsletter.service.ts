import { NEWSLETTER_MSG } from '@spotter/shared';
import type { Db } from '../../db/client';
import * as repo from './newsletter.repo';

export function createNewsletterService({ db }: { db: Db }) {
  return {
    /** A repeat is a success too (docs/product.md#newsletter). */
    async subscribe(email: string): Promise<string> {
      await repo.insertSubscriber(db, email);
      return NEWSLETTER_MSG.subscribed;
    },
  };
}
export type NewsletterService = ReturnType<typeof createNewsletterService>;
