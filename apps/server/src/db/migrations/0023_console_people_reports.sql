-- The operator console's people and reports (docs/product.md#the-operator-console): an account can be suspended (no sign-in, tokens ended, a trainer unlisted) and a trainer's profile hidden, so both leave the list's partial indexes, which are rebuilt as they were (INCLUDE columns kept) with the narrower predicate; reviews and messages can be hidden; reports of reviews, messages and profiles, one per person and item. The account trigger announces a suspension, a restore and a hidden profile as it does a deletion (docs/caching.md).
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reporter_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"item_id" uuid NOT NULL,
	"subject_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"decision_reason" text,
	CONSTRAINT "reports_kind_ck" CHECK ("reports"."kind" in ('review', 'message', 'profile')),
	CONSTRAINT "reports_status_ck" CHECK ("reports"."status" in ('open', 'hidden', 'restored', 'dismissed'))
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "suspension_reason" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "profile_hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_accounts_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_subject_id_accounts_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reports_reporter_item_uq" ON "reports" USING btree ("reporter_id","kind","item_id");--> statement-breakpoint
CREATE INDEX "reports_item_idx" ON "reports" USING btree ("kind","item_id");--> statement-breakpoint
CREATE INDEX "reports_status_idx" ON "reports" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "reports_subject_idx" ON "reports" USING btree ("subject_id","created_at");--> statement-breakpoint
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'accounts' AND indexname LIKE 'accounts\_trainer\_%' LOOP
    EXECUTE format('DROP INDEX %I', r.indexname);
    EXECUTE regexp_replace(r.indexdef, ' WHERE (.*)$', ' WHERE (\1 AND (suspended_at IS NULL) AND (profile_hidden_at IS NULL))');
  END LOOP;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION spotter_accounts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  shown text[];
  rated text[];
  rights text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(id::text ORDER BY id) INTO shown FROM new_rows
      WHERE role = 'trainer' AND email_verified_at IS NOT NULL AND deleted_at IS NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(id::text ORDER BY id) INTO shown FROM old_rows;
    rights := shown;
  ELSE
    SELECT
      array_agg(n.id::text ORDER BY n.id) FILTER (WHERE
        (o.role, o.first_name, o.last_name, o.title, o.description, o.city, o.country, o.picture, o.gender,
         o.price_cents, o.email_verified_at, o.deleted_at, o.token_version, o.suspended_at, o.profile_hidden_at)
        IS DISTINCT FROM
        (n.role, n.first_name, n.last_name, n.title, n.description, n.city, n.country, n.picture, n.gender,
         n.price_cents, n.email_verified_at, n.deleted_at, n.token_version, n.suspended_at, n.profile_hidden_at)),
      array_agg(n.id::text ORDER BY n.id) FILTER (WHERE
        (o.rating_avg, o.rating_count, o.rating_score) IS DISTINCT FROM (n.rating_avg, n.rating_count, n.rating_score)),
      array_agg(n.id::text ORDER BY n.id) FILTER (WHERE
        (o.role, o.token_version, o.deleted_at, o.suspended_at) IS DISTINCT FROM (n.role, n.token_version, n.deleted_at, n.suspended_at))
      INTO shown, rated, rights
      FROM new_rows n JOIN old_rows o ON o.id = n.id;
  END IF;
  IF shown IS NOT NULL THEN
    PERFORM spotter_notify_change('accounts', shown);
  ELSE
    PERFORM spotter_notify_change('ratings', rated);
  END IF;
  IF rights IS NOT NULL THEN
    PERFORM pg_notify('spotter_account', r) FROM unnest(rights) AS r;
  END IF;
  RETURN NULL;
END
$$;
