-- Keeps ticket_counts exact in the transaction of every change to tickets; agent 0 = unassigned.
CREATE OR REPLACE FUNCTION ticket_counts_bump(agent integer, st ticket_status, pr ticket_priority, delta integer)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO ticket_counts (agent_id, status, priority, n) VALUES (coalesce(agent, 0), st, pr, delta)
  ON CONFLICT (agent_id, status, priority) DO UPDATE SET n = ticket_counts.n + excluded.n
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM ticket_counts_bump(NEW.assigned_agent_id, NEW.status, NEW.priority, 1);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM ticket_counts_bump(OLD.assigned_agent_id, OLD.status, OLD.priority, -1);
  ELSIF (OLD.assigned_agent_id, OLD.status, OLD.priority) IS DISTINCT FROM (NEW.assigned_agent_id, NEW.status, NEW.priority) THEN
    PERFORM ticket_counts_bump(OLD.assigned_agent_id, OLD.status, OLD.priority, -1);
    PERFORM ticket_counts_bump(NEW.assigned_agent_id, NEW.status, NEW.priority, 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_counts_insert_delete AFTER INSERT OR DELETE ON tickets FOR EACH ROW EXECUTE FUNCTION ticket_counts_track();
--> statement-breakpoint
-- Also fires for ON DELETE SET NULL of assigned_agent_id when an agent is deleted.
CREATE TRIGGER tickets_counts_update AFTER UPDATE OF assigned_agent_id, status, priority ON tickets FOR EACH ROW EXECUTE FUNCTION ticket_counts_track();
--> statement-breakpoint
-- TRUNCATE skips row triggers: the counts go with it.
CREATE OR REPLACE FUNCTION ticket_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ticket_counts;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_counts_truncate AFTER TRUNCATE ON tickets FOR EACH STATEMENT EXECUTE FUNCTION ticket_counts_clear();
--> statement-breakpoint
-- Taken in the migration's transaction after the triggers exist, so no write is counted twice or missed.
LOCK TABLE tickets IN SHARE MODE;
--> statement-breakpoint
INSERT INTO ticket_counts (agent_id, status, priority, n)
SELECT coalesce(assigned_agent_id, 0), status, priority, count(*)::int FROM tickets GROUP BY 1, 2, 3;
--> statement-breakpoint
ANALYZE tickets;
