-- Measured at 1M tickets (docs/decisions.md#filters-read-off-the-order): sla=<state> beside an
-- assignee or a status was counted by a bitmap over every ticket in that state (135,000 for
-- breached) and then fetched each match (26-58 ms); with sla_state in the assignee's and the
-- status's index entries the count is an index-only scan of that assignee's or status's tickets
-- (0.4-3 ms). A tag filter read in deadline order fetched every row it walked past to check its
-- tags (up to 281 ms under load); with the tags in the deadline indexes' entries it is checked on
-- the index (7 ms at worst). drizzle cannot declare INCLUDE, so the schema keeps these indexes'
-- names and keys and this file adds the rest.
DROP INDEX "tickets_sla_due_idx";--> statement-breakpoint
CREATE INDEX "tickets_sla_due_idx" ON "tickets" USING btree ("sla_due_at" ASC NULLS LAST, "id") INCLUDE ("sla_state", "assigned_agent_id", "status", "priority", "tags");--> statement-breakpoint
DROP INDEX "tickets_sla_due_desc_idx";--> statement-breakpoint
CREATE INDEX "tickets_sla_due_desc_idx" ON "tickets" USING btree ("sla_due_at" DESC NULLS LAST, "id" DESC) INCLUDE ("sla_state", "assigned_agent_id", "status", "priority", "tags");--> statement-breakpoint
DROP INDEX "tickets_status_created_idx";--> statement-breakpoint
CREATE INDEX "tickets_status_created_idx" ON "tickets" USING btree ("status", "created_at", "id") INCLUDE ("priority", "assigned_agent_id", "tags", "sla_state");--> statement-breakpoint
DROP INDEX "tickets_assigned_created_idx";--> statement-breakpoint
CREATE INDEX "tickets_assigned_created_idx" ON "tickets" USING btree ("assigned_agent_id", "created_at", "id") INCLUDE ("status", "priority", "tags", "sla_state");--> statement-breakpoint
DROP INDEX "tickets_assigned_status_created_idx";--> statement-breakpoint
CREATE INDEX "tickets_assigned_status_created_idx" ON "tickets" USING btree ("assigned_agent_id", "status", "created_at", "id") INCLUDE ("priority", "tags", "sla_state");--> statement-breakpoint
ANALYZE "tickets";
