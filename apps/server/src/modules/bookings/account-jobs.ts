import { z } from 'zod';
import { ZId } from '@spotter/shared';
import type { Tx } from '../../db/client';
import { defineJob } from '../../platform/jobs';
import type { BookingsContext } from './context';

/**
 * Why an account's sessions end with it: the account deleted (by its owner or an operator) or
 * suspended by an operator. Each has the words the other side sees (cancel-account-sessions.ts).
 */
const ACCOUNT_LEFT_REASONS = ['account-deleted', 'suspended'] as const;
export type AccountLeftReason = (typeof ACCOUNT_LEFT_REASONS)[number];

/** The bookings module's jobs about an account's end (platform/jobs.ts parses each payload before it runs). */
export const ACCOUNT_JOBS = {
  /**
   * A trainer left: their holds are released and every paid session that had not started at `since`
   * (when they left) is refunded in full (docs/decisions/042-money-ledger.md#a-trainer-who-leaves).
   */
  trainerLeft: defineJob(
    'booking.trainer-left',
    z.object({ trainerId: ZId, reason: z.enum(ACCOUNT_LEFT_REASONS), since: z.iso.datetime() }),
  ),
  /**
   * A user left by an operator's hand (suspended or deleted): their holds are released, every paid
   * session that had not started at `since` is refunded in full, and their package balances too
   * (docs/product.md#suspending-an-account).
   */
  userLeft: defineJob(
    'booking.user-left',
    z.object({ userId: ZId, reason: z.enum(ACCOUNT_LEFT_REASONS), since: z.iso.datetime() }),
  ),
};

/**
 * Enqueues the job in the caller's transaction (the one that deletes the account), so the refunds
 * are owed from the moment the deletion commits and a crash after it still makes them; the pollers
 * run it.
 */
export async function enqueueAccountLeft(
  ctx: Pick<BookingsContext, 'jobs' | 'now'>,
  tx: Tx,
  { who, reason }: { who: { role: 'user' | 'trainer'; id: string }; reason: AccountLeftReason },
): Promise<number> {
  const at = ctx.now();
  const since = at.toISOString();
  return who.role === 'trainer'
    ? ctx.jobs.enqueue(tx, { kind: ACCOUNT_JOBS.trainerLeft, runAt: at, payload: { trainerId: who.id, reason, since } })
    : ctx.jobs.enqueue(tx, { kind: ACCOUNT_JOBS.userLeft, runAt: at, payload: { userId: who.id, reason, since } });
}
