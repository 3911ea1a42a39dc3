CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "favourites" (
	"user_id" uuid NOT NULL,
	"trainer_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favourites_user_id_trainer_id_pk" PRIMARY KEY("user_id","trainer_id")
);
--> statement-breakpoint
CREATE TABLE "newsletter_subscribers" (
	"email" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trainer_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"rating" smallint NOT NULL,
	"comment" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reviews_rating_ck" CHECK ("reviews"."rating" between 1 and 5)
);
--> statement-breakpoint
DROP INDEX "accounts_trainer_rating_idx";--> statement-breakpoint
ALTER TABLE "favourites" ADD CONSTRAINT "favourites_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favourites" ADD CONSTRAINT "favourites_trainer_id_accounts_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_trainer_id_accounts_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_trainer_user_uq" ON "reviews" USING btree ("trainer_id","user_id");--> statement-breakpoint
CREATE INDEX "reviews_trainer_created_idx" ON "reviews" USING btree ("trainer_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "accounts_trainer_price_idx" ON "accounts" USING btree ("price_cents","id") INCLUDE ("rating_avg","gender","city","created_at") WHERE role = 'trainer' and deleted_at is null and email_verified_at is not null;--> statement-breakpoint
CREATE INDEX "accounts_trainer_newest_idx" ON "accounts" USING btree ("created_at" DESC NULLS LAST,"id") INCLUDE ("price_cents","rating_avg","gender","city") WHERE role = 'trainer' and deleted_at is null and email_verified_at is not null;--> statement-breakpoint
CREATE INDEX "accounts_trainer_city_idx" ON "accounts" USING btree (lower("city"),"rating_avg" DESC NULLS LAST,"id") INCLUDE ("city","price_cents","gender","created_at") WHERE role = 'trainer' and deleted_at is null and email_verified_at is not null;--> statement-breakpoint
CREATE INDEX "accounts_trainer_search_idx" ON "accounts" USING gin (("first_name" || ' ' || "last_name" || ' ' || "title" || ' ' || "description") gin_trgm_ops) WHERE role = 'trainer' and deleted_at is null and email_verified_at is not null;--> statement-breakpoint
CREATE INDEX "accounts_trainer_rating_idx" ON "accounts" USING btree ("rating_avg" DESC NULLS LAST,"id") INCLUDE ("price_cents","gender","city","created_at") WHERE role = 'trainer' and deleted_at is null and email_verified_at is not null;--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "accounts_city_lower_stats" ON (lower("city")) FROM "accounts";
