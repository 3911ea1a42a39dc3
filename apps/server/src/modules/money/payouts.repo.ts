import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, jobs, paymentEvents, payouts } from '../../db/schema';

type Q = Db | Tx;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export type PayoutRow = typeof payouts.$inferSelect;

/** A trainer's payout address: undefined when there is no such trainer, null when none is set. */
export async function payoutEmailOf(db: Q, trainerId: string): Promise<string | null | undefined> {
  const [row] = await db
    .select({ email: accounts.payoutEmail })
    .from(accounts)
    .where(and(eq(accounts.id, trainerId), eq(accounts.role, 'trainer')))
    .limit(1);
  return row ? row.email : undefined;
}

export async function setPayoutEmail(db: Q, trainerId: string, email: string | null): Promise<void> {
  await db.update(accounts).set({ payoutEmail: email }).where(eq(accounts.id, trainerId));
}

/** Who a payout's mail goes to: the trainer's own account (not the payout address that failed). */
export async function trainerContact(db: Q, trainerId: string) {
  const [row] = await db
    .select({ email: accounts.email, firstName: accounts.firstName, deletedAt: accounts.deletedAt })
    .from(accounts)
    .where(eq(accounts.id, trainerId))
    .limit(1);
  return row;
}

/** A session's share that is due: its `payment` moved `amountCents` into the trainer's pending account. */
type DueShare = { bookingId: string; trainerId: string; currency: string; amountCents: number };

/**
 * Whether the time to dispute the session `b` ended by `at`: its end plus the dispute hours of the
 * policy frozen on it, or `defaultHours` (POLICY_V1's) for a session booked before policies were
 * (docs/decisions/050-payable-after-the-dispute-window.md).
 */
const disputeWindowClosed = (at: Date, defaultHours: number) =>
  sql`b.ends_at + coalesce((b.policy->>'disputeHours')::numeric, ${defaultHours}) * interval '1 hour' <= ${at.toISOString()}::timestamptz`;

/**
 * Paid sessions whose dispute window closed by `at` (docs/decisions/050-payable-after-the-dispute-window.md)
 * and are still the trainer's (confirmed, completed or a no-show: cancelled and refunded ones are
 * left out, and so is any with a refund, written or in the ledger), whose share is not payable yet.
 * A session disputed in Spotter, or whose payment (or the balance that paid for it) has an open
 * dispute at the provider, is left out until the dispute is decided or resolved.
 */
export async function dueShares(db: Q, at: Date, defaultDisputeHours: number, limit = 200): Promise<DueShare[]> {
  const result = await db.execute(sql`
    select b.id as booking_id, b.trainer_id, e.currency, sum(e.amount_cents)::text as cents
    from bookings b
    -- the share as the ledger holds it: paid, less what a refund or a reversal took back
    -- (a session paid from a package balance: redeemed, less a cancellation's unredeem)
    join ledger_transactions t on t.booking_id = b.id and t.kind in ('payment', 'refund', 'reversal', 'redeem', 'unredeem')
    join ledger_entries e on e.transaction_id = t.id and e.account = 'trainer:' || b.trainer_id::text || ':pending'
    where b.status in ('confirmed', 'completed', 'no-show')
      and ${disputeWindowClosed(at, defaultDisputeHours)}
      and not exists (select 1 from ledger_transactions x where x.booking_id = b.id and x.kind = 'payable')
      -- a refund written and not finished yet (the provider did not answer): the money may be going back
      and not exists (select 1 from refunds r where r.booking_id = b.id and r.status = 'requested')
      -- a dispute of the session its user opened in Spotter, not decided yet (docs/decisions/047-disputes-by-rule.md)
      and not exists (select 1 from disputes d where d.booking_id = b.id and d.status = 'open')
      -- a dispute the payer opened and that is not resolved yet: the money may be going back
      and not exists (
        select 1 from payments p
        join payment_events o on o.provider = p.provider and o.provider_order_id = p.provider_order_id
          and o.kind = 'dispute-opened'
        where p.booking_id = b.id and not exists (
          select 1 from payment_events c where c.provider = o.provider and c.provider_order_id = o.provider_order_id
            and c.kind = 'dispute-resolved' and c.details->>'disputeId' = o.details->>'disputeId'
        )
      )
      -- the same of the capture of the balance that paid for it (a package, a weekly series by card)
      and not exists (
        select 1 from package_balances pb
        join payment_events o on o.provider = pb.provider and o.provider_order_id = pb.provider_order_id
          and o.kind = 'dispute-opened'
        where pb.id = b.balance_id and not exists (
          select 1 from payment_events c where c.provider = o.provider and c.provider_order_id = o.provider_order_id
            and c.kind = 'dispute-resolved' and c.details->>'disputeId' = o.details->>'disputeId'
        )
      )
    group by b.id, b.trainer_id, e.currency
    having sum(e.amount_cents) > 0
    order by b.id
    limit ${limit}`);
  return rowsOf<{ booking_id: string; trainer_id: string; currency: string; cents: string }>(result).map((r) => ({
    bookingId: r.booking_id,
    trainerId: r.trainer_id,
    currency: r.currency,
    amountCents: Number(r.cents),
  }));
}

/**
 * Holds, to the end of the transaction, the lock of one session's share: taken by whatever reads
 * the share to move it (the sweep making it payable, a refund made at the provider taking it back:
 * the bookings module's payments.repo lockShare takes the same lock), so neither posts what it read
 * before the other's posting.
 */
export async function lockShare(tx: Tx, bookingId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`share:${bookingId}`}, 0))`);
}

/**
 * Read under the share's lock before it is made payable: the session's dispute window closed by
 * `at` and no dispute of it is open. Opening a dispute takes the same lock to insert it
 * (modules/bookings/disputes.ts openDispute), so one committed after dueShares read the share is seen here.
 */
export async function stillDueAfterDisputes(tx: Tx, bookingId: string, at: Date, defaultDisputeHours: number): Promise<boolean> {
  const result = await tx.execute(sql`
    select 1 as due from bookings b
    where b.id = ${bookingId} and ${disputeWindowClosed(at, defaultDisputeHours)}
      and not exists (select 1 from disputes d where d.booking_id = b.id and d.status = 'open')`);
  return rowsOf<{ due: number }>(result).length > 0;
}

/** A session's share still in the trainer's pending account, as the ledger holds it now (dueShares' sum, for one). */
export async function pendingShareOf(tx: Tx, share: { bookingId: string; trainerId: string; currency: string }): Promise<number> {
  const result = await tx.execute(sql`
    select coalesce(sum(e.amount_cents), 0)::text as cents
    from ledger_transactions t
    join ledger_entries e on e.transaction_id = t.id
    where t.booking_id = ${share.bookingId} and t.kind in ('payment', 'refund', 'reversal', 'redeem', 'unredeem')
      and e.account = ${`trainer:${share.trainerId}:pending`} and e.currency = ${share.currency}`);
  return Number(rowsOf<{ cents: string }>(result)[0]?.cents ?? 0);
}

/** What a session's refunds and reversals took from Spotter's losses (its share had been paid out), net of what was taken back since. */
export async function lostOnBooking(tx: Tx, bookingId: string, currency: string): Promise<number> {
  const result = await tx.execute(sql`
    select coalesce(-sum(e.amount_cents), 0)::text as cents
    from ledger_transactions t
    join ledger_entries e on e.transaction_id = t.id
    where t.booking_id = ${bookingId} and e.account = 'platform:losses' and e.currency = ${currency}`);
  return Number(rowsOf<{ cents: string }>(result)[0]?.cents ?? 0);
}

/** Trainers with a payout address and a payable balance above zero, per currency (not to an address a payout came back from). */
export async function payableTrainers(
  db: Q,
): Promise<Array<{ trainerId: string; email: string; currency: string; amountCents: number }>> {
  const result = await db.execute(sql`
    select a.id as trainer_id, a.payout_email as email, p.currency, p.cents::text as cents
    from (
      select account, currency, sum(amount_cents) as cents
      from ledger_entries
      where account like 'trainer:%:payable'
      group by account, currency
      having sum(amount_cents) > 0
    ) p
    join accounts a on p.account = 'trainer:' || a.id::text || ':payable'
    where a.payout_email is not null
      -- a payout that came back from this very address is not sent there again: the trainer was
      -- told to check it, and the next payout waits for a new address
      and coalesce((
        select lp.status = 'returned' and lp.email = a.payout_email
          and lp.provider_status is distinct from 'REFUSED' -- a refused batch says nothing of the address
        from payouts lp where lp.trainer_id = a.id
        order by lp.created_at desc, lp.id desc limit 1
      ), false) = false
    order by a.id, p.currency`);
  return rowsOf<{ trainer_id: string; email: string; currency: string; cents: string }>(result).map((r) => ({
    trainerId: r.trainer_id,
    email: r.email,
    currency: r.currency,
    amountCents: Number(r.cents),
  }));
}

/** The sessions whose shares are payable and in no payout yet (a returned payout's are again). */
export async function unpaidPayableBookings(db: Q, trainerId: string): Promise<string[]> {
  const result = await db.execute(sql`
    select t.booking_id from ledger_transactions t
    where t.kind = 'payable' and t.trainer_id = ${trainerId} and t.booking_id is not null
      and not exists (
        select 1 from payouts p
        where p.trainer_id = ${trainerId} and p.status <> 'returned' and t.booking_id = any(p.booking_ids)
      )
    order by t.created_at`);
  return rowsOf<{ booking_id: string }>(result).map((r) => r.booking_id);
}

/** Serialises the writing of payout batches (two processes never batch the same balance). */
export async function lockPayoutBatching(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('money:payout-batch', 0))`);
}

export async function insertPayout(tx: Tx, values: typeof payouts.$inferInsert): Promise<PayoutRow> {
  const [row] = await tx.insert(payouts).values(values).returning();
  return row;
}

export async function payoutsOfBatch(db: Q, batchKey: string): Promise<PayoutRow[]> {
  return db.select().from(payouts).where(eq(payouts.batchKey, batchKey)).orderBy(payouts.id);
}

export async function payoutsOfProviderBatch(db: Q, providerBatchId: string): Promise<PayoutRow[]> {
  return db.select().from(payouts).where(eq(payouts.providerBatchId, providerBatchId)).orderBy(payouts.id);
}

export async function findPayout(db: Q, id: string): Promise<PayoutRow | undefined> {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, id)).limit(1);
  return row;
}

/** Batches with a payout written and not sent yet (the provider did not answer): sent again with the same key. */
export async function pendingBatchKeys(db: Q): Promise<string[]> {
  const rows = await db
    .selectDistinct({ batchKey: payouts.batchKey })
    .from(payouts)
    .where(eq(payouts.status, 'pending'))
    .orderBy(payouts.batchKey);
  return rows.map((r) => r.batchKey);
}

/** The provider's batches with a payout not settled yet. */
export async function sentBatches(db: Q): Promise<Array<{ provider: 'paypal' | 'demo'; providerBatchId: string }>> {
  const rows = await db
    .selectDistinct({ provider: payouts.provider, providerBatchId: payouts.providerBatchId })
    .from(payouts)
    .where(and(eq(payouts.status, 'sent'), sql`${payouts.providerBatchId} is not null`));
  return rows.map((r) => ({ provider: r.provider, providerBatchId: r.providerBatchId! }));
}

/** The batch's pending payouts are now at the provider. */
export async function markSent(
  db: Q,
  id: string,
  values: { providerBatchId: string; providerItemId: string | null; providerStatus: string | null; at: Date },
): Promise<void> {
  await db
    .update(payouts)
    .set({ status: 'sent', ...values, updatedAt: values.at })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'pending')));
}

/** A final state, once: false when the payout was settled before. */
export async function settle(
  tx: Tx,
  id: string,
  values: { status: 'paid' | 'returned'; providerItemId: string | null; providerStatus: string; at: Date },
): Promise<boolean> {
  const { at, ...rest } = values;
  const rows = await tx
    .update(payouts)
    .set({ ...rest, updatedAt: at })
    .where(and(eq(payouts.id, id), inArray(payouts.status, ['pending', 'sent'])))
    .returning({ id: payouts.id });
  return rows.length > 0;
}

export async function noteProviderStatus(db: Q, id: string, providerStatus: string, at: Date): Promise<void> {
  await db.update(payouts).set({ providerStatus, updatedAt: at }).where(eq(payouts.id, id));
}

/** A trainer's payouts, newest first. */
export async function payoutsOf(db: Q, trainerId: string, limit = 200): Promise<PayoutRow[]> {
  return db
    .select()
    .from(payouts)
    .where(eq(payouts.trainerId, trainerId))
    .orderBy(desc(payouts.createdAt), desc(payouts.id))
    .limit(limit);
}

/** Whether a job of this kind is waiting to run after `after` (a recurring job's next run is there). */
export async function jobWaiting(db: Q, kind: string, after?: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.kind, kind),
        sql`${jobs.failedAt} is null`,
        after ? sql`${jobs.runAt} > ${after.toISOString()}::timestamptz` : undefined,
      ),
    )
    .limit(1);
  return !!row;
}

/** Serialises the scheduling of the module's recurring jobs between processes. */
export async function lockJobScheduling(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('money:recurring-jobs', 0))`);
}

/** An event about payouts for operators (a batch the provider refused), beside the payment events. */
export async function recordPayoutEvent(
  db: Q,
  v: { kind: 'payout-refused'; provider: string; details: Record<string, unknown>; at: Date },
): Promise<void> {
  await db.insert(paymentEvents).values({
    kind: v.kind,
    bookingId: null,
    provider: v.provider,
    providerOrderId: null,
    externalId: null,
    details: v.details,
    createdAt: v.at,
  });
}
