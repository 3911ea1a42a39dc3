import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, bookings, certificates, disputes, payments, payouts, refunds, reports } from '../../db/schema';

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

/** The UTC day of a timestamp column. */
const dayOf = (column: unknown) => sql`(${column} at time zone 'UTC')::date`;

/**
 * Each UTC day from `from` to `to` (YYYY-MM-DD, both included), oldest first, with what happened
 * on it (docs/product.md#the-overview): one grouped subquery per measure, joined to the series of
 * days so a day without anything is a row of zeros.
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
    paid as (
      select ${dayOf(payments.createdAt)} as day, sum(${payments.amountCents})::bigint as cents,
        sum(${payments.feeCents})::bigint as fees
      from ${payments} where ${within(payments.createdAt)}
      group by 1
    ),
    refunded as (
      select ${dayOf(refunds.completedAt)} as day, sum(${refunds.amountCents})::bigint as cents from ${refunds}
      where ${refunds.status} = 'completed' and ${within(refunds.completedAt)}
      group by 1
    ),
    paid_out as (
      select ${dayOf(payouts.createdAt)} as day, sum(${payouts.amountCents})::bigint as cents from ${payouts}
      where ${payouts.status} in ('sent', 'paid') and ${within(payouts.createdAt)}
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
      coalesce(paid.cents, 0)::bigint as "paidCents",
      coalesce(refunded.cents, 0)::bigint as "refundedCents",
      coalesce(paid_out.cents, 0)::bigint as "paidOutCents",
      coalesce(paid.fees, 0)::bigint as "feeCents",
      coalesce(joined.users, 0)::int as "newUsers",
      coalesce(joined.trainers, 0)::int as "newTrainers"
    from days
      left join booked on booked.day = days.day
      left join cancelled on cancelled.day = days.day
      left join paid on paid.day = days.day
      left join refunded on refunded.day = days.day
      left join paid_out on paid_out.day = days.day
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
