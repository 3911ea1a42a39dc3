import type { Db, Tx } from '../../src/db/client';
import { CHANNELS, notify } from '../../src/platform/events';

/**
 * Stages the account channel's notification without a change to the account (the database's
 * trigger sends it for every real one, docs/caching.md): every process closes that account's
 * sockets whose token no longer holds. With a transaction, it is delivered after the commit.
 */
export async function announceAccountChanged(q: Db | Tx, accountId: string): Promise<void> {
  await notify(q, CHANNELS.account, accountId);
}
