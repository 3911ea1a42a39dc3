import { and, eq, sql } from 'drizzle-orm';
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

function slotStateQuery(db: Db) {
  // start times held or booked in (from, until]: confirmed ones, and pending ones whose hold has not
  // run out; as epoch milliseconds, comma-separated (one text parses alike on both drivers)
  const taken = sql<string | null>`(
    select string_agg((extract(epoch from ${bookings.startsAt}) * 1000)::bigint::text, ',')
    from ${bookings}
    where ${bookings.trainerId} = ${accounts.id}
      and ${bookings.startsAt} > ${sql.placeholder('from')}::timestamptz
      and ${bookings.startsAt} <= ${sql.placeholder('until')}::timestamptz
      and (${bookings.status} = 'confirmed'
        or (${bookings.status} = 'pending' and ${bookings.holdExpiresAt} > ${sql.placeholder('now')}::timestamptz))
  )`;
  // when the first live hold in the window runs out (epoch milliseconds): its slot is free again then
  const holdEnds = sql<number | null>`(
    select extract(epoch from min(${bookings.holdExpiresAt}))::float8 * 1000
    from ${bookings}
    where ${bookings.trainerId} = ${accounts.id}
      and ${bookings.startsAt} > ${sql.placeholder('from')}::timestamptz
      and ${bookings.startsAt} <= ${sql.placeholder('until')}::timestamptz
      and ${bookings.status} = 'pending' and ${bookings.holdExpiresAt} > ${sql.placeholder('now')}::timestamptz
  )`;
  return db
    .select({ timeZone: availability.timeZone, weekly: availability.weekly, taken, holdEnds })
    .from(accounts)
    .leftJoin(availability, eq(availability.trainerId, accounts.id))
    .where(and(eq(accounts.id, sql.placeholder('id')), LISTED_TRAINER))
    .limit(1)
    .prepare('slot_state');
}
/** Prepared once per database: a profile asks for it on every visit. */
const slotStateQueries = new WeakMap<Db, ReturnType<typeof slotStateQuery>>();

/**
 * In one statement, what a listed trainer's free slots are computed from: the weekly hours (null
 * when never set), the start times taken in (from, until] and when the first live hold among them
 * runs out; undefined when no listed trainer has this id.
 */
export async function findSlotState(db: Db, trainerId: string, from: Date, until: Date, now: Date) {
  let query = slotStateQueries.get(db);
  if (!query) slotStateQueries.set(db, (query = slotStateQuery(db)));
  const [row] = await query.execute({
    id: trainerId,
    from: from.toISOString(),
    until: until.toISOString(),
    now: now.toISOString(),
  });
  if (!row) return undefined;
  const taken = new Set(row.taken ? row.taken.split(',').map(Number) : []);
  return {
    timeZone: row.timeZone,
    weekly: row.weekly,
    taken,
    holdEnds: row.holdEnds === null ? undefined : Number(row.holdEnds),
  };
}
