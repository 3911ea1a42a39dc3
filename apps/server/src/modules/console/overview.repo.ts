import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, bookings, certificates, disputes, ledgerEntries, ledgerTransactions, reports } from '../../db/schema';
import { account } from '../money';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A day's measures as the database answers them: counts as numbers, sums of cents as text (bigint). */
export type OverviewDayRow = {
  day: string;
  bookings: number;
  cancellations: number;
  paidCents: string | number;
  refundedCents: string | number;
  paidOutCents: string | number;
  feeCents: string | number;
  newUsers: number;
  newTrainers: number;
};

/** The overview's money is in dollars: the ledger's USD entries (a capture in another currency, refunded at once, is left out). */
const OVERVIEW_CURRENCY = 'USD';
/** An entry on a provider's world account: money paid in by a payer (below zero), or given back or paid out (above). */
const isWorld = sql`${ledgerEntries.account} like ${`${account.world('')}%`}`;

/** The UTC day of a timestamp column. */
const dayOf = (column: unknown) => sql`(${column} at time zone 'UTC')::date`;

/**
 * Each UTC day from `from` to `to` (YYYY-MM-DD, both included), oldest first, with what happened
 * on it (docs/product.md#the-overview): one grouped subquery per measure (the money ones from the
 * ledger, so they add up with it), joined to the series of days so a day without anything is a row of zeros.
 */
export async function overviewDays(db: Db, from: string, to: string): Promise<OverviewDayRow[]> {
  const start = sql`${from}::date::timestamp at time zone 'UTC'`;
  const end = sql`(${to}::date + 1)::timestamp at time zone 'UTC'`;
  const within = (column: unknown) => sql`${column} >= ${start} and ${column} < ${end}`;
  const result = await db.execute(sql`
    with days as (
      select d::date as day from generate_series(${from}::date, ${to}::date, interval '1 day') as d
    ),
    booked as (
      select ${dayOf(bookings.createdAt)} as day, count(*)::int as n from ${bookings}
      where ${bookings.status} in ('confirmed', 'completed', 'refunded', 'no-show') and ${within(bookings.createdAt)}
      group by 1
    ),
    cancelled as (
      select ${dayOf(bookings.cancelledAt)} as day, count(*)::int as n from ${bookings}
      where ${bookings.status} in ('cancelled', 'refunded') and ${within(bookings.cancelledAt)}
      group by 1
    ),
    -- the money from the ledger (docs/product.md#the-overview): what crossed between Spotter and the
    -- outside (the provider's world accounts) and what the platform's fees account gained, net
    money as (
      select ${dayOf(ledgerTransactions.createdAt)} as day,
        coalesce(-sum(${ledgerEntries.amountCents}) filter (where ${isWorld} and ${ledgerEntries.amountCents} < 0), 0)::bigint as paid,
        coalesce(sum(${ledgerEntries.amountCents}) filter (
          where ${isWorld} and ${ledgerEntries.amountCents} > 0 and ${ledgerTransactions.kind} <> 'payout-paid'
        ), 0)::bigint as refunded,
        coalesce(sum(${ledgerEntries.amountCents}) filter (
          where ${isWorld} and ${ledgerTransactions.kind} = 'payout-paid'
        ), 0)::bigint as paid_out,
        coalesce(sum(${ledgerEntries.amountCents}) filter (where ${ledgerEntries.account} = ${account.fees}), 0)::bigint as fees
      from ${ledgerTransactions}
      join ${ledgerEntries} on ${ledgerEntries.transactionId} = ${ledgerTransactions.id}
      where ${ledgerEntries.currency} = ${OVERVIEW_CURRENCY} and ${within(ledgerTransactions.createdAt)}
      group by 1
    ),
    joined as (
      select ${dayOf(accounts.createdAt)} as day,
        count(*) filter (where ${accounts.role} = 'user')::int as users,
        count(*) filter (where ${accounts.role} = 'trainer')::int as trainers
      from ${accounts} where ${within(accounts.createdAt)}
      group by 1
    )
    select to_char(days.day, 'YYYY-MM-DD') as "day",
      coalesce(booked.n, 0)::int as "bookings",
      coalesce(cancelled.n, 0)::int as "cancellations",
      coalesce(money.paid, 0)::bigint as "paidCents",
      coalesce(money.refunded, 0)::bigint as "refundedCents",
      coalesce(money.paid_out, 0)::bigint as "paidOutCents",
      coalesce(money.fees, 0)::bigint as "feeCents",
      coalesce(joined.users, 0)::int as "newUsers",
      coalesce(joined.trainers, 0)::int as "newTrainers"
    from days
      left join booked on booked.day = days.day
      left join cancelled on cancelled.day = days.day
      left join money on money.day = days.day
      left join joined on joined.day = days.day
    order by days.day
  `);
  return rowsOf<OverviewDayRow>(result);
}

/** What waits for an operator: open reports and disputes, certificates not decided yet. */
export async function waitingCounts(db: Db) {
  const result = await db.execute(sql`
    select
      (select count(*)::int from ${reports} where ${reports.status} = 'open') as "openReports",
      (select count(*)::int from ${disputes} where ${disputes.status} = 'open') as "openDisputes",
      (select count(*)::int from ${certificates} where ${certificates.status} = 'pending') as "pendingVerifications"
  `);
  return rowsOf<{ openReports: number; openDisputes: number; pendingVerifications: number }>(result)[0];
}
