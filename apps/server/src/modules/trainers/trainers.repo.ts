import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, LISTED_TRAINER } from '../../db/schema';
import { idArray } from '../../lib/id-array';
import { subscriberCount } from '../bookings';
import { createBatchLoader } from '../../platform/batch-loader';
import { toCents } from '../../lib/money';
import type { TTrainersQueryParsed } from '@spotter/shared';

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

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function whereOf(f: TrainerFilters): SQL {
  const parts: SQL[] = [LISTED_TRAINER];
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
  if (f.ids) parts.push(f.ids.length ? inArray(accounts.id, f.ids) : sql`false`);
  return and(...parts)!;
}

const ORDER: Record<TrainerSort, SQL[]> = {
  // "nulls last" as in the indexes (drizzle writes them so), or the planner will not use them
  // the Bayesian score, not the plain average (docs/decisions/016-bayesian-rating.md)
  rating: [sql`${accounts.ratingScore} desc nulls last`, asc(accounts.id)],
  price_asc: [asc(accounts.priceCents), asc(accounts.id)],
  price_desc: [desc(accounts.priceCents), desc(accounts.id)],
  newest: [sql`${accounts.createdAt} desc nulls last`, asc(accounts.id)],
  // TODO(issue 29): by the next free slot
  soonest: [sql`${accounts.ratingScore} desc nulls last`, asc(accounts.id)],
};

/**
 * A drizzle query (await it, or read its SQL with `.toSQL()`). A deferred join: the page's ids come from an index-only scan (offset included), then only those
 * rows are read. Page 200 costs about what page 1 does.
 */
export function findTrainers(db: Db, opts: { filters: TrainerFilters; sort: TrainerSort; limit: number; offset: number }) {
  const pageIds = db
    .select({ id: accounts.id })
    .from(accounts)
    .where(whereOf(opts.filters))
    .orderBy(...ORDER[opts.sort])
    .limit(opts.limit)
    .offset(opts.offset);
  return db
    .select(publicTrainerColumns)
    .from(accounts)
    .where(inArray(accounts.id, pageIds))
    .orderBy(...ORDER[opts.sort]);
}
export type PublicTrainerRow = Awaited<ReturnType<typeof findTrainers>>[number];

/**
 * Exact up to `cap` rows (a bounded scan); past that, the planner's estimate, which is what a
 * pager needs, without counting a large table on every request.
 */
export async function countTrainers(db: Db, filters: TrainerFilters, cap: number): Promise<number> {
  const where = whereOf(filters);
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sql`(select 1 from ${accounts} where ${where} limit ${cap + 1}) as capped`);
  if (n <= cap) return n;
  const plan = await db.execute(sql`explain (format json) select 1 from ${accounts} where ${where}`);
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
    .select({ ...publicTrainerColumns, subscribers: subscriberCount(sql`${accounts}.${sql.identifier(accounts.id.name)}`) })
    .from(accounts)
    .where(and(sql`${accounts.id} = any(${sql.placeholder('ids')}::uuid[])`, LISTED_TRAINER));
}
type ProfileRow = PublicTrainerRow & { subscribers: number };

/**
 * Reads a listed trainer's profile by a lower-case id the route validated, together with the
 * profiles asked for at the same time (platform/batch-loader.ts): a profile that misses the read cache
 * waits for at most one read under way, then shares the next. `concurrency`: reads at once
 * (platform/batch-loader.ts).
 */
export function trainerProfileReader(db: Db, concurrency = 1) {
  const query = findTrainerProfilesQuery(db).prepare('trainer_profiles');
  const loader = createBatchLoader(
    async (ids: string[]) => {
      const rows = await query.execute({ ids: idArray(ids) });
      return new Map(rows.map((row) => [row.id, row]));
    },
    { concurrency },
  );
  return (id: string): Promise<ProfileRow | undefined> => loader.load(id);
}
