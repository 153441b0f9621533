-- ticket_tag_counts gains the rows of every ticket whoever holds it (agent_id -1), as ticket_counts did in
-- 0010: a list or its cards under `tag=` without an assignee summed the tag's row of every staff member
-- (4,342 rows for a tag on a fifth of a million tickets, 1.3 ms a read) and now reads at most 20.
-- The row triggers of 0014 become statement triggers with transition tables, each counter row written
-- once per statement in key order (tag_counts first, then ticket_tag_counts), so writers that share the
-- every-ticket rows queue instead of deadlocking (docs/decisions.md#tags-counted-like-statuses).
DROP TRIGGER IF EXISTS tickets_tag_counts_insert_delete ON tickets;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tickets_tag_counts_update ON tickets;
--> statement-breakpoint
DROP FUNCTION IF EXISTS tag_counts_track();
--> statement-breakpoint
DROP FUNCTION IF EXISTS tag_counts_bump(text[], integer, ticket_status, ticket_priority, integer, boolean);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tag_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- ch: one row per ticket and tag, +1 after the statement and -1 before it (DISTINCT guards a direct
  -- write that repeats a tag); the sums that cancel (a title, an activity time) touch no counter.
  IF TG_OP = 'INSERT' THEN
    WITH ch AS (
      SELECT g.tag, coalesce(r.assigned_agent_id, 0) AS agent_id, r.status, r.priority, 1 AS n
      FROM new_rows r, LATERAL (SELECT DISTINCT t AS tag FROM unnest(r.tags) t) g
    ), totals AS (
      INSERT INTO tag_counts AS c (tag, n)
      SELECT tag, sum(n)::int FROM ch GROUP BY tag HAVING sum(n) <> 0 ORDER BY tag
      ON CONFLICT (tag) DO UPDATE SET n = c.n + excluded.n
    )
    INSERT INTO ticket_tag_counts AS c (tag, agent_id, status, priority, n)
    SELECT ch.tag, v.agent_id, ch.status, ch.priority, sum(ch.n)::int
    FROM ch, LATERAL (VALUES (ch.agent_id), (-1)) v(agent_id)
    GROUP BY 1, 2, 3, 4 HAVING sum(ch.n) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (tag, agent_id, status, priority) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    WITH ch AS (
      SELECT g.tag, coalesce(r.assigned_agent_id, 0) AS agent_id, r.status, r.priority, -1 AS n
      FROM old_rows r, LATERAL (SELECT DISTINCT t AS tag FROM unnest(r.tags) t) g
    ), totals AS (
      INSERT INTO tag_counts AS c (tag, n)
      SELECT tag, sum(n)::int FROM ch GROUP BY tag HAVING sum(n) <> 0 ORDER BY tag
      ON CONFLICT (tag) DO UPDATE SET n = c.n + excluded.n
    )
    INSERT INTO ticket_tag_counts AS c (tag, agent_id, status, priority, n)
    SELECT ch.tag, v.agent_id, ch.status, ch.priority, sum(ch.n)::int
    FROM ch, LATERAL (VALUES (ch.agent_id), (-1)) v(agent_id)
    GROUP BY 1, 2, 3, 4 HAVING sum(ch.n) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (tag, agent_id, status, priority) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    WITH ch AS (
      SELECT g.tag, coalesce(r.assigned_agent_id, 0) AS agent_id, r.status, r.priority, r.n
      FROM (
        SELECT tags, assigned_agent_id, status, priority, 1 AS n FROM new_rows WHERE cardinality(tags) > 0
        UNION ALL SELECT tags, assigned_agent_id, status, priority, -1 FROM old_rows WHERE cardinality(tags) > 0
      ) r, LATERAL (SELECT DISTINCT t AS tag FROM unnest(r.tags) t) g
    ), totals AS (
      INSERT INTO tag_counts AS c (tag, n)
      SELECT tag, sum(n)::int FROM ch GROUP BY tag HAVING sum(n) <> 0 ORDER BY tag
      ON CONFLICT (tag) DO UPDATE SET n = c.n + excluded.n
    )
    INSERT INTO ticket_tag_counts AS c (tag, agent_id, status, priority, n)
    SELECT ch.tag, v.agent_id, ch.status, ch.priority, sum(ch.n)::int
    FROM ch, LATERAL (VALUES (ch.agent_id), (-1)) v(agent_id)
    GROUP BY 1, 2, 3, 4 HAVING sum(ch.n) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (tag, agent_id, status, priority) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_tag_counts_insert AFTER INSERT ON tickets REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tag_counts_track();
--> statement-breakpoint
CREATE TRIGGER tickets_tag_counts_delete AFTER DELETE ON tickets REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION tag_counts_track();
--> statement-breakpoint
-- Every update (a column list cannot go with transition tables); also the ON DELETE SET NULL of a deleted agent.
CREATE TRIGGER tickets_tag_counts_update AFTER UPDATE ON tickets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tag_counts_track();
--> statement-breakpoint
-- The every-ticket rows from the per-assignee ones; writes to tickets wait meanwhile.
LOCK TABLE tickets IN SHARE MODE;
--> statement-breakpoint
INSERT INTO ticket_tag_counts (tag, agent_id, status, priority, n)
SELECT tag, -1, status, priority, sum(n)::int FROM ticket_tag_counts WHERE agent_id >= 0 GROUP BY tag, status, priority HAVING sum(n) <> 0;
