CREATE TABLE "ledger_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"transaction_id" uuid NOT NULL,
	"account" text NOT NULL,
	"currency" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	CONSTRAINT "ledger_entries_amount_ck" CHECK ("ledger_entries"."amount_cents" <> 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"booking_id" uuid,
	"trainer_id" uuid,
	"user_id" uuid,
	"provider" text,
	"provider_order_id" text,
	"payout_id" uuid,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"booking_id" uuid,
	"provider" text,
	"provider_order_id" text,
	"external_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trainer_id" uuid NOT NULL,
	"email" text NOT NULL,
	"provider" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"booking_ids" uuid[] NOT NULL,
	"batch_key" text NOT NULL,
	"provider_batch_id" text,
	"provider_item_id" text,
	"provider_status" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payouts_amount_ck" CHECK ("payouts"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"booking_id" uuid,
	"provider" text NOT NULL,
	"provider_order_id" text NOT NULL,
	"capture_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"provider_refund_id" text,
	"raw" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "refunds_amount_ck" CHECK ("refunds"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "payout_email" text;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account","currency");--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_idx" ON "ledger_entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_key_uq" ON "ledger_transactions" USING btree ("key");--> statement-breakpoint
CREATE INDEX "ledger_transactions_order_idx" ON "ledger_transactions" USING btree ("provider","provider_order_id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_booking_idx" ON "ledger_transactions" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_trainer_idx" ON "ledger_transactions" USING btree ("trainer_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_events_order_idx" ON "payment_events" USING btree ("provider","provider_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_external_uq" ON "payment_events" USING btree ("external_id");--> statement-breakpoint
CREATE INDEX "payouts_trainer_idx" ON "payouts" USING btree ("trainer_id","created_at");--> statement-breakpoint
CREATE INDEX "payouts_open_idx" ON "payouts" USING btree ("status") WHERE status in ('pending', 'sent');--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_key_uq" ON "refunds" USING btree ("key");--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("provider","provider_order_id");--> statement-breakpoint
-- The ledger is append-only and every transaction balances, per currency (docs/decisions/042-money-ledger.md).
CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME USING ERRCODE = 'P0001';
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER ledger_transactions_no_truncate BEFORE TRUNCATE ON ledger_transactions FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  off record;
BEGIN
  SELECT currency, sum(amount_cents) AS total INTO off
    FROM ledger_entries WHERE transaction_id = NEW.transaction_id
    GROUP BY currency HAVING sum(amount_cents) <> 0 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger transaction % does not balance: % % off', NEW.transaction_id, off.total, off.currency USING ERRCODE = 'P0001';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_balanced();
--> statement-breakpoint
-- Payments made before the ledger: each capture and each refund becomes its transaction.
INSERT INTO ledger_transactions (key, kind, booking_id, trainer_id, user_id, provider, provider_order_id, memo, created_at)
SELECT 'capture:' || p.provider || ':' || p.capture_id, 'payment', p.booking_id, p.trainer_id, p.user_id, p.provider, p.provider_order_id, 'before the ledger', p.created_at
FROM payments p;
--> statement-breakpoint
INSERT INTO ledger_entries (transaction_id, account, currency, amount_cents)
SELECT t.id, e.account, p.currency, e.amount
FROM payments p
JOIN ledger_transactions t ON t.key = 'capture:' || p.provider || ':' || p.capture_id
CROSS JOIN LATERAL (VALUES
  ('world:' || p.provider, -p.amount_cents::bigint),
  ('trainer:' || p.trainer_id || ':pending', (p.amount_cents - p.fee_cents)::bigint),
  ('platform:fees', p.fee_cents::bigint)
) AS e(account, amount)
WHERE e.amount <> 0;
--> statement-breakpoint
INSERT INTO ledger_transactions (key, kind, booking_id, trainer_id, user_id, provider, provider_order_id, memo, created_at)
SELECT 'refund:before-ledger:' || p.id, 'refund', p.booking_id, p.trainer_id, p.user_id, p.provider, p.provider_order_id, 'before the ledger', coalesce(p.refunded_at, p.created_at)
FROM payments p WHERE p.status = 'refunded';
--> statement-breakpoint
INSERT INTO ledger_entries (transaction_id, account, currency, amount_cents)
SELECT t.id, e.account, p.currency, e.amount
FROM payments p
JOIN ledger_transactions t ON t.key = 'refund:before-ledger:' || p.id
CROSS JOIN LATERAL (VALUES
  ('world:' || p.provider, p.amount_cents::bigint),
  ('trainer:' || p.trainer_id || ':pending', -(p.amount_cents - p.fee_cents)::bigint),
  ('platform:fees', -p.fee_cents::bigint)
) AS e(account, amount)
WHERE e.amount <> 0;
--> statement-breakpoint
INSERT INTO refunds (key, booking_id, provider, provider_order_id, capture_id, amount_cents, currency, status, reason, provider_refund_id, raw, created_at, completed_at)
SELECT 'full:' || p.id, p.booking_id, p.provider, p.provider_order_id, p.capture_id, p.amount_cents, p.currency, 'completed', 'before the ledger', p.refund_id, p.refund_raw, coalesce(p.refunded_at, p.created_at), p.refunded_at
FROM payments p WHERE p.status = 'refunded';
