import { OVERVIEW_DAYS, type TConsoleOverviewResponse, type TConsoleOverviewTotals } from '@spotter/shared';
import { fromCents } from '../../lib/money';
import type { ConsoleDeps } from './operators';
import * as repo from './overview.repo';

const DAY_MS = 24 * 60 * 60_000;
const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The console's overview (docs/product.md#the-overview): the last 30 UTC days, today included,
 * each day's bookings, cancellations, money and sign-ups, their sums, and what waits for an operator.
 */
export async function overview(deps: ConsoleDeps): Promise<TConsoleOverviewResponse> {
  const today = deps.now();
  const to = isoDay(today);
  const from = isoDay(new Date(today.getTime() - (OVERVIEW_DAYS - 1) * DAY_MS));
  const rows = await repo.overviewDays(deps.db, from, to);
  const waiting = await repo.waitingCounts(deps.db);
  const days = rows.map((r) => ({
    day: r.day,
    bookings: Number(r.bookings),
    cancellations: Number(r.cancellations),
    paid: fromCents(Number(r.paidCents)),
    refunded: fromCents(Number(r.refundedCents)),
    paidOut: fromCents(Number(r.paidOutCents)),
    fees: fromCents(Number(r.feeCents)),
    newUsers: Number(r.newUsers),
    newTrainers: Number(r.newTrainers),
  }));
  const cents = (pick: (r: repo.OverviewDayRow) => string | number) => fromCents(rows.reduce((s, r) => s + Number(pick(r)), 0));
  const count = (pick: (d: (typeof days)[number]) => number) => days.reduce((s, d) => s + pick(d), 0);
  const totals: TConsoleOverviewTotals = {
    bookings: count((d) => d.bookings),
    cancellations: count((d) => d.cancellations),
    paid: cents((r) => r.paidCents),
    refunded: cents((r) => r.refundedCents),
    paidOut: cents((r) => r.paidOutCents),
    fees: cents((r) => r.feeCents),
    newUsers: count((d) => d.newUsers),
    newTrainers: count((d) => d.newTrainers),
  };
  return {
    from,
    to,
    days,
    totals,
    waiting: {
      openReports: Number(waiting.openReports),
      openDisputes: Number(waiting.openDisputes),
      pendingVerifications: Number(waiting.pendingVerifications),
    },
  };
}
