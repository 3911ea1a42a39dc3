import { and, desc, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { PersonStatus } from '@spotter/shared';
import type { Db, Tx } from '../../db/client';
import { accounts, bookings, payments, refunds, reports, reviews } from '../../db/schema';
import { containsPattern } from '../../lib/like-pattern';

type Q = Db | Tx;

/** Where an account stands, in the console's words: deleted, suspended, unverified or active. */
const statusOf = (r: { deletedAt: Date | null; suspendedAt: Date | null; emailVerifiedAt: Date | null }): PersonStatus =>
  r.deletedAt ? 'deleted' : r.suspendedAt ? 'suspended' : r.emailVerifiedAt ? 'active' : 'unverified';

const STATUS_WHERE: Record<PersonStatus, SQL> = {
  deleted: sql`${accounts.deletedAt} is not null`,
  suspended: sql`${accounts.deletedAt} is null and ${accounts.suspendedAt} is not null`,
  unverified: sql`${accounts.deletedAt} is null and ${accounts.suspendedAt} is null and ${accounts.emailVerifiedAt} is null`,
  active: sql`${accounts.deletedAt} is null and ${accounts.suspendedAt} is null and ${accounts.emailVerifiedAt} is not null`,
};

const openReports = sql<number>`(select count(*)::int from ${reports} where ${reports.subjectId} = ${accounts.id} and ${reports.status} = 'open')`;

const summaryColumns = {
  id: accounts.id,
  role: accounts.role,
  firstName: accounts.firstName,
  lastName: accounts.lastName,
  email: accounts.email,
  city: accounts.city,
  createdAt: accounts.createdAt,
  deletedAt: accounts.deletedAt,
  suspendedAt: accounts.suspendedAt,
  emailVerifiedAt: accounts.emailVerifiedAt,
  openReports,
};

/** People by name, e-mail or city, role and status; newest first, 50 at most. */
export async function searchPeople(q: Q, f: { q?: string; role?: 'user' | 'trainer'; status?: PersonStatus }) {
  const where: SQL[] = [];
  if (f.q) {
    const like = containsPattern(f.q);
    where.push(
      or(
        ilike(sql`${accounts.firstName} || ' ' || ${accounts.lastName}`, like),
        ilike(accounts.email, like),
        ilike(accounts.city, like),
      )!,
    );
  }
  if (f.role) where.push(eq(accounts.role, f.role));
  if (f.status) where.push(STATUS_WHERE[f.status]);
  const rows = await q
    .select(summaryColumns)
    .from(accounts)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(accounts.createdAt), desc(accounts.id))
    .limit(50);
  return rows.map((r) => ({ ...r, status: statusOf(r) }));
}

/** One person with everything the console shows of their account (undefined: no such account). */
export async function findPerson(q: Q, id: string) {
  const [row] = await q
    .select({
      ...summaryColumns,
      phone: accounts.phone,
      title: accounts.title,
      description: accounts.description,
      picture: accounts.picture,
      suspensionReason: accounts.suspensionReason,
      profileHiddenAt: accounts.profileHiddenAt,
      priceCents: accounts.priceCents,
      ratingAvg: accounts.ratingAvg,
      ratingCount: accounts.ratingCount,
      tokenVersion: accounts.tokenVersion,
    })
    .from(accounts)
    .where(eq(accounts.id, id))
    .limit(1);
  return row ? { ...row, status: statusOf(row) } : undefined;
}
export type PersonRow = NonNullable<Awaited<ReturnType<typeof findPerson>>>;

/** The account locked for a change of its state (suspend, restore, delete): two operators queue. */
export async function lockPerson(tx: Tx, id: string) {
  await tx.execute(sql`select id from accounts where id = ${id} for no key update`);
  return findPerson(tx, id);
}

/** Suspended: no sign-in (the reason is shown), every token ended (the token version moves on). */
export async function suspendAccount(tx: Tx, id: string, reason: string, at: Date) {
  await tx
    .update(accounts)
    .set({ suspendedAt: at, suspensionReason: reason, tokenVersion: sql`${accounts.tokenVersion} + 1` })
    .where(and(eq(accounts.id, id), isNull(accounts.suspendedAt), isNull(accounts.deletedAt)));
}

/** Restored: signs in again (older tokens stay ended). */
export async function restoreAccount(tx: Tx, id: string) {
  await tx
    .update(accounts)
    .set({ suspendedAt: null, suspensionReason: null })
    .where(and(eq(accounts.id, id), isNotNull(accounts.suspendedAt)));
}

const other = alias(accounts, 'other');

/** Their sessions, either side, newest first (100 at most). */
export async function bookingsOf(q: Q, id: string) {
  return q
    .select({
      id: bookings.id,
      userId: bookings.userId,
      trainerId: bookings.trainerId,
      startsAt: bookings.startsAt,
      status: bookings.status,
      priceCents: bookings.priceCents,
      otherFirst: other.firstName,
      otherLast: other.lastName,
    })
    .from(bookings)
    .innerJoin(
      other,
      sql`${other.id} = case when ${bookings.userId} = ${id} then ${bookings.trainerId} else ${bookings.userId} end`,
    )
    .where(or(eq(bookings.userId, id), eq(bookings.trainerId, id)))
    .orderBy(desc(bookings.startsAt))
    .limit(100);
}

/** Payments they made or received, newest first, with what was refunded of each (100 at most). */
export async function paymentsOf(q: Q, id: string) {
  return q
    .select({
      id: payments.id,
      bookingId: payments.bookingId,
      amountCents: payments.amountCents,
      status: payments.status,
      createdAt: payments.createdAt,
      refundedCents: sql<number>`(select coalesce(sum(${refunds.amountCents}), 0)::int from ${refunds}
        where ${refunds.provider} = ${payments.provider} and ${refunds.providerOrderId} = ${payments.providerOrderId} and ${refunds.status} = 'completed')`,
    })
    .from(payments)
    .where(or(eq(payments.userId, id), eq(payments.trainerId, id)))
    .orderBy(desc(payments.createdAt))
    .limit(100);
}

/** Reviews they wrote or (a trainer) received, hidden ones included, newest first (100 at most). */
export async function reviewsOf(q: Q, id: string) {
  return q
    .select({
      id: reviews.id,
      trainerId: reviews.trainerId,
      userId: reviews.userId,
      rating: reviews.rating,
      comment: reviews.comment,
      hiddenAt: reviews.hiddenAt,
      createdAt: reviews.createdAt,
    })
    .from(reviews)
    .where(or(eq(reviews.userId, id), eq(reviews.trainerId, id)))
    .orderBy(desc(reviews.createdAt))
    .limit(100);
}
