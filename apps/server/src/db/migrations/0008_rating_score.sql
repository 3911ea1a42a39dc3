-- "Best rated" sorts by a Bayesian average kept beside rating_avg (docs/decisions/016-bayesian-rating.md).
ALTER TABLE "accounts" ADD COLUMN "rating_score" numeric(5, 4) DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "accounts" SET "rating_score" = CASE WHEN "rating_count" = 0 THEN 0 ELSE round((5 * m.mean + "rating_avg" * "rating_count") / (5 + "rating_count"), 4) END FROM (SELECT coalesce(avg("rating"), 0) AS mean FROM "reviews") m WHERE "role" = 'trainer';--> statement-breakpoint
DROP INDEX "accounts_trainer_rating_idx";--> statement-breakpoint
DROP INDEX "accounts_trainer_city_idx";--> statement-breakpoint
CREATE INDEX "accounts_trainer_rating_idx" ON "accounts" USING btree ("rating_score" DESC NULLS LAST,"id") INCLUDE ("price_cents","rating_avg","gender","city","created_at") WHERE role = 'trainer' and deleted_at is null and email_verified_at is not null;--> statement-breakpoint
CREATE INDEX "accounts_trainer_city_idx" ON "accounts" USING btree (lower("city"),"rating_score" DESC NULLS LAST,"id") INCLUDE ("city","price_cents","rating_avg","gender","created_at") WHERE role = 'trainer' and deleted_at is null and email_verified_at is not null;
