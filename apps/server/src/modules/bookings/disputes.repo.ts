import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { accounts, bookings, disputes, payments, refunds } from '../../db/schema';
import { balanceSessionMoney } from './balance-sessions.repo';

type Q = Db | Tx;
export type DisputeRow = typeof disputes.$inferSelect;

/** A new dispute of a session, decided already when a rule decides it; undefined when the session has one. */
export async function insertDispute(tx: Tx, values: typeof disputes.$inferInsert): Promise<DisputeRow | undefined> {
  const [row] = await tx.insert(disputes).values(values).onConflictDoNothing().returning();
  if (row) await touchBooking(tx, row.bookingId, values.createdAt);
  return row;
}

/**
 * The session's row changed with its dispute: the bookings trigger announces it, so both people's
 * cached lists of sessions drop (docs/caching.md) and show the dispute's state.
 */
async function touchBooking(tx: Tx, bookingId: string, at: Date) {
  await tx.update(bookings).set({ updatedAt: at }).where(eq(bookings.id, bookingId));
}

export async function findDispute(q: Q, id: string): Promise<DisputeRow | undefined> {
  const [row] = await q.select().from(disputes).where(eq(disputes.id, id)).limit(1);
  return row;
}

/** The open dispute locked for its decision (undefined: none, or decided meanwhile). */
export async function lockOpenDispute(tx: Tx, id: string): Promise<DisputeRow | undefined> {
  const [row] = await tx
    .select()
    .from(disputes)
    .where(and(eq(disputes.id, id), eq(disputes.status, 'open')))
    .for('update')
    .limit(1);
  return row;
}

export async function decideDispute(
  tx: Tx,
  id: string,
  d: {
    rule: string;
    outcome: string;
    refundCents: number | null;
    decidedAt: Date;
    decidedBy: string | null;
    decisionReason: string;
  },
) {
  await tx
    .update(disputes)
    .set({ status: 'decided', ...d })
    .where(eq(disputes.id, id));
  const [row] = await tx.select({ bookingId: disputes.bookingId }).from(disputes).where(eq(disputes.id, id));
  await touchBooking(tx, row.bookingId, d.decidedAt);
}

const member = alias(accounts, 'member');
const trainer = alias(accounts, 'trainer');

/** The queue: open ones oldest first, decided ones newest first; 100 at most, with the session, people and money. */
export async function listDisputes(q: Q, { status, id }: { status?: 'open' | 'decided'; id?: string }) {
  return q
    .select({
      dispute: disputes,
      userFirst: member.firstName,
      userLast: member.lastName,
      trainerFirst: trainer.firstName,
      trainerLast: trainer.lastName,
      startsAt: bookings.startsAt,
      endsAt: bookings.endsAt,
      bookingStatus: bookings.status,
      // a card payment's amount and what its order asked back; else a session paid from a balance's
      // price and its own refunds (docs/decisions/054-refunds-of-sessions-paid-from-a-balance.md)
      paidCents: sql<
        number | null
      >`coalesce(${payments.amountCents}, ${balanceSessionMoney({ id: bookings.id, priceCents: bookings.priceCents }).paidCents})`,
      askedCents: sql<number>`(case when ${payments.id} is not null then (select coalesce(sum(${refunds.amountCents}), 0)::int from ${refunds}
        where ${refunds.provider} = ${payments.provider} and ${refunds.providerOrderId} = ${payments.providerOrderId}
        and ${refunds.status} <> 'failed') else ${balanceSessionMoney({ id: bookings.id, priceCents: bookings.priceCents }).askedCents} end)`,
    })
    .from(disputes)
    .innerJoin(bookings, eq(bookings.id, disputes.bookingId))
    .innerJoin(member, eq(member.id, disputes.userId))
    .innerJoin(trainer, eq(trainer.id, disputes.trainerId))
    .leftJoin(payments, eq(payments.bookingId, disputes.bookingId))
    .where(and(status ? eq(disputes.status, status) : undefined, id ? eq(disputes.id, id) : undefined))
    .orderBy(status === 'open' ? asc(disputes.createdAt) : desc(disputes.createdAt))
    .limit(100);
}
export type DisputeListRow = Awaited<ReturnType<typeof listDisputes>>[number];
