-- SLA states in rows of their own (docs/decisions.md#sla-states-in-rows-of-their-own). A scanner mark
-- changes a ticket's sla_state and sla_next_mark_at, both in indexes of tickets, so every mark was a
-- new version of the row with an entry in each of the table's 26 indexes: at a million tickets most
-- of a pass over 10,000 due tickets. ticket_sla_states holds the state, the next mark, the deadline
-- and the filters a list is asked with beside them, kept by triggers on tickets in the writing
-- transaction (as ticket_tags is); sla=<state> pages and the scanner read its indexes, and no index of
-- tickets names the state or the next mark any more. With room left on a page (fillfactor 50, below),
-- a mark is then a HOT update: no index entry at all. Writes to tickets wait while the rows are
-- filled (SHARE), so none is missed.
LOCK TABLE tickets IN SHARE MODE;
--> statement-breakpoint
CREATE TABLE "ticket_sla_states" (
	"ticket_id" integer PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone,
	"next_mark_at" timestamp with time zone,
	"status" "ticket_status" NOT NULL,
	"priority" "ticket_priority" NOT NULL,
	"agent_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ticket_sla_states" ADD CONSTRAINT "ticket_sla_states_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Index-only reads need the visibility map current, and each scanner pass rewrites thousands of rows.
ALTER TABLE "ticket_sla_states" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 20000, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 20000);
--> statement-breakpoint
-- A ticket under a policy (a state) gets its row when it is inserted; a deletion takes it (the key cascades).
CREATE OR REPLACE FUNCTION ticket_sla_states_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_sla_states (ticket_id, state, created_at, due_at, next_mark_at, status, priority, agent_id)
  SELECT n.id, n.sla_state, n.created_at, n.sla_due_at, n.sla_next_mark_at, n.status, n.priority, coalesce(n.assigned_agent_id, 0)
  FROM new_rows n WHERE n.sla_state IS NOT NULL;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_sla_states_insert AFTER INSERT ON tickets REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_sla_states_insert();
--> statement-breakpoint
-- A ticket whose state, next mark, deadline or list filters changed gets its row written again, or
-- loses it without a state. A statement trigger over the transition tables the counters' trigger
-- already has them in: a row trigger on those columns cost 14 ms for a scanner batch of 500 at a
-- million tickets, this 9 ms, of which most is the rows' own index entries. Also the ON DELETE SET
-- NULL of a deleted agent, which updates assigned_agent_id.
CREATE OR REPLACE FUNCTION ticket_sla_states_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ticket_sla_states s USING new_rows n WHERE s.ticket_id = n.id AND n.sla_state IS NULL;
  INSERT INTO ticket_sla_states (ticket_id, state, created_at, due_at, next_mark_at, status, priority, agent_id)
  SELECT n.id, n.sla_state, n.created_at, n.sla_due_at, n.sla_next_mark_at, n.status, n.priority, coalesce(n.assigned_agent_id, 0)
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE n.sla_state IS NOT NULL
    AND (o.sla_state, o.sla_next_mark_at, o.sla_due_at, o.status, o.priority, o.assigned_agent_id, o.created_at)
      IS DISTINCT FROM (n.sla_state, n.sla_next_mark_at, n.sla_due_at, n.status, n.priority, n.assigned_agent_id, n.created_at)
  ORDER BY n.id
  ON CONFLICT (ticket_id) DO UPDATE SET state = excluded.state, created_at = excluded.created_at, due_at = excluded.due_at,
    next_mark_at = excluded.next_mark_at, status = excluded.status, priority = excluded.priority, agent_id = excluded.agent_id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_sla_states_update AFTER UPDATE ON tickets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_sla_states_change();
--> statement-breakpoint
INSERT INTO ticket_sla_states (ticket_id, state, created_at, due_at, next_mark_at, status, priority, agent_id)
SELECT id, sla_state, created_at, sla_due_at, sla_next_mark_at, status, priority, coalesce(assigned_agent_id, 0) FROM tickets WHERE sla_state IS NOT NULL;
--> statement-breakpoint
-- sla=<state> in creation order; the deadline order both ways for the states whose clock may run; the
-- filters beside the state in each entry.
CREATE INDEX "ticket_sla_states_created_idx" ON "ticket_sla_states" USING btree ("state","created_at","ticket_id") INCLUDE ("status","priority","agent_id","due_at");
--> statement-breakpoint
CREATE INDEX "ticket_sla_states_due_idx" ON "ticket_sla_states" USING btree ("state","due_at","ticket_id") INCLUDE ("status","priority","agent_id","created_at") WHERE "ticket_sla_states"."state" in ('ok', 'warning', 'breached');
--> statement-breakpoint
CREATE INDEX "ticket_sla_states_due_desc_idx" ON "ticket_sla_states" USING btree ("state","due_at" DESC NULLS LAST,"ticket_id" DESC) INCLUDE ("status","priority","agent_id","created_at") WHERE "ticket_sla_states"."state" in ('ok', 'warning', 'breached');
--> statement-breakpoint
CREATE INDEX "ticket_sla_states_next_mark_idx" ON "ticket_sla_states" USING btree ("next_mark_at") WHERE "ticket_sla_states"."next_mark_at" is not null;
--> statement-breakpoint
ANALYZE ticket_sla_states;
--> statement-breakpoint
-- Out of tickets: the state's own indexes, the next mark's, and the state in every other one's INCLUDE.
DROP INDEX "tickets_sla_state_due_idx";
--> statement-breakpoint
DROP INDEX "tickets_sla_state_due_desc_idx";
--> statement-breakpoint
DROP INDEX "tickets_sla_state_created_idx";
--> statement-breakpoint
DROP INDEX "tickets_sla_next_mark_idx";
--> statement-breakpoint
DROP INDEX "tickets_assigned_category_created_idx";
--> statement-breakpoint
CREATE INDEX "tickets_assigned_category_created_idx" ON "tickets" USING btree ("assigned_agent_id","category","created_at","id") INCLUDE ("status","priority","tags");
--> statement-breakpoint
DROP INDEX "tickets_assigned_created_idx";
--> statement-breakpoint
CREATE INDEX "tickets_assigned_created_idx" ON "tickets" USING btree ("assigned_agent_id","created_at","id") INCLUDE ("status","priority","tags","updated_at","last_activity_at");
--> statement-breakpoint
DROP INDEX "tickets_assigned_sla_due_desc_idx";
--> statement-breakpoint
CREATE INDEX "tickets_assigned_sla_due_desc_idx" ON "tickets" USING btree ("assigned_agent_id","sla_due_at" DESC NULLS LAST,"id" DESC) INCLUDE ("status","priority","tags");
--> statement-breakpoint
DROP INDEX "tickets_assigned_sla_due_idx";
--> statement-breakpoint
CREATE INDEX "tickets_assigned_sla_due_idx" ON "tickets" USING btree ("assigned_agent_id","sla_due_at","id") INCLUDE ("status","priority","tags");
--> statement-breakpoint
DROP INDEX "tickets_assigned_status_created_idx";
--> statement-breakpoint
CREATE INDEX "tickets_assigned_status_created_idx" ON "tickets" USING btree ("assigned_agent_id","status","created_at","id") INCLUDE ("priority","tags");
--> statement-breakpoint
DROP INDEX "tickets_category_created_idx";
--> statement-breakpoint
CREATE INDEX "tickets_category_created_idx" ON "tickets" USING btree ("category","created_at","id") INCLUDE ("status","priority","assigned_agent_id","tags");
--> statement-breakpoint
DROP INDEX "tickets_id_covering_idx";
--> statement-breakpoint
CREATE INDEX "tickets_id_covering_idx" ON "tickets" USING btree ("id") INCLUDE ("status","priority","assigned_agent_id","tags");
--> statement-breakpoint
DROP INDEX "tickets_sla_due_desc_idx";
--> statement-breakpoint
CREATE INDEX "tickets_sla_due_desc_idx" ON "tickets" USING btree ("sla_due_at" DESC NULLS LAST,"id" DESC) INCLUDE ("assigned_agent_id","status","priority","tags");
--> statement-breakpoint
DROP INDEX "tickets_sla_due_idx";
--> statement-breakpoint
CREATE INDEX "tickets_sla_due_idx" ON "tickets" USING btree ("sla_due_at","id") INCLUDE ("assigned_agent_id","status","priority","tags");
--> statement-breakpoint
DROP INDEX "tickets_status_created_idx";
--> statement-breakpoint
CREATE INDEX "tickets_status_created_idx" ON "tickets" USING btree ("status","created_at","id") INCLUDE ("priority","assigned_agent_id","tags","updated_at","last_activity_at","sla_due_at");
--> statement-breakpoint
-- Half of each page left free, so a ticket's next version (a mark, an edit naming no indexed column)
-- fits beside it: tickets coming due together were made together and share pages. Pages written from
-- now on keep it. The tickets already there stay packed until the table is rewritten (VACUUM FULL
-- tickets at a quiet hour): a rewrite here would hold the table for minutes at a million tickets and
-- leave its visibility map empty, so every index-only read fetched rows again until a vacuum.
-- Tickets come due within days of being made, so the marks reach the new pages soon anyway.
ALTER TABLE "tickets" SET (fillfactor = 50);
