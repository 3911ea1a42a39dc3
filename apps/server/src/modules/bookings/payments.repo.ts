import { and, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { accounts, bookings, payments } from '../../db/schema';

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
