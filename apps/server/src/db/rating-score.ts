import { sql, type SQL } from 'drizzle-orm';

/** C of docs/decisions/016-bayesian-rating.md: every trainer starts with this many reviews at the site's mean. */
const PRIOR_REVIEWS = 5;

/** m: the mean of every visible review on the site (docs/product.md#reports-and-moderation), read when a score is written. */
const SITE_MEAN = sql`(select coalesce(avg(rating), 0) from reviews where hidden_at is null)`;

/**
 * The Bayesian average (C·m + Σratings) / (C + n) of an accounts row, from its `rating_avg` and
 * `rating_count` (Σ = avg · n). A trainer without reviews scores 0: "Best rated" lists them last.
 */
const SCORE = sql.raw(
  `case when rating_count = 0 then 0 else round((${PRIOR_REVIEWS} * m.mean + rating_avg * rating_count) / (${PRIOR_REVIEWS} + rating_count), 4) end`,
);

/** Recomputes `rating_score` of the trainers `where` selects (all of them when omitted). */
export function refreshRatingScores(where: SQL = sql`true`): SQL {
  return sql`update accounts set rating_score = ${SCORE} from (select ${SITE_MEAN} as mean) m where role = 'trainer' and ${where}`;
}
