-- sort=slaDueAt under an assignee (an agent's own tickets by deadline, the unassigned ones) or an SLA
-- state walked the deadline order of every ticket, dropping the entries of the other assignees or
-- states: one agent of hundreds with a priority read 4,400 entries (155 ms cold at 1M tickets),
-- sla=ok unassigned 15,200 (16 ms), and the tickets without a deadline come last in id order, so a
-- short list walked on through those. Per assignee, and per state whose clock may run, the same order
-- is a range of its own (0.04-0.1 ms). The desc order per state keeps the deadline index (a rare
-- question). The filters ride in the entries, as in 0017 and 0019; drizzle cannot declare INCLUDE, so
-- the schema keeps the names and keys and this file the rest.
CREATE INDEX "tickets_assigned_sla_due_idx" ON "tickets" USING btree ("assigned_agent_id", "sla_due_at" ASC NULLS LAST, "id") INCLUDE ("sla_state", "status", "priority", "tags");--> statement-breakpoint
CREATE INDEX "tickets_assigned_sla_due_desc_idx" ON "tickets" USING btree ("assigned_agent_id", "sla_due_at" DESC NULLS LAST, "id" DESC) INCLUDE ("sla_state", "status", "priority", "tags");--> statement-breakpoint
CREATE INDEX "tickets_sla_state_due_idx" ON "tickets" USING btree ("sla_state", "sla_due_at" ASC NULLS LAST, "id") INCLUDE ("status", "priority", "assigned_agent_id", "tags") WHERE "tickets"."sla_state" in ('ok', 'warning', 'breached');
