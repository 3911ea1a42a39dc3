import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { BOOKING_RULES } from '@spotter/shared';
import type { Db, Tx } from '../../db/client';
import { accounts, bookings, waitlistEntries as entries, waitlistOffers as offers } from '../../db/schema';

type Q = Db | Tx;
const trainer = alias(accounts, 'trainer');

/** An offer's hold still running, or paid: the entry is served (docs/product.md#waitlist). */
const servedBy = (at: Date) =>
  sql`(${bookings.status} in ('confirmed', 'completed', 'no-show') or (${bookings.status} = 'pending' and ${bookings.holdExpiresAt} > ${at.toISOString()}::timestamptz))`;

/** The user's waits whose window has not passed. */
export async function countWaiting(db: Q, userId: string, at: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(entries)
    .where(and(eq(entries.userId, userId), isNull(entries.removedAt), gt(entries.toAt, at)));
  return row.n;
}

/** Whether the user waits for an overlapping window of this trainer already. */
export async function hasOverlapping(db: Q, w: { userId: string; trainerId: string; from: Date; to: Date }) {
  const [row] = await db
    .select({ id: entries.id })
    .from(entries)
    .where(
      and(
        eq(entries.userId, w.userId),
        eq(entries.trainerId, w.trainerId),
        isNull(entries.removedAt),
        sql`${entries.fromAt} < ${w.to.toISOString()}::timestamptz and ${entries.toAt} > ${w.from.toISOString()}::timestamptz`,
      ),
    )
    .limit(1);
  return !!row;
}

export async function insertEntry(db: Q, w: { userId: string; trainerId: string; from: Date; to: Date; now: Date }) {
  const [row] = await db
    .insert(entries)
    .values({ userId: w.userId, trainerId: w.trainerId, fromAt: w.from, toAt: w.to, createdAt: w.now, removedAt: null })
    .returning({ id: entries.id });
  return row.id;
}

/** The user leaves the list; false when the entry is not theirs or gone. */
export async function removeEntry(db: Q, id: string, userId: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(entries)
    .set({ removedAt: at })
    .where(and(eq(entries.id, id), eq(entries.userId, userId), isNull(entries.removedAt)))
    .returning({ id: entries.id });
  return rows.length > 0;
}

/** The user's waits (one, with `id`) whose window has not passed, oldest first, each with its latest offer. */
export async function listEntriesOf(db: Q, userId: string, at: Date, id?: string) {
  const latest = db
    .select({
      entryId: offers.entryId,
      bookingId: offers.bookingId,
      startsAt: offers.startsAt,
      status: bookings.status,
      holdExpiresAt: bookings.holdExpiresAt,
      rank: sql<number>`row_number() over (partition by ${offers.entryId} order by ${offers.createdAt} desc)`.as('rank'),
    })
    .from(offers)
    .innerJoin(bookings, eq(bookings.id, offers.bookingId))
    .as('latest');
  return db
    .select({
      id: entries.id,
      trainerId: entries.trainerId,
      trainerFirstName: trainer.firstName,
      trainerLastName: trainer.lastName,
      from: entries.fromAt,
      to: entries.toAt,
      createdAt: entries.createdAt,
      offerBookingId: latest.bookingId,
      offerStartsAt: latest.startsAt,
      offerStatus: latest.status,
      offerHoldExpiresAt: latest.holdExpiresAt,
    })
    .from(entries)
    .innerJoin(trainer, eq(trainer.id, entries.trainerId))
    .leftJoin(latest, and(eq(latest.entryId, entries.id), eq(latest.rank, 1)))
    .where(
      and(
        eq(entries.userId, userId),
        isNull(entries.removedAt),
        gt(entries.toAt, at),
        isNull(trainer.deletedAt),
        id ? eq(entries.id, id) : undefined,
      ),
    )
    .orderBy(asc(entries.createdAt), asc(entries.id))
    .limit(50);
}
export type WaitlistRow = Awaited<ReturnType<typeof listEntriesOf>>[number];

/**
 * The first in line for a freed slot [startsAt, endsAt) of the trainer: the oldest wait whose window
 * holds it, not offered this time before, whose user holds or booked no offer of it yet and can
 * book (a verified account not deleted).
 */
export async function nextInLine(tx: Tx, slot: { trainerId: string; startsAt: Date; endsAt: Date; at: Date }) {
  const member = alias(accounts, 'member');
  const [row] = await tx
    .select({ id: entries.id, userId: entries.userId })
    .from(entries)
    .innerJoin(member, eq(member.id, entries.userId))
    .where(
      and(
        eq(entries.trainerId, slot.trainerId),
        isNull(entries.removedAt),
        sql`${entries.fromAt} <= ${slot.startsAt.toISOString()}::timestamptz`,
        sql`${entries.toAt} >= ${slot.endsAt.toISOString()}::timestamptz`,
        isNull(member.deletedAt),
        sql`${member.emailVerifiedAt} is not null`,
        sql`not exists (select 1 from ${offers} o where o.entry_id = ${entries.id} and o.starts_at = ${slot.startsAt.toISOString()}::timestamptz)`,
        sql`not exists (select 1 from ${offers} inner join ${bookings} on ${bookings.id} = ${offers.bookingId}
          where ${offers.entryId} = ${entries.id} and ${servedBy(slot.at)})`,
        // one offer held at a time per user, whatever they wait for, and never past the holds a user may have
        sql`not exists (select 1 from ${offers} o2 inner join ${entries} e2 on e2.id = o2.entry_id
          inner join ${bookings} b2 on b2.id = o2.booking_id
          where e2.user_id = ${entries.userId} and b2.status = 'pending' and b2.hold_expires_at > ${slot.at.toISOString()}::timestamptz)`,
        sql`(select count(*) from ${bookings} b3 where b3.user_id = ${entries.userId} and b3.status = 'pending'
          and b3.hold_expires_at > ${slot.at.toISOString()}::timestamptz) < ${BOOKING_RULES.maxPendingHolds}`,
      ),
    )
    .orderBy(asc(entries.createdAt), asc(entries.id))
    .limit(1);
  return row;
}

export async function insertOffer(tx: Tx, o: { entryId: string; bookingId: string; startsAt: Date; now: Date }) {
  await tx.insert(offers).values({ entryId: o.entryId, bookingId: o.bookingId, startsAt: o.startsAt, createdAt: o.now });
}
