-- A tag walked in its own rows (docs/decisions.md#a-tag-walked-in-its-own-rows). A tag's list in creation
-- order walked the tickets' creation index (or a filter's) and dropped every ticket without the tag: ~2,000
-- entries for a page of a tag on 1 % of a million tickets, and a rare tag's every ticket read and sorted.
-- ticket_tags holds each ticket's tags, one row each, keyed by tag then creation time, with the filters a
-- list is asked with beside the key: such a page is the next rows of one range. Kept by triggers on
-- tickets in the writing transaction, as ticket_words is. Writes to tickets wait while it is filled
-- (SHARE), so none is missed or counted twice; the index is built after the rows.
LOCK TABLE tickets IN SHARE MODE;
--> statement-breakpoint
CREATE TABLE "ticket_tags" (
	"tag" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"ticket_id" integer NOT NULL,
	"status" "ticket_status" NOT NULL,
	"priority" "ticket_priority" NOT NULL,
	"agent_id" integer NOT NULL
);
--> statement-breakpoint
-- Index-only reads need the visibility map current, as for ticket_words (migration 0029).
ALTER TABLE "ticket_tags" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 20000, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 20000);
--> statement-breakpoint
-- An insert adds its tickets' rows, a delete removes them.
CREATE OR REPLACE FUNCTION ticket_tags_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each branch names only its own transition table: PL/pgSQL plans a statement's every table.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ticket_tags (tag, created_at, ticket_id, status, priority, agent_id)
    SELECT t, n.created_at, n.id, n.status, n.priority, coalesce(n.assigned_agent_id, 0) FROM new_rows n, unnest(n.tags) t;
  ELSE
    DELETE FROM ticket_tags g
    USING old_rows o, unnest(o.tags) t
    WHERE g.tag = t AND g.created_at = o.created_at AND g.ticket_id = o.id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_tags_insert AFTER INSERT ON tickets REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_tags_track();
--> statement-breakpoint
CREATE TRIGGER tickets_tags_delete AFTER DELETE ON tickets REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_tags_track();
--> statement-breakpoint
-- A ticket whose tags, status, priority or assignee changed gets its rows replaced. A row trigger on those
-- columns, so the updates that name none of them (activity times, the SLA scanner's marks) never call it.
CREATE OR REPLACE FUNCTION ticket_tags_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ticket_tags g
  WHERE g.tag = ANY (OLD.tags) AND g.created_at = OLD.created_at AND g.ticket_id = OLD.id;
  INSERT INTO ticket_tags (tag, created_at, ticket_id, status, priority, agent_id)
  SELECT t, NEW.created_at, NEW.id, NEW.status, NEW.priority, coalesce(NEW.assigned_agent_id, 0) FROM unnest(NEW.tags) t;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Also the ON DELETE SET NULL of a deleted agent, which updates assigned_agent_id.
CREATE TRIGGER tickets_tags_update AFTER UPDATE OF tags, status, priority, assigned_agent_id, created_at ON tickets FOR EACH ROW
WHEN (OLD.tags IS DISTINCT FROM NEW.tags OR OLD.status IS DISTINCT FROM NEW.status OR OLD.priority IS DISTINCT FROM NEW.priority
  OR OLD.assigned_agent_id IS DISTINCT FROM NEW.assigned_agent_id OR OLD.created_at IS DISTINCT FROM NEW.created_at)
EXECUTE FUNCTION ticket_tags_change();
--> statement-breakpoint
-- TRUNCATE skips row and statement triggers above: the tags go with it.
CREATE OR REPLACE FUNCTION ticket_tags_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ticket_tags;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_tags_truncate AFTER TRUNCATE ON tickets FOR EACH STATEMENT EXECUTE FUNCTION ticket_tags_clear();
--> statement-breakpoint
INSERT INTO ticket_tags (tag, created_at, ticket_id, status, priority, agent_id)
SELECT t, created_at, id, status, priority, coalesce(assigned_agent_id, 0) FROM tickets, unnest(tags) t;
--> statement-breakpoint
CREATE INDEX "ticket_tags_idx" ON "ticket_tags" USING btree ("tag","created_at","ticket_id") INCLUDE ("status","priority","agent_id");
--> statement-breakpoint
ANALYZE ticket_tags;
