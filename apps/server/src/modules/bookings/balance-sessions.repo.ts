import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';

// The money of a session paid from a balance (a package, or a weekly series paid by card), as the
// ledger and the refunds table hold it, for its refunds by an operator and its disputes
// (docs/decisions/054-refunds-of-sessions-paid-from-a-balance.md).

type Q = Db | Tx;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Whether the session's whole price went back already, not by a refund of its own: its cancellation
 * returned it to the balance (`unredeem`), or money the provider gave back by itself on a weekly
 * series' capture took the week back (outside-refund.ts, a transaction keyed `…:<booking id>`).
 */
const givenBackWhole = (bookingId: SQLWrapper) => sql`exists (
  select 1 from ledger_transactions x where x.booking_id = ${bookingId}
    and (x.kind = 'unredeem' or (x.kind in ('refund', 'reversal') and x.key like '%:' || ${bookingId}::text)))`;

/** What a session's own refunds asked back (requested or completed, not failed), in cents. */
const askedOfOwn = (bookingId: SQLWrapper) => sql`(select coalesce(sum(r.amount_cents), 0) from refunds r
  where r.booking_id = ${bookingId} and r.status <> 'failed')`;

/** What a session's own refunds gave back (completed), in cents. */
export const completedOfOwn = (bookingId: SQLWrapper) => sql`(select coalesce(sum(r.amount_cents), 0) from refunds r
  where r.booking_id = ${bookingId} and r.status = 'completed')`;

/** Whether a session was paid from a balance: its `redeem` is in the ledger. */
const redeemed = (bookingId: SQLWrapper) =>
  sql`exists (select 1 from ledger_transactions t where t.key = 'redeem:' || ${bookingId}::text)`;

/**
 * For a search of sessions (operator-bookings.repo.ts, disputes.repo.ts): what a session paid from a
 * balance paid (its price, once redeemed; null otherwise), and what of it was asked back (all of it
 * when it went back whole) or given back (completed).
 */
export const balanceSessionMoney = (b: { id: SQLWrapper; priceCents: SQLWrapper }) => ({
  paidCents: sql<number | null>`(case when ${redeemed(b.id)} then ${b.priceCents} end)`,
  askedCents: sql<number>`(case when ${givenBackWhole(b.id)} then ${b.priceCents} else ${askedOfOwn(b.id)} end)::int`,
  refundedCents: sql<number>`(case when ${givenBackWhole(b.id)} then ${b.priceCents} else ${completedOfOwn(b.id)} end)::int`,
});

export type BalanceSession = {
  bookingId: string;
  userId: string;
  trainerId: string;
  status: string;
  startsAt: Date;
  /** What the session took from the balance (its `redeem`): its price. */
  priceCents: number;
  /** The fee its `redeem` moved to the platform. */
  feeCents: number;
  currency: string;
  balanceId: string;
  kind: 'package' | 'series';
  provider: 'paypal' | 'demo';
  providerOrderId: string;
  captureId: string;
};

/** A session paid from a balance whose purchase was captured: its price, the fee its `redeem` took, and the capture. */
export async function findBalanceSession(db: Q, bookingId: string): Promise<BalanceSession | undefined> {
  const [row] = rowsOf<{
    booking_id: string;
    user_id: string;
    trainer_id: string;
    status: string;
    starts_at: string | Date;
    price_cents: number;
    fee_cents: string;
    currency: string;
    balance_id: string;
    kind: 'package' | 'series';
    provider: 'paypal' | 'demo';
    provider_order_id: string;
    capture_id: string;
  }>(
    await db.execute(sql`
      select b.id as booking_id, b.user_id, b.trainer_id, b.status, b.starts_at, b.price_cents,
        pb.id as balance_id, pb.kind, pb.provider, pb.provider_order_id, pb.capture_id, pb.currency,
        (select coalesce(sum(e.amount_cents), 0) from ledger_entries e
          where e.transaction_id = t.id and e.account = 'platform:fees')::text as fee_cents
      from bookings b
      join package_balances pb on pb.id = b.balance_id
      join ledger_transactions t on t.key = 'redeem:' || b.id::text
      where b.id = ${bookingId} and pb.provider is not null and pb.provider_order_id is not null and pb.capture_id is not null
        and not exists (select 1 from payments p where p.booking_id = b.id)
      limit 1`),
  );
  if (!row) return undefined;
  return {
    bookingId: row.booking_id,
    userId: row.user_id,
    trainerId: row.trainer_id,
    status: row.status,
    startsAt: new Date(row.starts_at),
    priceCents: Number(row.price_cents),
    feeCents: Number(row.fee_cents),
    currency: row.currency,
    balanceId: row.balance_id,
    kind: row.kind,
    provider: row.provider,
    providerOrderId: row.provider_order_id,
    captureId: row.capture_id,
  };
}

/** What of a session paid from a balance was asked back (`asked`: requested or completed) and given back (`given`: completed), in cents. */
export async function refundsOfSession(db: Q, s: { bookingId: string; priceCents: number }) {
  const id = sql`${s.bookingId}::uuid`;
  const [row] = rowsOf<{ whole: boolean; asked: string; given: string }>(
    await db.execute(
      sql`select ${givenBackWhole(id)} as whole, ${askedOfOwn(id)}::text as asked, ${completedOfOwn(id)}::text as given`,
    ),
  );
  if (row?.whole) return { whole: true, asked: s.priceCents, given: s.priceCents };
  return { whole: false, asked: Number(row?.asked ?? 0), given: Number(row?.given ?? 0) };
}

/**
 * Whether a refund row is a refund of a session paid from a balance (its booking's balance was
 * captured on the refund's order, and the booking has no card payment of its own), for the job that
 * finishes refunds.
 */
export async function isBalanceSessionRefund(
  db: Q,
  r: { key: string; bookingId: string | null; provider: string; providerOrderId: string },
): Promise<boolean> {
  if (!r.bookingId || r.key.startsWith('unplaced:') || r.key.startsWith('package:') || r.key.startsWith('full:')) return false;
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      select b.id from bookings b join package_balances pb on pb.id = b.balance_id
      where b.id = ${r.bookingId} and pb.provider = ${r.provider} and pb.provider_order_id = ${r.providerOrderId}
        and not exists (select 1 from payments p where p.booking_id = b.id)
      limit 1`),
  );
  return rows.length > 0;
}
