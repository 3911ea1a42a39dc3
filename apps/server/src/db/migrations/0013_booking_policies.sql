ALTER TABLE "bookings" DROP CONSTRAINT "bookings_status_ck";--> statement-breakpoint
ALTER TABLE "availability" ADD COLUMN "min_notice_hours" integer DEFAULT 12 NOT NULL;--> statement-breakpoint
ALTER TABLE "availability" ADD COLUMN "buffer_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "availability" ADD COLUMN "overrides" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "availability" ADD COLUMN "location" jsonb;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "location" jsonb;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_status_ck" CHECK ("bookings"."status" in ('pending', 'confirmed', 'completed', 'cancelled', 'refunded', 'expired', 'no-show'));