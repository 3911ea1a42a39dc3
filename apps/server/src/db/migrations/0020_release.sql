-- Releasing a late session for resale (docs/product.md#releasing-a-late-session): the session stays its user's and paid, and no longer holds its slot; the one-live-booking-per-slot index leaves it out.
DROP INDEX "bookings_live_slot_uq";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "released_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_live_slot_uq" ON "bookings" USING btree ("trainer_id","starts_at") WHERE status in ('pending', 'confirmed') and released_at is null;--> statement-breakpoint
-- migration 0017's trigger: a session released for resale frees its slot too, so the waitlist is offered it
CREATE OR REPLACE FUNCTION spotter_slot_freed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO jobs (kind, run_at, payload)
  SELECT 'booking.waitlist-offer', now(), jsonb_build_object('trainerId', o.trainer_id::text, 'startsAt', to_char(o.starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  FROM old_rows o JOIN new_rows n ON n.id = o.id
  WHERE o.status IN ('pending', 'confirmed') AND o.released_at IS NULL
    AND (n.status NOT IN ('pending', 'confirmed') OR n.starts_at <> o.starts_at OR n.released_at IS NOT NULL)
    AND EXISTS (
      SELECT 1 FROM waitlist_entries w
      WHERE w.trainer_id = o.trainer_id AND w.removed_at IS NULL AND w.from_at <= o.starts_at AND w.to_at >= o.ends_at
    );
  RETURN NULL;
END
$$;
