import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, createFreshPgDatabase, type TestApp } from './helper';

/**
 * The trainer list's queries use their indexes (docs/decisions/006-trainer-list-speed.md, issue 12):
 * on a fresh PostgreSQL database with 20,000 trainers, each `GET /api/trainers` below is sent to
 * the app, the SQL it issues is captured as the pg driver receives it (so this follows the route,
 * the service and the repo as they change), and `EXPLAIN (FORMAT JSON)` of it must find the page
 * in the intended index: no sequential scan of accounts, no heap read but the page's own rows.
 * Needs PostgreSQL (TEST_DATABASE_URL), for a database of its own; skipped on PGlite.
 */

const TRAINERS = 20_000; // under 30,000, so ANALYZE reads every row and the plans are the same on every run

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Plan Rows': number;
  Filter?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
};

const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];
const describeNode = (n: PlanNode) =>
  `${n['Node Type']}${n['Index Name'] ? ` using ${n['Index Name']}` : n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}`;
const outline = (plan: PlanNode) => flatten(plan).map(describeNode).join(' > ');

/**
 * What is wrong with the plan of the page query: the page must be found in `index` (an index-only
 * scan, or for a search the trigram index), the table read only by primary key for the page's rows.
 */
function pageProblems(plan: PlanNode, index: string | string[], search = false): string[] {
  const nodes = flatten(plan);
  const wanted = [index].flat();
  const problems: string[] = [];
  for (const n of nodes) {
    if (n['Node Type'] === 'Seq Scan') problems.push(`sequential scan of ${n['Relation Name']}`);
    // the page's rows are read by primary key, and so is each one's free-slot summary (nextFreeAt,
    // docs/decisions/040-finding-free-trainers.md)
    if (n['Node Type'] === 'Index Scan' && !['accounts_pkey', 'trainer_slot_refreshes_pkey'].includes(n['Index Name'] ?? ''))
      problems.push(`${n['Index Name']} read with the table (an index scan, not index-only)`);
  }
  const found = nodes.filter((n) => n['Index Name'] && wanted.includes(n['Index Name']));
  if (!found.length) problems.push(`none of ${wanted.join(', ')} used`);
  for (const n of found) {
    if (n['Node Type'] === 'Index Only Scan') {
      if (search && !/search_text/.test(n.Filter ?? '')) problems.push(`the search is not filtered inside ${n['Index Name']}`);
    } else if (!(n['Node Type'] === 'Bitmap Index Scan' && n['Index Name'] === 'accounts_trainer_search_idx'))
      problems.push(`${n['Index Name']} used by ${n['Node Type']}`);
  }
  if (!nodes.some((n) => n['Node Type'] === 'Index Scan' && n['Index Name'] === 'accounts_pkey'))
    problems.push("the page's rows are not read by primary key");
  return problems;
}

/**
 * What is wrong with the plan of the capped count (docs/decisions/006-trainer-list-speed.md: exact up to 2,000): it must stop
 * at its limit, and when `index` is given (a selective filter) find its rows there, without reading
 * the table. A count over most of the table may read the table: its first pages hold 2,001 rows.
 */
function countProblems(plan: PlanNode, index?: string[]): string[] {
  const nodes = flatten(plan);
  const problems: string[] = [];
  if (!nodes.some((n) => n['Node Type'] === 'Limit')) problems.push('not bounded by a limit');
  if (index) {
    for (const n of nodes) if (n['Node Type'] === 'Seq Scan') problems.push(`sequential scan of ${n['Relation Name']}`);
    if (!nodes.some((n) => n['Index Name'] && index.includes(n['Index Name']))) problems.push(`none of ${index.join(', ')} used`);
  }
  return problems;
}

const CITY_INDEXES = ['accounts_trainer_city_idx', 'accounts_trainer_city_price_idx'];
/** Where a search may be filtered: the trigram index, or an index that INCLUDEs search_text. */
const SEARCH_INDEXES = [
  'accounts_trainer_search_idx',
  'accounts_trainer_search_rating_idx',
  'accounts_trainer_search_price_idx',
  'accounts_trainer_search_newest_idx',
  ...CITY_INDEXES,
];

/** Each list the issue names, the index its page comes from, and where its count may look. */
const CASES: Array<{ query: string; page: string | string[]; count?: string[]; search?: boolean }> = [
  { query: '', page: 'accounts_trainer_rating_idx' },
  { query: 'sort=rating&page=200', page: 'accounts_trainer_rating_idx' },
  { query: 'minPrice=200&maxPrice=600&sort=rating&page=200', page: 'accounts_trainer_rating_idx' },
  { query: 'sort=newest&page=200', page: 'accounts_trainer_newest_idx' },
  { query: 'gender=female&minRating=3&sort=price_asc', page: 'accounts_trainer_price_idx' },
  { query: 'gender=male&sort=price_desc&page=20', page: 'accounts_trainer_price_idx' },
  { query: 'city=Cairo&sort=price_desc', page: 'accounts_trainer_city_price_idx', count: CITY_INDEXES },
  { query: 'city=cairo&gender=female&sort=price_asc&page=2', page: 'accounts_trainer_city_price_idx', count: CITY_INDEXES },
  { query: 'city=Giza&sort=rating', page: 'accounts_trainer_city_idx', count: CITY_INDEXES },
  { query: 'q=yoga', page: 'accounts_trainer_search_rating_idx', count: SEARCH_INDEXES, search: true },
  { query: 'q=yoga&page=10', page: 'accounts_trainer_search_rating_idx', count: SEARCH_INDEXES, search: true },
  { query: 'q=Yoga&sort=price_asc', page: 'accounts_trainer_search_price_idx', count: SEARCH_INDEXES, search: true },
  { query: 'q=yoga&sort=newest&page=5', page: 'accounts_trainer_search_newest_idx', count: SEARCH_INDEXES, search: true },
  { query: 'q=yoga&city=Cairo', page: 'accounts_trainer_city_idx', count: SEARCH_INDEXES, search: true },
  {
    query: 'q=coach&city=Giza&sort=price_desc&page=20',
    page: 'accounts_trainer_city_price_idx',
    count: SEARCH_INDEXES,
    search: true,
  },
  // a rare word: the trigram index finds its few trainers
  { query: 'q=number%20123', page: 'accounts_trainer_search_idx', count: ['accounts_trainer_search_idx'], search: true },
];

type Issued = { text: string; values: unknown[] };

describe.skipIf(!process.env.TEST_DATABASE_URL)(`the list's query plans on PostgreSQL (${TRAINERS} trainers)`, () => {
  let fresh: Awaited<ReturnType<typeof createFreshPgDatabase>>;
  let t: TestApp;
  let explainer: pg.Client;
  const issued: Issued[] = [];

  beforeAll(async () => {
    fresh = (await createFreshPgDatabase())!;
    t = await buildTestApp({}, { databaseUrl: fresh.url }); // migrates the fresh database
    // the shape of the bulk seed (db/seed): 16 titles, 15 cities, spread prices and ratings
    await t.database.db.execute(sql`
      insert into accounts (role, email, password_hash, first_name, last_name, gender, age, height, weight, title,
                            description, city, price_cents, rating_avg, rating_count, rating_score, email_verified_at,
                            created_at)
      select 'trainer', 'plan-' || g || '@spotter.test', 'not-a-login',
             (array['Omar','Nadia','Karim','Salma','Youssef','Laila','Tarek','Hana'])[1 + g % 8],
             (array['Farouk','Hassan','Samir','Mansour','Fathy','Zaki'])[1 + g % 6],
             case when g % 2 = 0 then 'male' else 'female' end, 30, 175, 75,
             (array['Strength coach','Yoga teacher','Boxing coach','Running coach','CrossFit coach','Pilates instructor',
                    'Weight-loss coach','Calisthenics coach','Mobility specialist','Powerlifting coach','Swim coach',
                    'Prenatal fitness','Kettlebell coach','HIIT trainer','Rehab trainer','Bodybuilding coach'])[1 + g % 16],
             'Coach number ' || g || '. Personal sessions for every level.',
             (array['Cairo','Giza','Alexandria','Mansoura','Tanta','Zagazig','Port Said','Suez','Ismailia','Luxor',
                    'Aswan','Hurghada','Sharm El Sheikh','Asyut','Faiyum'])[1 + (g * 7) % 15],
             (100 + (g * 37) % 801) * 100,
             round(((g * 13) % 401)::numeric / 100 + 1, 2), (g * 7) % 60,
             case when (g * 7) % 60 = 0 then 0
                  else round((5 * 4.2 + (((g * 13) % 401)::numeric / 100 + 1) * ((g * 7) % 60)) / (5 + (g * 7) % 60), 4) end,
             now(), now() - (g || ' minutes')::interval
      from generate_series(1, ${TRAINERS}::int) as g`);
    // people who are not trainers, and trainers who are not listed, share the table
    await t.database.db.execute(sql`
      insert into accounts (role, email, password_hash, first_name, last_name, gender, age, height, weight, title,
                            price_cents, email_verified_at, deleted_at)
      select case when g % 4 = 0 then 'trainer' else 'user' end, 'plan-other-' || g || '@spotter.test', 'x',
             'Yoga', 'Cairo', 'female', 30, 170, 60, 'Yoga teacher', case when g % 4 = 0 then 20000 end,
             case when g % 8 = 0 then null else now() end, case when g % 8 = 4 then now() end
      from generate_series(1, 2000) as g`);
    // as autovacuum leaves a table: statistics, and a visibility map for index-only scans
    await t.database.db.execute(sql`vacuum analyze accounts`);
    explainer = new pg.Client({ connectionString: fresh.url });
    await explainer.connect();

    // the queries as the app sends them to PostgreSQL (drizzle calls pg.Pool#query({ text, … }, values))
    const query = pg.Pool.prototype.query;
    vi.spyOn(pg.Pool.prototype, 'query').mockImplementation(function (this: pg.Pool, ...args: unknown[]) {
      const [first, second] = args as [string | { text?: unknown; values?: unknown[] }, unknown];
      const text = typeof first === 'string' ? first : first?.text;
      const values = Array.isArray(second) ? second : typeof first === 'object' ? first?.values : undefined;
      if (typeof text === 'string') issued.push({ text, values: values ?? [] });
      return (query as (...a: unknown[]) => unknown).apply(this, args) as never;
    });
  }, 120_000);

  afterAll(async () => {
    vi.restoreAllMocks();
    await explainer?.end();
    await t?.close();
    await fresh?.drop();
  });

  /** The page query and the count query `GET /api/trainers?query` issues, and their plans. */
  async function plansOf(query: string) {
    issued.length = 0;
    const res = await t.app.inject(`/api/trainers?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const lists = issued.filter((q) => /from "accounts"/.test(q.text) && !/^\s*explain/i.test(q.text));
    const page = lists.filter((q) => /^select ("accounts"\.)?"id", ("accounts"\.)?"first_name"/.test(q.text));
    const count = lists.filter((q) => /count\(\*\)/.test(q.text));
    expect(page, `the page query of ${query}`).toHaveLength(1);
    expect(count, `the count query of ${query}`).toHaveLength(1);
    return { page: await explain(page[0]), count: await explain(count[0]), pageQuery: page[0] };
  }

  const explain = async (q: Issued) =>
    ((await explainer.query(`explain (format json) ${q.text}`, q.values)).rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]
      .Plan;

  it.each(CASES)('GET /api/trainers?$query finds its page in $page', async ({ query, page, count, search }) => {
    const plans = await plansOf(query);
    expect(pageProblems(plans.page, page, search), `page: ${outline(plans.page)}`).toEqual([]);
    expect(countProblems(plans.count, count), `count: ${outline(plans.count)}`).toEqual([]);
  });

  it('notices a missing index (the check can fail)', async () => {
    const { page, pageQuery } = await plansOf('gender=female&minRating=3&sort=price_asc&limit=23');
    expect(pageProblems(page, 'accounts_trainer_price_idx')).toEqual([]);
    // dropped in a transaction that is rolled back, so the database keeps its index
    await explainer.query('begin');
    try {
      await explainer.query('drop index accounts_trainer_price_idx');
      const without = await explain(pageQuery);
      expect(pageProblems(without, 'accounts_trainer_price_idx')).toContain('none of accounts_trainer_price_idx used');
    } finally {
      await explainer.query('rollback');
    }
  });
});
