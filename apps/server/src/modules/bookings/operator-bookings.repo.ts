import { and, desc, eq, ilike, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { isId, type TConsoleBooking, type TConsoleBookingsQuery } from '@spotter/shared';
import type { Db } from '../../db/client';
import { accounts, bookings, disputes, payments, refunds } from '../../db/schema';
import { fromCents } from '../../lib/money';
import { containsPattern } from '../../lib/like-pattern';
import { balanceSessionMoney } from './balance-sessions.repo';

const trainer = alias(accounts, 'trainer');
const member = alias(accounts, 'member');

/**
 * The console's booking search (docs/product.md#refunds-by-operators): by a booking's id, or its
 * user's or trainer's name or e-mail, and status; newest sessions first, 50 at most, each with how
 * it was paid, what of its card payment went back and what is left, and whether it is disputed. A
 * session paid from a balance paid its price; its own refunds went back (all of it when it went back
 * whole: docs/decisions/054-refunds-of-sessions-paid-from-a-balance.md).
 */
export async function searchBookingsForOperators(db: Db, f: TConsoleBookingsQuery): Promise<TConsoleBooking[]> {
  const where: SQL[] = [];
  if (f.q) {
    const like = containsPattern(f.q);
    const byPerson = (p: { firstName: SQLWrapper; lastName: SQLWrapper; email: SQLWrapper }) =>
      or(ilike(sql`${p.firstName} || ' ' || ${p.lastName}`, like), ilike(sql`${p.email}`, like))!;
    where.push(isId(f.q) ? eq(bookings.id, f.q) : or(byPerson(trainer), byPerson(member))!);
  }
  if (f.status) where.push(eq(bookings.status, f.status));
  const fromBalance = balanceSessionMoney({ id: bookings.id, priceCents: bookings.priceCents });
  const rows = await db
    .select({
      id: bookings.id,
      userId: bookings.userId,
      trainerId: bookings.trainerId,
      userFirst: member.firstName,
      userLast: member.lastName,
      trainerFirst: trainer.firstName,
      trainerLast: trainer.lastName,
      startsAt: bookings.startsAt,
      status: bookings.status,
      priceCents: bookings.priceCents,
      balanceId: bookings.balanceId,
      paidCents: payments.amountCents,
      refundedCents: sql<number>`(select coalesce(sum(${refunds.amountCents}), 0)::int from ${refunds}
        where ${refunds.provider} = ${payments.provider} and ${refunds.providerOrderId} = ${payments.providerOrderId}
        and ${refunds.status} = 'completed')`,
      askedCents: sql<number>`(select coalesce(sum(${refunds.amountCents}), 0)::int from ${refunds}
        where ${refunds.provider} = ${payments.provider} and ${refunds.providerOrderId} = ${payments.providerOrderId}
        and ${refunds.status} <> 'failed')`,
      balancePaidCents: fromBalance.paidCents,
      balanceAskedCents: fromBalance.askedCents,
      balanceRefundedCents: fromBalance.refundedCents,
      disputed: sql<boolean>`exists (select 1 from ${disputes} where ${disputes.bookingId} = ${bookings.id})`,
    })
    .from(bookings)
    .innerJoin(trainer, eq(trainer.id, bookings.trainerId))
    .innerJoin(member, eq(member.id, bookings.userId))
    .leftJoin(payments, eq(payments.bookingId, bookings.id))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(bookings.startsAt), desc(bookings.id))
    .limit(50);
  return rows.map((r) => ({
    _id: r.id,
    userId: r.userId,
    userName: `${r.userFirst} ${r.userLast}`.trim(),
    trainerId: r.trainerId,
    trainerName: `${r.trainerFirst} ${r.trainerLast}`.trim(),
    startsAt: r.startsAt.toISOString(),
    status: r.status,
    price: fromCents(r.priceCents),
    paidWith: r.paidCents !== null ? 'card' : r.balanceId ? 'balance' : 'unpaid',
    refunded: fromCents(r.paidCents !== null ? r.refundedCents : r.balanceRefundedCents),
    refundable:
      r.paidCents !== null
        ? fromCents(Math.max(0, r.paidCents - r.askedCents))
        : r.balancePaidCents !== null
          ? fromCents(Math.max(0, r.balancePaidCents - r.balanceAskedCents))
          : 0,
    disputed: r.disputed,
  }));
}
