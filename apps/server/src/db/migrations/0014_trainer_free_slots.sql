CREATE TABLE "trainer_free_slots" (
	"trainer_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"offered_until" timestamp with time zone NOT NULL,
	"local_date" date NOT NULL,
	"local_hour" smallint NOT NULL,
	"day_starts_at" timestamp with time zone NOT NULL,
	CONSTRAINT "trainer_free_slots_trainer_id_starts_at_pk" PRIMARY KEY("trainer_id","starts_at")
);
--> statement-breakpoint
CREATE TABLE "trainer_slot_refreshes" (
	"trainer_id" uuid PRIMARY KEY NOT NULL,
	"refreshed_at" timestamp with time zone NOT NULL,
	"next_starts_at" timestamp with time zone,
	"next_day_starts_at" timestamp with time zone,
	"next_morning_at" timestamp with time zone,
	"next_evening_at" timestamp with time zone,
	"valid_until" timestamp with time zone DEFAULT 'infinity' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trainer_free_slots" ADD CONSTRAINT "trainer_free_slots_trainer_id_accounts_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainer_slot_refreshes" ADD CONSTRAINT "trainer_slot_refreshes_trainer_id_accounts_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trainer_free_slots_offered_idx" ON "trainer_free_slots" USING btree ("trainer_id","offered_until") INCLUDE ("starts_at","local_date","local_hour","day_starts_at");--> statement-breakpoint
CREATE INDEX "trainer_free_slots_date_idx" ON "trainer_free_slots" USING btree ("local_date","trainer_id") INCLUDE ("offered_until","starts_at","local_hour","day_starts_at");--> statement-breakpoint
CREATE INDEX "trainer_slot_refreshes_at_idx" ON "trainer_slot_refreshes" USING btree ("refreshed_at");--> statement-breakpoint
CREATE INDEX "trainer_slot_refreshes_valid_idx" ON "trainer_slot_refreshes" USING btree ("valid_until");