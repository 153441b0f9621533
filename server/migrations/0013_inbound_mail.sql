CREATE TYPE "public"."inbound_status" AS ENUM('queued', 'ticket', 'comment', 'note', 'ignored', 'rejected', 'failed');--> statement-breakpoint
ALTER TYPE "public"."ticket_history_type" ADD VALUE 'follow_up';--> statement-breakpoint
ALTER TYPE "public"."ticket_history_type" ADD VALUE 'email_bounced';--> statement-breakpoint
CREATE TABLE "imap_state" (
	"mailbox" text PRIMARY KEY NOT NULL,
	"uid_validity" bigint NOT NULL,
	"last_uid" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inbound_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"message_id" text,
	"envelope_from" text,
	"envelope_to" text NOT NULL,
	"from_address" text,
	"subject" text,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"source" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" "inbound_status" DEFAULT 'queued' NOT NULL,
	"reason" text,
	"ticket_id" integer,
	"comment_id" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dedupe_key" text NOT NULL,
	"duplicate_of" integer
);
--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_comment_id_ticket_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."ticket_comments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_messages_dedupe_key" ON "inbound_messages" USING btree ("dedupe_key") WHERE "inbound_messages"."duplicate_of" is null;--> statement-breakpoint
CREATE INDEX "inbound_messages_queue_idx" ON "inbound_messages" USING btree ("next_attempt_at","id") WHERE "inbound_messages"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "inbound_messages_sender_idx" ON "inbound_messages" USING btree ("from_address","received_at");