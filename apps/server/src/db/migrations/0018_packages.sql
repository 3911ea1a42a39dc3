-- Packages (docs/product.md#packages): what trainers sell, the balances users bought (their money is on the ledger), and the sessions paid from them.
CREATE TABLE "package_balances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"trainer_id" uuid NOT NULL,
	"package_id" uuid NOT NULL,
	"sessions" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"validity_months" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"sessions_left" integer DEFAULT 0 NOT NULL,
	"provider" text,
	"provider_order_id" text,
	"capture_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	CONSTRAINT "package_balances_status_ck" CHECK ("package_balances"."status" in ('pending', 'active', 'refunding', 'closed')),
	CONSTRAINT "package_balances_sessions_ck" CHECK ("package_balances"."sessions_left" >= 0 and "package_balances"."sessions_left" <= "package_balances"."sessions")
);
--> statement-breakpoint
CREATE TABLE "trainer_packages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trainer_id" uuid NOT NULL,
	"sessions" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"validity_months" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "trainer_packages_sessions_ck" CHECK ("trainer_packages"."sessions" between 2 and 20),
	CONSTRAINT "trainer_packages_price_ck" CHECK ("trainer_packages"."price_cents" > 0),
	CONSTRAINT "trainer_packages_validity_ck" CHECK ("trainer_packages"."validity_months" is null or "trainer_packages"."validity_months" between 1 and 12)
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "balance_id" uuid;--> statement-breakpoint
ALTER TABLE "package_balances" ADD CONSTRAINT "package_balances_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_balances" ADD CONSTRAINT "package_balances_trainer_id_accounts_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_balances" ADD CONSTRAINT "package_balances_package_id_trainer_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."trainer_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainer_packages" ADD CONSTRAINT "trainer_packages_trainer_id_accounts_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "package_balances_order_uq" ON "package_balances" USING btree ("provider","provider_order_id");--> statement-breakpoint
CREATE INDEX "package_balances_user_idx" ON "package_balances" USING btree ("user_id","trainer_id");--> statement-breakpoint
CREATE INDEX "trainer_packages_trainer_idx" ON "trainer_packages" USING btree ("trainer_id") WHERE archived_at is null;--> statement-breakpoint
-- A trainer's packages show on their public profile: a change is announced as a change of the trainer's account, which drops their cached profile (docs/caching.md).
CREATE FUNCTION spotter_packages_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT trainer_id::text) INTO ids FROM old_rows;
  ELSE
    SELECT array_agg(DISTINCT trainer_id::text) INTO ids FROM new_rows;
  END IF;
  PERFORM spotter_notify_change('accounts', ids);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER trainer_packages_insert_notify AFTER INSERT ON "trainer_packages" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_packages_changed();--> statement-breakpoint
CREATE TRIGGER trainer_packages_update_notify AFTER UPDATE ON "trainer_packages" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_packages_changed();--> statement-breakpoint
CREATE TRIGGER trainer_packages_delete_notify AFTER DELETE ON "trainer_packages" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION spotter_packages_changed();
