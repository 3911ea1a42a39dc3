import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, LISTED_TRAINER, trainerFreeSlots as slots, trainerSlotRefreshes as summary } from '../../db/schema';
import { idArray } from '../../lib/id-array';
import { subscriberCount } from '../bookings';
import { createBatchLoader } from '../../platform/batch-loader';
import { toCents } from '../../lib/money';
import { AVAILABLE_HOURS, BOOKING_RULES, type TTrainersQueryParsed } from '@spotter/shared';

/** What the list filters on: the parsed query without its paging and order. */
type TrainerFilters = Partial<Omit<TTrainersQueryParsed, 'page' | 'limit' | 'sort'>>;
type TrainerSort = TTrainersQueryParsed['sort'];

/**
 * A trainer as anyone may see it. Only these columns are read, so a public answer never has the
 * password hash, e-mail, phone or body measurements in memory.
 */
export const publicTrainerColumns = {
  id: accounts.id,
  firstName: accounts.firstName,
  lastName: accounts.lastName,
  title: accounts.title,
  description: accounts.description,
  picture: accounts.picture,
  city: accounts.city,
  country: accounts.country,
  gender: accounts.gender,
  priceCents: accounts.priceCents,
  ratingAvg: accounts.ratingAvg,
  ratingCount: accounts.ratingCount,
};

const WINDOW = `${BOOKING_RULES.daysAhead} days`;

const timeOf = (at: SQLWrapper | number): SQL =>
  typeof at === 'number' ? sql`${new Date(at).toISOString()}::timestamptz` : sql`${at}::timestamptz`;

/**
 * The offered slots of the trainer of the row, as of `at` (ms since epoch, on the bookings module's
 * clock): stored by free-slots-index.ts from what the booking dialog offers, still outside the minimum
 * notice (`offered_until`) and inside the bookable window (docs/decisions/040-finding-free-trainers.md).
 */
function offeredSlots(at: SQLWrapper | number, extra: SQL[] = []): SQL {
  const t = timeOf(at);
  return sql.join(
    [
      sql`${slots.trainerId} = ${accounts.id}`,
      sql`${slots.offeredUntil} > ${t}`,
      sql`${slots.startsAt} <= ${t} + ${WINDOW}::interval`,
      ...extra,
    ],
    sql` and `,
  );
}

/** The summary (free-slots.repo.ts) of the trainer of the row still holds at `at`. */
const summaryHolds = (at: SQLWrapper | number) => sql`${summary.validUntil} > ${timeOf(at)}`;

/**
 * The start of the trainer's first offered slot (null: none in the window), from the summary joined
 * on the row while it holds, else from the slots (the first by `offered_until` is the first by start:
 * one notice per trainer). Needs `summary` left-joined.
 */
function nextFreeExpr(at: SQLWrapper | number): SQL {
  const t = timeOf(at);
  const first = sql`case when ${summaryHolds(at)} then ${summary.nextStartsAt} else (select ${slots.startsAt} from ${slots}
    where ${offeredSlots(at)} order by ${slots.offeredUntil} limit 1) end`;
  return sql`(case when ${first} <= ${t} + ${WINDOW}::interval then ${first} end)`;
}

/** `nextFreeExpr` as epoch milliseconds. */
const nextFreeOf = (at: SQLWrapper | number): SQL<number | null> =>
  sql<number | null>`(extract(epoch from ${nextFreeExpr(at)}) * 1000)::float8`;

/**
 * Whether the trainer has an offered slot that the list's availability filters ask for, in their own
 * zone: from the summary while it holds (else the slots); with a date, from the slots of that date.
 */
function availableWhere(f: TrainerFilters, at: number): SQL | undefined {
  if (!f.available && !f.availableOn) return undefined;
  const t = timeOf(at);
  const hoursOf = (which: 'mornings' | 'evenings') =>
    sql`${slots.localHour} >= ${AVAILABLE_HOURS[which][0]} and ${slots.localHour} < ${AVAILABLE_HOURS[which][1]}`;
  const slotLevel: SQL[] = [];
  if (f.available === 'today') slotLevel.push(sql`${slots.dayStartsAt} <= ${t}`);
  if (f.available === 'week') slotLevel.push(sql`${slots.startsAt} <= ${t} + '7 days'::interval`);
  if (f.available === 'mornings' || f.available === 'evenings') slotLevel.push(hoursOf(f.available));
  if (f.availableOn) {
    // the trainers with such a slot on that date, found from the date's side of the index
    return sql`${accounts.id} in (select ${slots.trainerId} from ${slots} where ${sql.join(
      [
        sql`${slots.localDate} = ${f.availableOn}::date`,
        sql`${slots.offeredUntil} > ${t}`,
        sql`${slots.startsAt} <= ${t} + ${WINDOW}::interval`,
        ...slotLevel,
      ],
      sql` and `,
    )})`;
  }
  const fromSlots = sql`exists (select 1 from ${slots} where ${offeredSlots(at, slotLevel)})`;
  const until = sql`${t} + ${WINDOW}::interval`;
  const fromSummary =
    f.available === 'week'
      ? sql`${summary.nextStartsAt} <= ${t} + '7 days'::interval`
      : f.available === 'today'
        ? sql`${summary.nextDayStartsAt} <= ${t} and ${summary.nextStartsAt} <= ${until}`
        : f.available === 'mornings'
          ? sql`${summary.nextMorningAt} <= ${until}`
          : sql`${summary.nextEveningAt} <= ${until}`;
  return sql`(case when ${summaryHolds(at)} then ${fromSummary} else ${fromSlots} end)`;
}

/**
 * A 'Verified coach' at `at`: verified_until (the last day of their latest approved certificate) is
 * on or after that UTC date (docs/product.md#verified-coaches).
 */
const verifiedAt = (at: SQLWrapper | number): SQL => sql`${accounts.verifiedUntil} >= (${timeOf(at)} at time zone 'UTC')::date`;
const verifiedOf = (at: SQLWrapper | number): SQL<boolean> => sql<boolean>`coalesce(${verifiedAt(at)}, false)`;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function whereOf(f: TrainerFilters, at: number): SQL {
  const parts: SQL[] = [LISTED_TRAINER];
  const available = availableWhere(f, at);
  if (available) parts.push(available);
  // search_text is lower(first_name || ' ' || last_name || ' ' || title || ' ' || description),
  // stored (migration 0010). On a UTF-8 database this finds what `that text ilike pattern` did
  // (ILIKE lower-cases both sides, then LIKEs). A trigram index finds a rare word; a common one is
  // filtered inside an index in the list's order that INCLUDEs the column (docs/decisions/006-trainer-list-speed.md).
  if (f.q) parts.push(sql`${accounts.searchText} like lower(${`%${escapeLike(f.q)}%`})`);
  if (f.minPrice !== undefined) parts.push(gte(accounts.priceCents, toCents(f.minPrice)));
  if (f.maxPrice !== undefined) parts.push(lte(accounts.priceCents, toCents(f.maxPrice)));
  if (f.minRating !== undefined) parts.push(gte(accounts.ratingAvg, f.minRating));
  if (f.gender) parts.push(eq(accounts.gender, f.gender));
  if (f.city) parts.push(sql`lower(${accounts.city}) = lower(${f.city})`);
  if (f.verified) parts.push(verifiedAt(at));
  if (f.ids) parts.push(f.ids.length ? inArray(accounts.id, f.ids) : sql`false`);
  return and(...parts)!;
}

const orderOf = (sort: TrainerSort, at: number): SQL[] =>
  ({
    // "nulls last" as in the indexes (drizzle writes them so), or the planner will not use them
    // the Bayesian score, not the plain average (docs/decisions/016-bayesian-rating.md)
    rating: [sql`${accounts.ratingScore} desc nulls last`, asc(accounts.id)],
    price_asc: [asc(accounts.priceCents), asc(accounts.id)],
    price_desc: [desc(accounts.priceCents), desc(accounts.id)],
    newest: [sql`${accounts.createdAt} desc nulls last`, asc(accounts.id)],
    // by the next free slot, trainers with none last, ties by id
    soonest: [sql`${nextFreeExpr(at)} asc nulls last`, asc(accounts.id)],
  })[sort];

/**
 * A drizzle query (await it, or read its SQL with `.toSQL()`). A deferred join: the page's ids come from an index-only scan (offset included), then only those
 * rows are read. Page 200 costs about what page 1 does.
 */
export function findTrainers(
  db: Db,
  opts: { filters: TrainerFilters; sort: TrainerSort; limit: number; offset: number; at?: number },
) {
  const at = opts.at ?? Date.now();
  const order = orderOf(opts.sort, at);
  // the summary of free slots (unused by the other orders and filters: the planner leaves the join out)
  const pageIds = db
    .select({ id: accounts.id })
    .from(accounts)
    .leftJoin(summary, eq(summary.trainerId, accounts.id))
    .where(whereOf(opts.filters, at))
    .orderBy(...order)
    .limit(opts.limit)
    .offset(opts.offset);
  return (
    db
      // verified for the page's rows only, after the index-only scan chose them
      .select({ ...publicTrainerColumns, nextFreeAt: nextFreeOf(at), verified: verifiedOf(at) })
      .from(accounts)
      .leftJoin(summary, eq(summary.trainerId, accounts.id))
      .where(inArray(accounts.id, pageIds))
      .orderBy(...order)
  );
}
export type PublicTrainerRow = Awaited<ReturnType<typeof findTrainers>>[number];

/**
 * Exact up to `cap` rows (a bounded scan); past that, the planner's estimate, which is what a
 * pager needs, without counting a large table on every request.
 */
export async function countTrainers(db: Db, filters: TrainerFilters, cap: number, at = Date.now()): Promise<number> {
  const where = whereOf(filters, at);
  const joined = sql`left join ${summary} on ${summary.trainerId} = ${accounts.id}`;
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sql`(select 1 from ${accounts} ${joined} where ${where} limit ${cap + 1}) as capped`);
  if (n <= cap) return n;
  const plan = await db.execute(sql`explain (format json) select 1 from ${accounts} ${joined} where ${where}`);
  const rows = (plan as unknown as { rows: Array<Record<string, unknown>> }).rows;
  const json = rows[0]?.['QUERY PLAN'];
  const parsed = (typeof json === 'string' ? JSON.parse(json) : json) as Array<{ Plan: { 'Plan Rows': number } }>;
  return Math.max(cap + 1, Math.round(parsed?.[0]?.Plan?.['Plan Rows'] ?? cap + 1));
}

/**
 * Listed trainers' public profiles and subscriber counts, by id, in one statement (a drizzle
 * query; read its SQL with `.toSQL()`). `ids` is a PostgreSQL array literal of ids the route
 * validated, bound as one parameter, so the statement's text is the same whatever the number.
 */
export function findTrainerProfilesQuery(db: Db) {
  return db
    .select({
      ...publicTrainerColumns,
      subscribers: subscriberCount(sql`${accounts}.${sql.identifier(accounts.id.name)}`),
      nextFreeAt: nextFreeOf(sql.placeholder('at')),
      verified: verifiedOf(sql.placeholder('at')),
    })
    .from(accounts)
    .leftJoin(summary, eq(summary.trainerId, accounts.id))
    .where(and(sql`${accounts.id} = any(${sql.placeholder('ids')}::uuid[])`, LISTED_TRAINER));
}
type ProfileRow = PublicTrainerRow & { subscribers: number };

/**
 * Reads a listed trainer's profile by a lower-case id the route validated, together with the
 * profiles asked for at the same time (platform/batch-loader.ts): a profile that misses the read cache
 * waits for at most one read under way, then shares the next. `concurrency`: reads at once
 * (platform/batch-loader.ts).
 */
export function trainerProfileReader(db: Db, concurrency = 1, now: () => Date = () => new Date()) {
  const query = findTrainerProfilesQuery(db).prepare('trainer_profiles');
  const loader = createBatchLoader(
    async (ids: string[]) => {
      const rows = await query.execute({ ids: idArray(ids), at: now().toISOString() });
      return new Map(rows.map((row) => [row.id, row]));
    },
    { concurrency },
  );
  return (id: string): Promise<ProfileRow | undefined> => loader.load(id);
}
