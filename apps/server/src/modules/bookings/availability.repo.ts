import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, availability, bookings, LISTED_TRAINER } from '../../db/schema';
import { createBatchLoader } from '../../platform/batch-loader';
import { idArray } from '../../lib/id-array';
import type { Weekly } from './slots';

const DAY = 24 * 60 * 60_000;

type Q = Db | Tx;

export async function findAvailability(db: Q, trainerId: string) {
  const [row] = await db
    .select({ timeZone: availability.timeZone, weekly: availability.weekly })
    .from(availability)
    .where(eq(availability.trainerId, trainerId))
    .limit(1);
  return row;
}

export async function saveAvailability(db: Q, trainerId: string, values: { timeZone: string; weekly: Weekly }) {
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

function slotStatesQuery(db: Db) {
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
    .select({ id: accounts.id, timeZone: availability.timeZone, weekly: availability.weekly, taken, holdEnds })
    .from(accounts)
    .leftJoin(availability, eq(availability.trainerId, accounts.id))
    .where(and(sql`${accounts.id} = any(${sql.placeholder('ids')}::uuid[])`, LISTED_TRAINER))
    .prepare('slot_states');
}

/**
 * What a listed trainer's free slots are computed from, as of `at` (on the service's clock, when the
 * read ran): the weekly hours (null when never set), the start times taken in (at, at + `days`] and
 * when the first live hold among them runs out.
 */
type SlotState = {
  at: Date;
  timeZone: string | null;
  weekly: Weekly | null;
  taken: Set<number>;
  holdEnds: number | undefined;
};

/**
 * Reads a listed trainer's slot state by a lower-case id the route validated, together with those
 * of the trainers asked for at the same time (platform/batch-loader.ts, docs/decisions/026-batched-reads.md):
 * every profile visit that misses the cache asks for it. undefined when no listed trainer has the id.
 */
export function slotStateReader(db: Db, now: () => Date, days: number, concurrency = 1) {
  const query = slotStatesQuery(db);
  const loader = createBatchLoader(
    async (ids: string[]) => {
      const at = now();
      const rows = await query.execute({
        ids: idArray(ids),
        from: at.toISOString(),
        until: new Date(at.getTime() + days * DAY).toISOString(),
        now: at.toISOString(),
      });
      return new Map<string, SlotState>(
        rows.map((row) => [
          row.id,
          {
            at,
            timeZone: row.timeZone,
            weekly: row.weekly,
            taken: new Set(row.taken ? row.taken.split(',').map(Number) : []),
            holdEnds: row.holdEnds === null ? undefined : Number(row.holdEnds),
          },
        ]),
      );
    },
    { concurrency },
  );
  return (trainerId: string): Promise<SlotState | undefined> => loader.load(trainerId);
}
