import type { Db } from '../../db/client';
import { newsletterSubscribers } from '../../db/schema';

/** Stores the address once; a repeat changes nothing. */
export async function insertSubscriber(db: Db, email: string): Promise<void> {
  await db.insert(newsletterSubscribers).values({ email }).onConflictDoNothing();
}
