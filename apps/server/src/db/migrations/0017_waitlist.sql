-- The waitlist (docs/product.md#waitlist): users waiting for a time of a trainer, and the freed slots offered to them.
CREATE TABLE "waitlist_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"trainer_id" uuid NOT NULL,
	"from_at" timestamp with time zone NOT NULL,
	"to_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "waitlist_entries_window_ck" CHECK ("waitlist_entries"."to_at" > "waitlist_entries"."from_at")
);
--> statement-breakpoint
CREATE TABLE "waitlist_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_id" uuid NOT NULL,
	"booking_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_trainer_id_accounts_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_entry_id_waitlist_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."waitlist_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "waitlist_entries_trainer_idx" ON "waitlist_entries" USING btree ("trainer_id","created_at") WHERE removed_at is null;--> statement-breakpoint
CREATE INDEX "waitlist_entries_user_idx" ON "waitlist_entries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_offers_entry_slot_uq" ON "waitlist_offers" USING btree ("entry_id","starts_at");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_offers_booking_uq" ON "waitlist_offers" USING btree ("booking_id");--> statement-breakpoint
-- A live booking (held or paid) that stops being live or moves away frees its slot, whoever makes the change (a cancellation, a refund, a lapsed hold, a move, a chargeback, SQL by hand): when somebody waits for a time of that trainer around it, the database queues the job that offers the slot to the first in line (`booking.waitlist-offer`, apps/server/src/modules/bookings/offer-freed-slot.ts, docs/product.md#waitlist).
CREATE FUNCTION spotter_slot_freed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO jobs (kind, run_at, payload)
  SELECT 'booking.waitlist-offer', now(), jsonb_build_object('trainerId', o.trainer_id::text, 'startsAt', to_char(o.starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  FROM old_rows o JOIN new_rows n ON n.id = o.id
  WHERE o.status IN ('pending', 'confirmed')
    AND (n.status NOT IN ('pending', 'confirmed') OR n.starts_at <> o.starts_at)
    AND EXISTS (
      SELECT 1 FROM waitlist_entries w
      WHERE w.trainer_id = o.trainer_id AND w.removed_at IS NULL AND w.from_at <= o.starts_at AND w.to_at >= o.ends_at
    );
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER bookings_slot_freed AFTER UPDATE ON "bookings" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_slot_freed();
