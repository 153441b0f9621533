CREATE TABLE "ticket_counts" (
	"agent_id" integer NOT NULL,
	"status" "ticket_status" NOT NULL,
	"priority" "ticket_priority" NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "ticket_counts_agent_id_status_priority_pk" PRIMARY KEY("agent_id","status","priority")
);
--> statement-breakpoint
DROP INDEX "ticket_comments_ticket_idx";--> statement-breakpoint
DROP INDEX "ticket_history_ticket_idx";--> statement-breakpoint
DROP INDEX "tickets_user_created_idx";--> statement-breakpoint
DROP INDEX "tickets_assigned_created_idx";--> statement-breakpoint
DROP INDEX "tickets_status_created_idx";--> statement-breakpoint
DROP INDEX "tickets_priority_created_idx";--> statement-breakpoint
DROP INDEX "tickets_created_idx";--> statement-breakpoint
DROP INDEX "tickets_updated_idx";--> statement-breakpoint
CREATE INDEX "tickets_user_status_priority_idx" ON "tickets" USING btree ("user_id","status","priority");--> statement-breakpoint
CREATE INDEX "tickets_priority_created_desc_idx" ON "tickets" USING btree ("priority","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "ticket_comments_ticket_idx" ON "ticket_comments" USING btree ("ticket_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ticket_history_ticket_idx" ON "ticket_history" USING btree ("ticket_id","created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_user_created_idx" ON "tickets" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_assigned_created_idx" ON "tickets" USING btree ("assigned_agent_id","created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_status_created_idx" ON "tickets" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_priority_created_idx" ON "tickets" USING btree ("priority","created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_created_idx" ON "tickets" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "tickets_updated_idx" ON "tickets" USING btree ("updated_at","id");