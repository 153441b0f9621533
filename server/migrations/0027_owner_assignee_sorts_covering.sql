-- A requester's or an assignee's tickets in an order with no index of its own (last activity, last
-- update, priority; a requester's deadline) were read as a bitmap over all of them, one heap page per
-- ticket, and sorted: at 1M tickets a requester with 7,241 tickets took 15-35 ms, an agent's 2,195
-- tickets with a tag on a fifth of all tickets 27-39 ms (the tag's whole bitmap ANDed in). With the
-- order's columns in the index entries those become an index-only read of the person's entries and a
-- top-N sort: 1.4-3 ms and ~1 ms. drizzle cannot declare INCLUDE, so the schema keeps these indexes'
-- names and keys and this file adds the rest (docs/decisions.md#a-persons-tickets-in-any-order).
DROP INDEX "tickets_user_created_idx";--> statement-breakpoint
CREATE INDEX "tickets_user_created_idx" ON "tickets" USING btree ("user_id", "created_at", "id") INCLUDE ("status", "priority", "updated_at", "last_activity_at", "sla_due_at");--> statement-breakpoint
DROP INDEX "tickets_assigned_created_idx";--> statement-breakpoint
CREATE INDEX "tickets_assigned_created_idx" ON "tickets" USING btree ("assigned_agent_id", "created_at", "id") INCLUDE ("status", "priority", "tags", "sla_state", "updated_at", "last_activity_at");
