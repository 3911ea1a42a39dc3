import { z } from 'zod';

/**
 * The console's overview (docs/product.md#the-overview): the last 30 days, one row per UTC day
 * (today included, every day present even when nothing happened), their sums, and what waits for
 * an operator. Money is in dollars.
 */
export const OVERVIEW_DAYS = 30;

/** A UTC calendar day as YYYY-MM-DD. */
const ZDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const measures = {
  /** Sessions booked and paid that day: confirmed, completed, refunded or no-show, created that day. */
  bookings: z.number().int(),
  /** Sessions cancelled or refunded that day (by when they were cancelled). */
  cancellations: z.number().int(),
  /**
   * Dollars payers paid that day, as the ledger took them from the provider: sessions by card,
   * packages and weekly series bought, and captures no booking took (refunded at once).
   */
  paid: z.number(),
  /** Dollars given back to payers that day: refunds and reversals, as the ledger booked them. */
  refunded: z.number(),
  /** Dollars paid out to trainers that day: payouts the provider reported paid. */
  paidOut: z.number(),
  /**
   * What Spotter's platform fees gained that day, in dollars, net: the fees of sessions paid by card
   * or from a balance and of an expired balance's rest, less what refunds, reversals and sessions
   * cancelled back to a balance gave back of them (below zero on a day that gave back more).
   */
  fees: z.number(),
  /** Users who signed up that day. */
  newUsers: z.number().int(),
  /** Trainers who signed up that day. */
  newTrainers: z.number().int(),
};

export const ZConsoleOverviewDay = z.object({ day: ZDay, ...measures });
export type TConsoleOverviewDay = z.infer<typeof ZConsoleOverviewDay>;

export const ZConsoleOverviewTotals = z.object(measures);
export type TConsoleOverviewTotals = z.infer<typeof ZConsoleOverviewTotals>;

/** GET /api/console/overview (operators only). */
export const ZConsoleOverviewResponse = z.object({
  /** The first day (29 days before `to`). */
  from: ZDay,
  /** Today (UTC). */
  to: ZDay,
  /** The 30 days, oldest first. */
  days: z.array(ZConsoleOverviewDay),
  totals: ZConsoleOverviewTotals,
  /** What waits for an operator now. */
  waiting: z.object({
    openReports: z.number().int(),
    openDisputes: z.number().int(),
    pendingVerifications: z.number().int(),
  }),
});
export type TConsoleOverviewResponse = z.infer<typeof ZConsoleOverviewResponse>;
