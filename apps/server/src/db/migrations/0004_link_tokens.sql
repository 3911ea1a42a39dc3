-- A mailed link (verification or reset) is bound to the address it was sent to.
-- Links sent before this migration cannot say which address that was, so they are dropped:
-- people ask for a new one (resend or "forgot password").
ALTER TABLE "account_tokens" ADD COLUMN "email" text;--> statement-breakpoint
DELETE FROM "account_tokens" WHERE "email" IS NULL;--> statement-breakpoint
ALTER TABLE "account_tokens" ALTER COLUMN "email" SET NOT NULL;
