import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accounts, availability, bookings, LISTED_TRAINER } from '../../db/schema';
import { createBatchLoader } from '../../platform/batch-loader';
import { idArray } from '../../lib/id-array';
import type { Weekly } from './slots';

const DAY = 24 * 60 * 60_000;

type Q = Db | Tx;

export type SessionLocation = { kind: 'address' | 'client' | 'online'; text: string };
export type DateOverride = { date: string; hours: number[] };

export async function findAvailability(db: Q, trainerId: string) {
  const [row] = await db
    .select({
      timeZone: availability.timeZone,
      weekly: availability.weekly,
      minNoticeHours: availability.minNoticeHours,
      bufferMinutes: availability.bufferMinutes,
      overrides: availability.overrides,
      location: availability.location,
    })
    .from(availability)
    .where(eq(availability.trainerId, trainerId))
    .limit(1);
  return row;
}

/**
 * Saves a trainer's hours; the policy fields left undefined keep their saved values (or the
 * columns' defaults on a first save), `location: null` removes the place.
 */
export async function saveAvailability(
  db: Q,
  trainerId: string,
  values: {
    timeZone: string;
    weekly: Weekly;
    minNoticeHours?: number;
    bufferMinutes?: number;
    overrides?: DateOverride[];
    location?: SessionLocation | null;
  },
) {
  const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as typeof values;
  await db
    .insert(availability)
    .values({ trainerId, ...given })
    .onConflictDoUpdate({ target: availability.trainerId, set: { ...given, updatedAt: sql`now()` } });
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

/**
 * Live sessions this far around the window count: a slot within a buffer (at most 30 minutes) of a
 * one-hour session that starts outside the window is still not offered.
 */
const AROUND_MS = 2 * 60 * 60_000;

function slotStatesQuery(db: Db) {
  // the trainer's sessions held or booked around (from, until]: confirmed ones (not released for resale), and pending ones
  // whose hold has not run out; as `start-end` in epoch milliseconds, comma-separated (one text
  // parses alike on both drivers)
  const taken = sql<string | null>`(
    select string_agg((extract(epoch from ${bookings.startsAt}) * 1000)::bigint::text || '-'
      || (extract(epoch from ${bookings.endsAt}) * 1000)::bigint::text, ',')
    from ${bookings}
    where ${bookings.trainerId} = ${accounts.id}
      and ${bookings.startsAt} > ${sql.placeholder('from')}::timestamptz
      and ${bookings.startsAt} <= ${sql.placeholder('until')}::timestamptz
      and ((${bookings.status} = 'confirmed' and ${bookings.releasedAt} is null)
        or (${bookings.status} = 'pending' and ${bookings.holdExpiresAt} > ${sql.placeholder('now')}::timestamptz))
  )`;
  // when the first live hold around the window runs out (epoch milliseconds): its slot, and those
  // its buffer kept, are free again then
  const holdEnds = sql<number | null>`(
    select extract(epoch from min(${bookings.holdExpiresAt}))::float8 * 1000
    from ${bookings}
    where ${bookings.trainerId} = ${accounts.id}
      and ${bookings.startsAt} > ${sql.placeholder('from')}::timestamptz
      and ${bookings.startsAt} <= ${sql.placeholder('until')}::timestamptz
      and ${bookings.status} = 'pending' and ${bookings.holdExpiresAt} > ${sql.placeholder('now')}::timestamptz
  )`;
  return db
    .select({
      id: accounts.id,
      timeZone: availability.timeZone,
      weekly: availability.weekly,
      minNoticeHours: availability.minNoticeHours,
      bufferMinutes: availability.bufferMinutes,
      overrides: availability.overrides,
      taken,
      holdEnds,
    })
    .from(accounts)
    .leftJoin(availability, eq(availability.trainerId, accounts.id))
    .where(and(sql`${accounts.id} = any(${sql.placeholder('ids')}::uuid[])`, LISTED_TRAINER))
    .prepare('slot_states');
}

/**
 * What a listed trainer's free slots are computed from, as of `at` (on the service's clock, when the
 * read ran): the weekly hours, date overrides and policy (null when never set), the live sessions
 * (start and end, ms) around (at, at + `days`] and when the first live hold among them runs out.
 */
export type SlotState = {
  at: Date;
  timeZone: string | null;
  weekly: Weekly | null;
  minNoticeHours: number | null;
  bufferMinutes: number | null;
  overrides: DateOverride[] | null;
  taken: Array<{ start: number; end: number }>;
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
        from: new Date(at.getTime() - AROUND_MS).toISOString(),
        until: new Date(at.getTime() + days * DAY + AROUND_MS).toISOString(),
        now: at.toISOString(),
      });
      return new Map<string, SlotState>(
        rows.map((row) => [
          row.id,
          {
            at,
            timeZone: row.timeZone,
            weekly: row.weekly,
            minNoticeHours: row.minNoticeHours,
            bufferMinutes: row.bufferMinutes,
            overrides: row.overrides,
            taken: row.taken
              ? row.taken.split(',').map((pair) => {
                  const [start, end] = pair.split('-').map(Number);
                  return { start, end };
                })
              : [],
            holdEnds: row.holdEnds === null ? undefined : Number(row.holdEnds),
          },
        ]),
      );
    },
    { concurrency },
  );
  return (trainerId: string): Promise<SlotState | undefined> => loader.load(trainerId);
}
