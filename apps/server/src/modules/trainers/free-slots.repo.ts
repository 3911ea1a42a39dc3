import { sql } from 'drizzle-orm';
import { AVAILABLE_HOURS } from '@spotter/shared';
import type { Db, Tx } from '../../db/client';
import { LISTED_TRAINER } from '../../db/schema';
import { idArray } from '../../lib/id-array';

/** One offered slot of a trainer, as stored in `trainer_free_slots` (times: epoch milliseconds). */
export type FreeSlotRow = {
  trainerId: string;
  startsAt: number;
  offeredUntil: number;
  localDate: string;
  localHour: number;
  dayStartsAt: number;
};

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const iso = (ms: number) => new Date(ms).toISOString();
const arrayOf = (values: Array<string | number>) => `{${values.join(',')}}`;

/** The trainers' minimum notice in hours (a trainer without weekly hours: none). */
export async function minNotices(db: Db, ids: string[]): Promise<Map<string, number>> {
  const result = await db.execute(
    sql`select trainer_id::text as id, min_notice_hours as hours from availability where trainer_id = any(${idArray(ids)}::uuid[])`,
  );
  return new Map(rowsOf<{ id: string; hours: number }>(result).map((r) => [r.id, Number(r.hours)]));
}

/**
 * Replaces the stored free slots of `ids` with `rows`, and notes `listed` (those of `ids` that are
 * listed trainers) as computed at `at`; the others' notes go.
 */
export async function storeFreeSlots(
  db: Db,
  { ids, rows, listed, at }: { ids: string[]; rows: FreeSlotRow[]; listed: string[]; at: number },
): Promise<void> {
  await db.transaction(async (tx) => {
    // one writer at a time across processes: two computing the same trainer do not interleave
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('trainer_free_slots'))`);
    await tx.execute(sql`delete from trainer_free_slots where trainer_id = any(${idArray(ids)}::uuid[])`);
    if (rows.length) {
      await tx.execute(sql`
        insert into trainer_free_slots (trainer_id, starts_at, offered_until, local_date, local_hour, day_starts_at)
        select * from unnest(
          ${idArray(rows.map((r) => r.trainerId))}::uuid[],
          ${arrayOf(rows.map((r) => iso(r.startsAt)))}::timestamptz[],
          ${arrayOf(rows.map((r) => iso(r.offeredUntil)))}::timestamptz[],
          ${arrayOf(rows.map((r) => r.localDate))}::date[],
          ${arrayOf(rows.map((r) => r.localHour))}::smallint[],
          ${arrayOf(rows.map((r) => iso(r.dayStartsAt)))}::timestamptz[])`);
    }
    await tx.execute(sql`delete from trainer_slot_refreshes where trainer_id = any(${idArray(ids)}::uuid[])`);
    if (listed.length) {
      await tx.execute(sql`
        insert into trainer_slot_refreshes (trainer_id, refreshed_at)
        select id, ${iso(at)}::timestamptz from unnest(${idArray(listed)}::uuid[]) as id`);
      await summarise(tx, at, listed);
    }
  });
}

/**
 * Listed trainers never computed or computed before `before` (undefined: every listed trainer),
 * and trainers no longer listed that still have slots stored.
 */
export async function staleTrainerIds(db: Db, before: number | undefined): Promise<string[]> {
  const result = await db.execute(sql`
    select a.id::text as id from accounts a
    left join trainer_slot_refreshes r on r.trainer_id = a.id
    where ${LISTED_TRAINER}
      and (r.trainer_id is null or ${before === undefined ? sql`true` : sql`r.refreshed_at < ${iso(before)}::timestamptz`})
    union
    select r.trainer_id::text from trainer_slot_refreshes r join accounts a on a.id = r.trainer_id
    where not (${LISTED_TRAINER})`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

/**
 * Brings the summaries (`trainer_slot_refreshes`: the first offered slot, morning and evening, and
 * until when they hold) up to date as of `at`: of `ids`, or of every trainer whose summary ran out.
 */
export async function summarise(db: Db | Tx, at: number, ids?: string[]): Promise<void> {
  const t = sql`${iso(at)}::timestamptz`;
  const hours = (which: 'mornings' | 'evenings') =>
    sql`s.local_hour >= ${AVAILABLE_HOURS[which][0]} and s.local_hour < ${AVAILABLE_HOURS[which][1]}`;
  await db.execute(sql`
    update trainer_slot_refreshes r
    set (next_starts_at, next_day_starts_at, next_morning_at, next_evening_at, valid_until) = (
      select min(s.starts_at), (array_agg(s.day_starts_at order by s.starts_at))[1],
             min(s.starts_at) filter (where ${hours('mornings')}),
             min(s.starts_at) filter (where ${hours('evenings')}),
             coalesce(min(s.offered_until), 'infinity')
      from trainer_free_slots s where s.trainer_id = r.trainer_id and s.offered_until > ${t})
    where ${ids ? sql`r.trainer_id = any(${idArray(ids)}::uuid[])` : sql`r.valid_until <= ${t}`}`);
}
