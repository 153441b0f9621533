-- A status's or an SLA state's tickets in an order with no index of its own were found walking that
-- order's index, at the rate the planner guesses from the share of tickets they are: where they sit at
-- the far end (pending and in-progress tickets are recent, so the oldest-first orders start among the
-- done ones) the walk read most of the index. At 1M tickets pending + high by oldest update read 160,000
-- entries (28-80 ms), pending by deadline 38 ms, in progress + urgent by oldest update 36 ms, paused by
-- deadline 13 ms. With every order's columns in the entries of the status's and the state's own
-- indexes, those are an index-only read of the few entries and a sort: 0.9-3.3 ms. drizzle cannot
-- declare INCLUDE, so the schema keeps these indexes' names, keys and conditions and this file adds
-- the rest (docs/decisions.md#a-persons-tickets-in-any-order).
DROP INDEX "tickets_status_created_idx";--> statement-breakpoint
CREATE INDEX "tickets_status_created_idx" ON "tickets" USING btree ("status", "created_at", "id") INCLUDE ("priority", "assigned_agent_id", "tags", "sla_state", "updated_at", "last_activity_at", "sla_due_at");--> statement-breakpoint
DROP INDEX "tickets_sla_state_created_idx";--> statement-breakpoint
CREATE INDEX "tickets_sla_state_created_idx" ON "tickets" USING btree ("sla_state", "created_at", "id") INCLUDE ("status", "priority", "assigned_agent_id", "updated_at", "last_activity_at", "sla_due_at") WHERE "tickets"."sla_state" is not null;
