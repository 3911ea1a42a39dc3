-- The operator console's people and reports (docs/product.md#the-operator-console): an account can be suspended (no sign-in, tokens ended, a trainer unlisted) and a trainer's profile hidden, so both leave the list's partial indexes, which are rebuilt as they were (INCLUDE columns kept) with the narrower predicate; reviews and messages can be hidden; reports of reviews, messages and profiles, one per person and item. Migration 0024 has the account trigger announce a suspension, a restore and a hidden profile.
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
$$;
