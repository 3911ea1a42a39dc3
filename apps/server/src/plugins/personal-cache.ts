import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import { createNotifyBus } from '../lib/notify-bus';
import { CATALOGUE_CHANNEL, createReadCache, PERSONAL_CHANNEL, type ReadCache } from '../lib/read-cache';
import { ACCOUNT_CHANNEL } from '../modules/accounts/accounts.repo';
import { CHAT_CHANNEL, type ChatEvent } from '../modules/chats/chats.service';

/**
 * People's own reads (chats, bookings, weekly hours) and free slots, kept per account until a
 * write concerns it (docs/decisions/024-personal-read-cache.md). The database names the accounts
 * a committed write to bookings or weekly hours concerns (a trigger, whoever writes); each message
 * and read mark is announced on the chat channel with both accounts; a profile or account change
 * (names, photos, deletions) drops everything. A write's answer leaves once these notifications
 * have been handled (plugins/settled-writes.ts). Registered before the chat module, so a chat
 * notification drops the answers before the push that follows it goes out.
 */
export async function registerPersonalCache(app: FastifyInstance, database: Database): Promise<ReadCache> {
  const cache = createReadCache();
  app.decorate('personalCache', cache);
  app.addHook('onClose', await cache.listen(database, app.log, [CATALOGUE_CHANNEL, ACCOUNT_CHANNEL], [PERSONAL_CHANNEL]));
  const chat = createNotifyBus(database, app.log);
  await chat.subscribe(
    CHAT_CHANNEL,
    (payload) => {
      const event = JSON.parse(payload) as ChatEvent;
      cache.bumpScopes([event.u, event.t]);
    },
    () => cache.bump(),
  );
  app.addHook('onClose', () => chat.close());
  return cache;
}
