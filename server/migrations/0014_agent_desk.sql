ALTER TYPE "public"."ticket_history_type" ADD VALUE 'tags';--> statement-breakpoint
ALTER TYPE "public"."ticket_history_type" ADD VALUE 'merged';--> statement-breakpoint
CREATE TABLE "tag_counts" (
	"tag" text PRIMARY KEY NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "users_name_prefix_idx" ON "users" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "tickets_tags_idx" ON "tickets" USING gin ("tags");--> statement-breakpoint
CREATE TABLE "ticket_tag_counts" (
	"tag" text NOT NULL,
	"agent_id" integer NOT NULL,
	"status" "ticket_status" NOT NULL,
	"priority" "ticket_priority" NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "ticket_tag_counts_tag_agent_id_status_priority_pk" PRIMARY KEY("tag","agent_id","status","priority")
);
--> statement-breakpoint
-- Keeps tag_counts (per tag) and ticket_tag_counts (per tag, assignee, status, priority) exact in the
-- transaction of every change to tickets, as ticket_counts is (0004). agent 0 = unassigned.
CREATE OR REPLACE FUNCTION tag_counts_bump(tags text[], agent integer, st ticket_status, pr ticket_priority, delta integer, totals boolean)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(tags) = 0 THEN
    RETURN;
  END IF;
  IF totals THEN
    INSERT INTO tag_counts AS c (tag, n) SELECT DISTINCT t, delta FROM unnest(tags) t
    ON CONFLICT (tag) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  INSERT INTO ticket_tag_counts AS c (tag, agent_id, status, priority, n)
  SELECT DISTINCT t, coalesce(agent, 0), st, pr, delta FROM unnest(tags) t
  ON CONFLICT (tag, agent_id, status, priority) DO UPDATE SET n = c.n + excluded.n;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tag_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM tag_counts_bump(NEW.tags, NEW.assigned_agent_id, NEW.status, NEW.priority, 1, true);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM tag_counts_bump(OLD.tags, OLD.assigned_agent_id, OLD.status, OLD.priority, -1, true);
  ELSIF (OLD.tags, OLD.assigned_agent_id, OLD.status, OLD.priority) IS DISTINCT FROM (NEW.tags, NEW.assigned_agent_id, NEW.status, NEW.priority) THEN
    PERFORM tag_counts_bump(OLD.tags, OLD.assigned_agent_id, OLD.status, OLD.priority, -1, OLD.tags IS DISTINCT FROM NEW.tags);
    PERFORM tag_counts_bump(NEW.tags, NEW.assigned_agent_id, NEW.status, NEW.priority, 1, OLD.tags IS DISTINCT FROM NEW.tags);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_tag_counts_insert_delete AFTER INSERT OR DELETE ON tickets FOR EACH ROW EXECUTE FUNCTION tag_counts_track();
--> statement-breakpoint
-- Also fires for ON DELETE SET NULL of assigned_agent_id when an agent is deleted.
CREATE TRIGGER tickets_tag_counts_update AFTER UPDATE OF tags, assigned_agent_id, status, priority ON tickets FOR EACH ROW EXECUTE FUNCTION tag_counts_track();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tag_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM tag_counts;
  DELETE FROM ticket_tag_counts;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_tag_counts_truncate AFTER TRUNCATE ON tickets FOR EACH STATEMENT EXECUTE FUNCTION tag_counts_clear();
