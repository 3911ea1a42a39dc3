import { and, eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REPORTS_TO_HIDE, type TReview } from '@spotter/shared';
import { accounts, reports, reviews } from '../src/db/schema';
import { createAccount, insertTrainer, useTestApp } from './helper';
import { signedInOperator } from './support/console';

/**
 * Reports and moderation against a trainer's rating (docs/product.md#reports-and-moderation), over
 * random sequences of what people and operators do: review (or edit a review), report a review, and
 * hide, restore or dismiss a report, and report again after a decision. A model says what each
 * answers and which reviews are visible; after every step each trainer's rating and count are those
 * of their visible reviews (the API's and the stored ones, also recomputed from the reviews table),
 * visitors see exactly those reviews, and every review with open reports (none an operator decided)
 * from three or more different people is hidden.
 */
const t = await useTestApp();
const db = t.database.db;
const auth = (token?: string) => (token ? { authorization: token } : {});
const post = (url: string, payload: object, token?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: auth(token) });

// seven: an item's author and six others, so three reports, a decision and three new ones can all happen
const PEOPLE = 7;
const TRAINERS = 2;
const people: Array<{ token: string; id: string }> = [];
for (let i = 0; i < PEOPLE; i++) people.push(await createAccount(t, 'user'));
const operator = await signedInOperator(t);

type Op =
  | { op: 'review'; by: number; trainer: number; rating: number }
  | { op: 'report'; by: number; target: number }
  | { op: 'hide' | 'restore' | 'dismiss'; pick: number };

const person = fc.integer({ min: 0, max: PEOPLE - 1 });
const trainerIndex = fc.integer({ min: 0, max: TRAINERS - 1 });
const OP: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('review' as const), by: person, trainer: trainerIndex, rating: fc.integer({ min: 1, max: 5 }) }),
  // reports are drawn more often, and of the first reviews mostly, so items reach three of them
  { arbitrary: fc.record({ op: fc.constant('report' as const), by: person, target: fc.nat({ max: 2 }) }), weight: 3 },
  fc.record({ op: fc.constantFrom('hide' as const, 'restore' as const, 'dismiss' as const), pick: fc.nat() }),
);

/** The model: reviews by (author, trainer), and every report made. */
type Review = { id: string; rating: number; hidden: boolean; autoHidden: boolean };
type Report = { id: string; item: string; reporter: number; open: boolean };

/** What the runs did, so a run that never hid anything does not pass unnoticed. */
const seen = { autoHidden: 0, decided: 0, reportedAfterDecision: 0, hiddenAgain: 0 };

const twoDecimals = (n: number) => Math.round(n * 100 + 1e-9) / 100;

async function check(trainerIds: string[], model: Map<string, Review>) {
  for (const [j, trainerId] of trainerIds.entries()) {
    const visible = [...model.entries()].filter(([key, r]) => key.endsWith(`:${j}`) && !r.hidden).map(([, r]) => r);
    const avg = visible.length ? twoDecimals(visible.reduce((s, r) => s + r.rating, 0) / visible.length) : 0;
    // what a visitor reads: the rating and the reviews
    const profile = (await t.app.inject(`/api/trainerData/${trainerId}`)).json().trainerData;
    expect({ rating: profile.rating, ratingCount: profile.ratingCount }, `trainer ${j}`).toEqual({
      rating: avg,
      ratingCount: visible.length,
    });
    const listed = (await t.app.inject(`/api/trainer/reviews/${trainerId}`)).json().allReviews as TReview[];
    expect(listed.map((r) => r._id).sort()).toEqual(visible.map((r) => r.id).sort());
  }
  // what is stored: each trainer's rating is the average of the visible reviews in the table
  const rows = await db
    .select({
      id: accounts.id,
      ratingAvg: accounts.ratingAvg,
      ratingCount: accounts.ratingCount,
      visibleAvg: sql<string>`(select coalesce(round(avg(rating), 2), 0) from ${reviews} where trainer_id = accounts.id and hidden_at is null)`,
      visibleCount: sql<number>`(select count(*)::int from ${reviews} where trainer_id = accounts.id and hidden_at is null)`,
    })
    .from(accounts)
    .where(inArray(accounts.id, trainerIds));
  for (const row of rows) {
    expect(Number(row.ratingAvg)).toBe(Number(row.visibleAvg));
    expect(row.ratingCount).toBe(Number(row.visibleCount));
  }
  // what is stored: a review three different people reported, with no operator's decision since, is hidden
  const reported = await db
    .select({ itemId: reports.itemId, hidden: sql<boolean>`bool_and(${reviews.hiddenAt} is not null)` })
    .from(reports)
    .innerJoin(reviews, eq(reviews.id, reports.itemId))
    .where(and(eq(reports.kind, 'review'), eq(reports.status, 'open'), inArray(reviews.trainerId, trainerIds)))
    .groupBy(reports.itemId)
    .having(sql`count(distinct ${reports.reporterId}) >= ${REPORTS_TO_HIDE}`);
  for (const item of reported) expect(item, 'three open reports').toMatchObject({ hidden: true });
}

async function run(ops: Op[]) {
  const trainerIds: string[] = [];
  for (let j = 0; j < TRAINERS; j++) trainerIds.push((await insertTrainer(t)).id);
  const model = new Map<string, Review>();
  const made: Report[] = [];
  for (const op of ops) {
    if (op.op === 'review') {
      const key = `${op.by}:${op.trainer}`;
      const res = await post(
        '/api/reviews/new',
        { trainerId: trainerIds[op.trainer], rating: op.rating, comment: `stars ${op.rating}` },
        people[op.by].token,
      );
      expect(res.statusCode, res.body).toBe(201);
      const before = model.get(key);
      // an edit keeps a hidden review hidden
      model.set(key, {
        id: res.json().review._id,
        rating: op.rating,
        hidden: before?.hidden ?? false,
        autoHidden: before?.autoHidden ?? false,
      });
    } else if (op.op === 'report') {
      // the target-th review written so far (none yet: an id of nothing)
      const keys = [...model.keys()];
      const key = keys.length ? keys[op.target % keys.length] : 'none';
      const author = Number(key.split(':')[0]);
      const review = model.get(key);
      const id = review?.id ?? '00000000-0000-4000-8000-000000000000';
      const res = await post('/api/reports', { kind: 'review', id, reason: 'spam', note: '' }, people[op.by].token);
      const expected = !review
        ? 404
        : op.by === author
          ? 400
          : review.hidden
            ? 404
            : made.some((r) => r.item === key && r.reporter === op.by)
              ? 409
              : 201;
      expect(res.statusCode, res.body).toBe(expected);
      if (res.statusCode === 201) {
        const decidedBefore = made.some((r) => r.item === key && !r.open);
        if (decidedBefore) seen.reportedAfterDecision++;
        made.push({ id: res.json().report._id, item: key, reporter: op.by, open: true });
        // reports an operator decided do not count: three open ones from different people hide it
        const openReporters = new Set(made.filter((r) => r.item === key && r.open).map((r) => r.reporter));
        if (!review!.hidden && openReporters.size >= REPORTS_TO_HIDE) {
          review!.hidden = true;
          review!.autoHidden = true;
          seen.autoHidden++;
          if (decidedBefore) seen.hiddenAgain++;
        }
      }
    } else {
      const open = made.filter((r) => r.open);
      if (!open.length) continue;
      const chosen = open[op.pick % open.length];
      const res = await post(`/api/console/reports/${chosen.id}/${op.op}`, { reason: 'property test' }, operator.token);
      expect(res.statusCode, res.body).toBe(200);
      const review = model.get(chosen.item)!;
      seen.decided++;
      if (op.op === 'hide') review.hidden = true;
      else if (op.op === 'restore') review.hidden = false;
      else if (review.autoHidden) review.hidden = false;
      review.autoHidden = false;
      for (const r of made) if (r.item === chosen.item) r.open = false;
      expect(res.json().report).toMatchObject({ status: { hide: 'hidden', restore: 'restored', dismiss: 'dismissed' }[op.op] });
      expect(res.json().report.itemHidden).toBe(review.hidden);
    }
    await check(trainerIds, model);
  }
  // the stored hidden marks are the model's
  for (const r of model.values()) {
    const [row] = await db.select({ hiddenAt: reviews.hiddenAt }).from(reviews).where(eq(reviews.id, r.id));
    expect(row.hiddenAt !== null).toBe(r.hidden);
  }
}

describe('a trainer’s rating under reports and moderation', () => {
  it('is always the average of their visible reviews', { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(OP, { minLength: 1, maxLength: 24 }), async (ops) => run(ops)),
      {
        numRuns: 25,
        // besides the random ones: three reports hide, an operator dismisses (shown again), a hide, an edit while hidden, a restore
        examples: [
          [
            [
              { op: 'review', by: 0, trainer: 0, rating: 1 },
              { op: 'review', by: 1, trainer: 0, rating: 4 },
              { op: 'report', by: 1, target: 0 },
              { op: 'report', by: 2, target: 0 },
              { op: 'report', by: 3, target: 0 },
              { op: 'dismiss', pick: 0 },
              { op: 'report', by: 0, target: 1 },
              { op: 'hide', pick: 0 },
              { op: 'review', by: 1, trainer: 0, rating: 2 },
              { op: 'review', by: 2, trainer: 1, rating: 5 },
              { op: 'report', by: 0, target: 2 },
              { op: 'report', by: 1, target: 2 },
              { op: 'report', by: 3, target: 2 },
              { op: 'restore', pick: 1 },
            ],
          ],
          // three reports hide, a restore, then two new reports (still shown) and a third new one (hidden again)
          [
            [
              { op: 'review', by: 0, trainer: 0, rating: 1 },
              { op: 'review', by: 1, trainer: 1, rating: 5 },
              { op: 'report', by: 1, target: 0 },
              { op: 'report', by: 2, target: 0 },
              { op: 'report', by: 3, target: 0 },
              { op: 'restore', pick: 0 },
              { op: 'report', by: 4, target: 0 },
              { op: 'report', by: 5, target: 0 },
              { op: 'report', by: 6, target: 0 },
              { op: 'dismiss', pick: 0 },
            ],
          ],
          // one report dismissed, then two new ones: not hidden; a third open one hides it
          [
            [
              { op: 'review', by: 0, trainer: 1, rating: 2 },
              { op: 'report', by: 1, target: 0 },
              { op: 'dismiss', pick: 0 },
              { op: 'report', by: 2, target: 0 },
              { op: 'report', by: 3, target: 0 },
              { op: 'report', by: 4, target: 0 },
              { op: 'hide', pick: 2 },
            ],
          ],
        ],
      },
    );
    expect(seen.autoHidden).toBeGreaterThan(0);
    expect(seen.decided).toBeGreaterThan(0);
    expect(seen.reportedAfterDecision).toBeGreaterThan(0);
    expect(seen.hiddenAgain).toBeGreaterThan(0);
  });
});
