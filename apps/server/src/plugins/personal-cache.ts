import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import { CATALOGUE_CHANNEL, createReadCache, PERSONAL_CHANNEL, type ReadCache } from '../lib/read-cache';
import { ACCOUNT_CHANNEL } from '../modules/accounts/accounts.repo';

/**
 * People's own reads (chats, bookings, weekly hours) and free slots, kept per account until a
 * write concerns it (docs/decisions/024-personal-read-cache.md). The database names the accounts
 * a committed write to messages, bookings or weekly hours concerns (a trigger, whoever writes);
 * a profile or account change (names, photos, deletions) drops everything. A write's answer
 * leaves once these notifications have been handled (plugins/settled-writes.ts).
 */
export async function registerPersonalCache(app: FastifyInstance, database: Database): Promise<ReadCache> {
  const cache = createReadCache();
  app.decorate('personalCache', cache);
  app.addHook('onClose', await cache.listen(database, app.log, [CATALOGUE_CHANNEL, ACCOUNT_CHANNEL], [PERSONAL_CHANNEL]));
  return cache;
}
