import { z } from 'zod';
import { defineJob } from '../../platform/jobs';

/** The money module's durable jobs and their payloads (platform/jobs.ts parses each before it runs). */
export const MONEY_JOBS = {
  /**
   * Every few minutes: shares due become payable, payouts the provider did not take are sent again
   * (same batch key), sent ones are settled. Recurring: each run enqueues the next.
   */
  sweep: defineJob('money.sweep', z.object({})),
  /** Once a day: every trainer with a payable balance and a payout address is paid in one batch. Recurring. */
  payouts: defineJob('money.payouts', z.object({})),
  /** The trainer's mail about a payout that came back (unclaimed, returned, failed). */
  returnedMail: defineJob('money.payout-returned-mail', z.object({ payoutId: z.string().uuid() })),
};

/** How long a job enqueued for this process to run at once is kept from the pollers. */
export const RUN_NOW_CLAIM_MS = 2 * 60_000;
