import { z } from 'zod';
import { ZId } from '@spotter/shared';
import type { Tx } from '../../db/client';
import { defineJob } from '../../platform/jobs';
import type { BookingsContext } from './context';

/**
 * Why a trainer's sessions end with their account: closed by the trainer (an operator's suspension
 * will be another reason). Each has the words its users see (cancel-trainer-sessions.ts).
 */
const TRAINER_LEFT_REASONS = ['account-deleted'] as const;
export type TrainerLeftReason = (typeof TRAINER_LEFT_REASONS)[number];

/** The bookings module's jobs about an account's end (platform/jobs.ts parses each payload before it runs). */
export const ACCOUNT_JOBS = {
  /**
   * A trainer left: their holds are released and every paid session that had not started at `since`
   * (when they left) is refunded in full (docs/decisions/042-money-ledger.md#a-trainer-who-leaves).
   */
  trainerLeft: defineJob(
    'booking.trainer-left',
    z.object({ trainerId: ZId, reason: z.enum(TRAINER_LEFT_REASONS), since: z.iso.datetime() }),
  ),
};

/**
 * Enqueues the job in the caller's transaction (the one that deletes the account), so the refunds
 * are owed from the moment the deletion commits and a crash after it still makes them; the pollers
 * run it.
 */
export async function enqueueTrainerLeft(
  ctx: Pick<BookingsContext, 'jobs' | 'now'>,
  tx: Tx,
  { trainerId, reason }: { trainerId: string; reason: TrainerLeftReason },
): Promise<number> {
  const at = ctx.now();
  return ctx.jobs.enqueue(tx, {
    kind: ACCOUNT_JOBS.trainerLeft,
    runAt: at,
    payload: { trainerId, reason, since: at.toISOString() },
  });
}
