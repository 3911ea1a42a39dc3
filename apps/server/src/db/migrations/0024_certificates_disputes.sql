-- Verified coaches and disputes (docs/product.md#verified-coaches, docs/decisions/047-disputes-by-rule.md): trainers' certificates, kept privately and approved by operators, give `accounts.verified_until`; a session's cancellation and dispute policy is frozen on it (`bookings.policy`); a user's dispute of a session, one per session. The account trigger now also announces a suspension, a restore, a hidden profile and a change of `verified_until` (shown on cards and profiles) as it does a deletion (docs/caching.md).
CREATE TABLE "certificates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trainer_id" uuid NOT NULL,
	"issuer" text NOT NULL,
	"expires_on" date NOT NULL,
	"file_key" text NOT NULL,
	"mime" text NOT NULL,
	"bytes" integer NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"decision_reason" text,
	"reminded_at" timestamp with time zone,
	CONSTRAINT "certificates_status_ck" CHECK ("certificates"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "disputes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"trainer_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"rule" text,
	"outcome" text,
	"refund_cents" integer,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"decision_reason" text,
	CONSTRAINT "disputes_status_ck" CHECK ("disputes"."status" in ('open', 'decided'))
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "verified_until" date;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "policy" jsonb;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_trainer_id_accounts_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_trainer_id_accounts_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certificates_trainer_idx" ON "certificates" USING btree ("trainer_id","created_at");--> statement-breakpoint
CREATE INDEX "certificates_status_idx" ON "certificates" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_booking_uq" ON "disputes" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "disputes_status_idx" ON "disputes" USING btree ("status","created_at");--> statement-breakpoint
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
         o.price_cents, o.email_verified_at, o.deleted_at, o.token_version, o.suspended_at, o.profile_hidden_at, o.verified_until)
        IS DISTINCT FROM
        (n.role, n.first_name, n.last_name, n.title, n.description, n.city, n.country, n.picture, n.gender,
         n.price_cents, n.email_verified_at, n.deleted_at, n.token_version, n.suspended_at, n.profile_hidden_at, n.verified_until)),
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
