ALTER TYPE "public"."ticket_status" ADD VALUE 'pending' BEFORE 'resolved';--> statement-breakpoint
ALTER TYPE "public"."ticket_history_type" ADD VALUE 'sla';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'sla_warning';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'sla_breached';--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_policy_id" integer;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_used_ms" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_running_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_first_responded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_response_used_ms" bigint;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_response_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_resolution_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_response_warn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_resolution_warn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_response_warned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_response_breached_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_resolution_warned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_resolution_breached_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_next_mark_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_state" text;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_sla_state_check" CHECK ("sla_state" in ('ok', 'warning', 'breached', 'paused', 'met'));--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_sla_policy_id_sla_policies_id_fk" FOREIGN KEY ("sla_policy_id") REFERENCES "public"."sla_policies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tickets_sla_due_idx" ON "tickets" USING btree ("sla_due_at" asc nulls last,"id");--> statement-breakpoint
CREATE INDEX "tickets_sla_due_desc_idx" ON "tickets" USING btree ("sla_due_at" desc nulls last,"id" desc);--> statement-breakpoint
CREATE INDEX "tickets_sla_state_created_idx" ON "tickets" USING btree ("sla_state","created_at","id") WHERE "tickets"."sla_state" is not null;--> statement-breakpoint
CREATE INDEX "tickets_sla_next_mark_idx" ON "tickets" USING btree ("sla_next_mark_at") WHERE "tickets"."sla_next_mark_at" is not null;--> statement-breakpoint
CREATE INDEX "tickets_sla_policy_idx" ON "tickets" USING btree ("sla_policy_id") WHERE "tickets"."sla_policy_id" is not null;
