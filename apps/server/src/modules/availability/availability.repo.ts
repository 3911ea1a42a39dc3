import { and, eq, gt, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, availability, bookings, LISTED_TRAINER } from '../../db/schema';

type Q = Db | Tx;

export async function findAvailability(db: Q, trainerId: string) {
  const [row] = await db
    .select({ timeZone: availability.timeZone, weekly: availability.weekly })
    .from(availability)
    .where(eq(availability.trainerId, trainerId))
    .limit(1);
  return row;
}

export async function saveAvailability(
  db: Q,
  trainerId: string,
  values: { timeZone: string; weekly: Array<{ weekday: number; hours: number[] }> },
) {
  await db
    .insert(availability)
    .values({ trainerId, ...values })
    .onConflictDoUpdate({ target: availability.trainerId, set: { ...values, updatedAt: sql`now()` } });
}

/** A trainer people can see and book (listed: verified, not deleted). */
export async function findBookableTrainer(db: Q, id: string) {
  const [row] = await db
    .select({ id: accounts.id, priceCents: accounts.priceCents })
    .from(accounts)
    .where(and(eq(accounts.id, id), LISTED_TRAINER))
    .limit(1);
  return row;
}

/** Start times held or booked in (from, until]: confirmed ones, and pending ones whose hold has not run out. */
export async function findTakenStarts(db: Q, trainerId: string, from: Date, until: Date, now: Date) {
  const rows = await db
    .select({ startsAt: bookings.startsAt })
    .from(bookings)
    .where(
      and(
        eq(bookings.trainerId, trainerId),
        gt(bookings.startsAt, from),
        lte(bookings.startsAt, until),
        or(eq(bookings.status, 'confirmed'), and(eq(bookings.status, 'pending'), gt(bookings.holdExpiresAt, now))),
      ),
    );
  return new Set(rows.map((r) => r.startsAt.getTime()));
}
