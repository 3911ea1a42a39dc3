import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { accounts, bookings, paymentEvents, payments, refunds, PAYMENT_EVENT_KINDS } from '../../db/schema';
import { completedOfOwn } from './balance-sessions.repo';

type Q = Db | Tx;
const trainer = alias(accounts, 'trainer');
const member = alias(accounts, 'member');

export async function findPaymentByOrder(db: Q, provider: 'paypal' | 'demo', providerOrderId: string) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerOrderId, providerOrderId)))
    .limit(1);
  return row;
}

export async function findPaymentByCapture(db: Q, provider: 'paypal' | 'demo', captureId: string) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.captureId, captureId)))
    .limit(1);
  return row;
}

/** A dispute opened or resolved about a payment, once per dispute, state and order. */
export async function recordDisputeEvent(
  db: Q,
  v: {
    kind: 'dispute-opened' | 'dispute-resolved';
    bookingId: string | null;
    provider: 'paypal' | 'demo';
    providerOrderId: string;
    disputeId: string;
    outcome: string | null;
    at: Date;
  },
) {
  await db
    .insert(paymentEvents)
    .values({
      kind: v.kind,
      bookingId: v.bookingId,
      provider: v.provider,
      providerOrderId: v.providerOrderId,
      externalId: `${v.kind}:${v.provider}:${v.disputeId}:${v.providerOrderId}`,
      details: { disputeId: v.disputeId, outcome: v.outcome },
      createdAt: v.at,
    })
    .onConflictDoNothing();
}

/** Holds, to the end of the transaction, the one lock of an order's refunds booked from the provider's events. */
export async function lockOrderRefunds(tx: Tx, provider: string, providerOrderId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`refund:${provider}:${providerOrderId}`}, 0))`);
}

/**
 * Holds, to the end of the transaction, the lock of one session's share, as the money module's
 * sweep takes it before making the share payable (modules/money/payouts.repo.ts lockShare, the
 * same key): what a refund made at the provider reads of the share stays true until it posts.
 */
export async function lockShare(tx: Tx, bookingId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`share:${bookingId}`}, 0))`);
}

/** When the session's share was made payable (the sweep's `payable:<booking>` transaction), or undefined. */
export async function shareMadePayableAt(tx: Tx, bookingId: string): Promise<Date | undefined> {
  const result = await tx.execute(sql`select created_at from ledger_transactions where key = ${`payable:${bookingId}`}`);
  const [row] = (result as unknown as { rows: Array<{ created_at: Date | string }> }).rows;
  return row ? new Date(row.created_at) : undefined;
}

/** An order's refunds: their state, amount and the provider's ids. */
export async function refundsOfOrder(db: Q, provider: 'paypal' | 'demo', providerOrderId: string) {
  return db
    .select({
      id: refunds.id,
      status: refunds.status,
      amountCents: refunds.amountCents,
      providerRefundId: refunds.providerRefundId,
    })
    .from(refunds)
    .where(and(eq(refunds.provider, provider), eq(refunds.providerOrderId, providerOrderId)));
}

/** What the refunds of an order asked back so far, requested or completed (not failed), in cents. */
export async function askedRefundsOf(db: Q, provider: 'paypal' | 'demo', providerOrderId: string): Promise<number> {
  return (await refundsOfOrder(db, provider, providerOrderId))
    .filter((r) => r.status !== 'failed')
    .reduce((sum, r) => sum + r.amountCents, 0);
}

/** What the completed refunds of an order gave back, in cents. */
export async function completedRefundsOf(db: Q, provider: 'paypal' | 'demo', providerOrderId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string | null>`sum(${refunds.amountCents})` })
    .from(refunds)
    .where(and(eq(refunds.provider, provider), eq(refunds.providerOrderId, providerOrderId), eq(refunds.status, 'completed')));
  return Number(row?.total ?? 0);
}

export async function findPaymentOfBooking(db: Q, bookingId: string) {
  const [row] = await db.select().from(payments).where(eq(payments.bookingId, bookingId)).limit(1);
  return row;
}

/** Stores a captured payment once: a second capture of the same order (or booking) adds nothing. */
export async function insertPayment(tx: Tx, values: typeof payments.$inferInsert) {
  const [row] = await tx.insert(payments).values(values).onConflictDoNothing().returning({ id: payments.id });
  return row?.id;
}

export async function markRefunded(tx: Tx, id: string, values: { refundId: string; refundRaw: unknown; at: Date }) {
  const rows = await tx
    .update(payments)
    .set({ status: 'refunded', refundId: values.refundId, refundRaw: values.refundRaw, refundedAt: values.at })
    .where(and(eq(payments.id, id), eq(payments.status, 'completed')))
    .returning({ id: payments.id });
  return rows.length > 0;
}

/** The caller's payments, newest first: what a user paid, or what a trainer was paid. */
export async function listPaymentsOf(db: Q, who: { role: 'user' | 'trainer'; id: string }) {
  return db
    .select({
      id: payments.id,
      bookingId: payments.bookingId,
      trainerId: payments.trainerId,
      userId: payments.userId,
      provider: payments.provider,
      providerOrderId: payments.providerOrderId,
      captureId: payments.captureId,
      amountCents: payments.amountCents,
      feeCents: payments.feeCents,
      currency: payments.currency,
      status: payments.status,
      createdAt: payments.createdAt,
      refundedAt: payments.refundedAt,
      /** Given back so far by completed refunds (a part of it: a refund made at the provider). */
      refundedCents: sql<number>`(select coalesce(sum(r.amount_cents), 0)::int from ${refunds} r
        where r.provider = ${payments.provider} and r.provider_order_id = ${payments.providerOrderId}
          and r.status = 'completed' and r.currency = ${payments.currency})`,
      startsAt: bookings.startsAt,
      trainerFirstName: trainer.firstName,
      trainerLastName: trainer.lastName,
      trainerDeletedAt: trainer.deletedAt,
      userFirstName: member.firstName,
      userLastName: member.lastName,
      userDeletedAt: member.deletedAt,
    })
    .from(payments)
    .innerJoin(bookings, eq(bookings.id, payments.bookingId))
    .innerJoin(trainer, eq(trainer.id, payments.trainerId))
    .innerJoin(member, eq(member.id, payments.userId))
    .where(who.role === 'trainer' ? eq(payments.trainerId, who.id) : eq(payments.userId, who.id))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(1000);
}
export type PaymentListRow = Awaited<ReturnType<typeof listPaymentsOf>>[number];

export type RefundRow = typeof refunds.$inferSelect;

/**
 * Writes a refund before the provider is asked (docs/decisions/042-money-ledger.md#refunds): the
 * first writer of a key gets the row; a second (a concurrent cancel) gets undefined and makes no call.
 */
export async function insertRefund(tx: Tx, values: typeof refunds.$inferInsert): Promise<RefundRow | undefined> {
  const [row] = await tx.insert(refunds).values(values).onConflictDoNothing().returning();
  return row;
}

export async function findRefund(db: Q, id: string): Promise<RefundRow | undefined> {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, id)).limit(1);
  return row;
}

export async function findRefundByKey(db: Q, key: string): Promise<RefundRow | undefined> {
  const [row] = await db.select().from(refunds).where(eq(refunds.key, key)).limit(1);
  return row;
}

/** requested → completed with the provider's answer; false when it was completed already. */
export async function completeRefund(tx: Tx, id: string, values: { providerRefundId: string; raw: unknown; at: Date }) {
  const rows = await tx
    .update(refunds)
    .set({ status: 'completed', providerRefundId: values.providerRefundId, raw: values.raw, completedAt: values.at })
    .where(and(eq(refunds.id, id), eq(refunds.status, 'requested')))
    .returning({ id: refunds.id });
  return rows.length > 0;
}

/**
 * A refund still requested, made to ask for `amountCents` (what is left to give back, after money
 * the provider gave back outside Spotter); undefined when it is no longer requested.
 */
export async function resizeRequestedRefund(db: Q, id: string, amountCents: number): Promise<RefundRow | undefined> {
  const [row] = await db
    .update(refunds)
    .set({ amountCents })
    .where(and(eq(refunds.id, id), eq(refunds.status, 'requested')))
    .returning();
  return row;
}

/** A refund still requested that has nothing left to give back (the provider gave it all back outside Spotter): failed. */
export async function failRequestedRefund(db: Q, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(refunds)
    .set({ status: 'failed', completedAt: at })
    .where(and(eq(refunds.id, id), eq(refunds.status, 'requested')))
    .returning({ id: refunds.id });
  return rows.length > 0;
}

/** Appends what happened to money that the ledger alone does not explain. */
export async function recordPaymentEvent(
  q: Q,
  values: {
    kind: (typeof PAYMENT_EVENT_KINDS)[number];
    bookingId?: string | null;
    provider?: string | null;
    providerOrderId?: string | null;
    details?: Record<string, unknown>;
    at: Date;
  },
) {
  await q.insert(paymentEvents).values({
    kind: values.kind,
    bookingId: values.bookingId ?? null,
    provider: values.provider ?? null,
    providerOrderId: values.providerOrderId ?? null,
    details: values.details ?? {},
    createdAt: values.at,
  });
}

/** A webhook's event, once: false when its id was recorded before (a replay). */
export async function recordWebhook(
  q: Q,
  v: { eventId: string; provider: string; providerOrderId: string | null; details: Record<string, unknown>; at: Date },
): Promise<boolean> {
  const rows = await q
    .insert(paymentEvents)
    .values({
      kind: 'webhook',
      provider: v.provider,
      providerOrderId: v.providerOrderId,
      externalId: `${v.provider}:${v.eventId}`,
      details: v.details,
      createdAt: v.at,
    })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  return rows.length > 0;
}

/** Whether a webhook's event was applied and recorded before. */
export async function webhookSeen(q: Q, provider: string, eventId: string): Promise<boolean> {
  const [row] = await q
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(eq(paymentEvents.externalId, `${provider}:${eventId}`))
    .limit(1);
  return !!row;
}

/** Whether an order has an event of this kind (a capture refused for its amount…). */
export async function hasPaymentEvent(
  q: Q,
  provider: string,
  providerOrderId: string,
  kind: (typeof PAYMENT_EVENT_KINDS)[number],
): Promise<boolean> {
  const [row] = await q
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(
      and(eq(paymentEvents.provider, provider), eq(paymentEvents.providerOrderId, providerOrderId), eq(paymentEvents.kind, kind)),
    )
    .limit(1);
  return !!row;
}

/**
 * Sessions paid from balances (docs/product.md#packages), each `redeem` with what it moved to the
 * trainer's share and the fee, and when it was given back (`unredeem`), if it was: a trainer's, not
 * given back, for the earnings page's rows; a user's paid by card as a weekly series
 * (docs/product.md#standing-weekly-sessions), for their payments page (their package purchases are
 * on it as balances).
 */
export async function balanceSessionsOf(db: Q, who: { role: 'user' | 'trainer'; id: string }) {
  const whose =
    who.role === 'trainer'
      ? sql`t.trainer_id = ${who.id} and back.created_at is null`
      : sql`b.user_id = ${who.id} and pb.kind = 'series'`;
  const result = await db.execute(sql`
    select t.id, t.booking_id, t.provider_order_id, t.created_at, b.starts_at, b.user_id, b.trainer_id,
      pb.kind, pb.provider, pb.capture_id, back.created_at as given_back_at,
      tr.first_name as trainer_first_name, tr.last_name as trainer_last_name, tr.deleted_at as trainer_deleted_at,
      u.first_name as user_first_name, u.last_name as user_last_name, u.deleted_at as user_deleted_at,
      (select coalesce(sum(e.amount_cents), 0) from ledger_entries e where e.transaction_id = t.id and e.amount_cents > 0)::text as amount,
      (select coalesce(sum(e.amount_cents), 0) from ledger_entries e where e.transaction_id = t.id and e.account = 'platform:fees')::text as fee,
      (select e.currency from ledger_entries e where e.transaction_id = t.id limit 1) as currency,
      -- its own refunds to the card made so far (an operator's, a dispute's), in part or whole
      ${completedOfOwn(sql`t.booking_id`)}::text as refunded
    from ledger_transactions t
    join bookings b on b.id = t.booking_id
    join package_balances pb on pb.id = b.balance_id
    join accounts u on u.id = b.user_id
    join accounts tr on tr.id = b.trainer_id
    left join lateral (
      -- given back whole: cancelled back to the balance, taken back by money the provider gave back by
      -- itself, or refunded to the card in full by its own refunds (an operator's, a dispute's: docs/decisions/054-refunds-of-sessions-paid-from-a-balance.md)
      select x.created_at from ledger_transactions x
      where x.booking_id = t.booking_id
        and (x.kind = 'unredeem' or (x.kind in ('refund', 'reversal') and x.key like '%:' || t.booking_id::text))
      union all
      select max(r.completed_at) from refunds r
      where r.booking_id = t.booking_id and r.status = 'completed'
      having sum(r.amount_cents) >= b.price_cents
      limit 1
    ) back on true
    where t.kind = 'redeem' and ${whose}
    order by t.created_at desc
    limit 500`);
  return (
    result as unknown as {
      rows: Array<{
        id: string;
        booking_id: string;
        provider_order_id: string | null;
        created_at: string | Date;
        starts_at: string | Date;
        user_id: string;
        trainer_id: string;
        kind: 'package' | 'series';
        provider: string | null;
        capture_id: string | null;
        given_back_at: string | Date | null;
        trainer_first_name: string;
        trainer_last_name: string;
        trainer_deleted_at: string | Date | null;
        user_first_name: string;
        user_last_name: string;
        user_deleted_at: string | Date | null;
        amount: string;
        fee: string;
        currency: string;
        refunded: string;
      }>;
    }
  ).rows;
}
