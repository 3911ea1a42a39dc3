CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
	"user_id" uuid NOT NULL,
	"trainer_id" uuid NOT NULL,
	"sender_role" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"mailed_at" timestamp with time zone,
	CONSTRAINT "messages_sender_role_ck" CHECK ("sender_role" in ('user', 'trainer')),
	CONSTRAINT "messages_body_ck" CHECK (char_length("body") between 1 and 2000)
);
--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_trainer_id_accounts_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_seq_uq" ON "messages" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "messages_conversation_idx" ON "messages" USING btree ("trainer_id","user_id","seq");--> statement-breakpoint
CREATE INDEX "messages_trainer_seq_idx" ON "messages" USING btree ("trainer_id","seq");--> statement-breakpoint
CREATE INDEX "messages_user_idx" ON "messages" USING btree ("user_id","trainer_id","seq");--> statement-breakpoint
CREATE INDEX "messages_unmailed_idx" ON "messages" USING btree ("created_at") WHERE read_at is null and mailed_at is null;
