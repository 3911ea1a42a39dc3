-- A weekly series paid by card (docs/product.md#standing-weekly-sessions): its one order buys a balance of kind 'series' that pays for its held weeks at the capture and is closed at once.
ALTER TABLE "package_balances" ALTER COLUMN "package_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "package_balances" ADD COLUMN "kind" text DEFAULT 'package' NOT NULL;--> statement-breakpoint
ALTER TABLE "package_balances" ADD COLUMN "series_id" uuid;--> statement-breakpoint
CREATE INDEX "package_balances_series_idx" ON "package_balances" USING btree ("series_id");--> statement-breakpoint
ALTER TABLE "package_balances" ADD CONSTRAINT "package_balances_kind_ck" CHECK (("package_balances"."kind" = 'package' and "package_balances"."package_id" is not null) or ("package_balances"."kind" = 'series' and "package_balances"."series_id" is not null));