-- Tickets gain a category, the knowledge base's (the same enum type, so a new category is added once),
-- `general` unless the owner picks another (docs/decisions.md#categories-counted-like-statuses). A
-- column with a constant default is a catalog change: no table rewrite at a million tickets.
ALTER TYPE "public"."ticket_history_type" ADD VALUE 'category' BEFORE 'edited';--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "category" "article_category" DEFAULT 'general' NOT NULL;--> statement-breakpoint
-- category=<c> newest first, the other list filters in the entry (as migration 0018 gave the priority's)
-- so status, priority, assignee, a tag or an SLA state beside it are checked without fetching the row.
CREATE INDEX "tickets_category_created_idx" ON "tickets" USING btree ("category","created_at","id") INCLUDE ("status", "priority", "assigned_agent_id", "tags", "sla_state");--> statement-breakpoint
-- One assignee's (mine, the unassigned) category: their few tickets of it, the status beside it in the entry.
CREATE INDEX "tickets_assigned_category_created_idx" ON "tickets" USING btree ("assigned_agent_id","category","created_at","id") INCLUDE ("status", "priority", "tags", "sla_state");--> statement-breakpoint
-- Counters of their own rather than a fifth key column of ticket_counts: every question without a
-- category still reads the few dozen rows of one assignee there, and one with a category reads the
-- rows of that category and assignee here.
CREATE TABLE "ticket_category_counts" (
	"category" "article_category" NOT NULL,
	"agent_id" integer NOT NULL,
	"status" "ticket_status" NOT NULL,
	"priority" "ticket_priority" NOT NULL,
	"sla_state" text DEFAULT '' NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "ticket_category_counts_category_agent_id_status_priority_sla_state_pk" PRIMARY KEY("category","agent_id","status","priority","sla_state")
);
--> statement-breakpoint
-- The counting trigger of migration 0021 keeps both tables from one aggregate of the statement's rows,
-- ticket_counts first and then ticket_category_counts, each in key order, so writers sharing the
-- every-ticket rows (-1) queue instead of deadlocking. A statement that moves no counted column (a
-- title, an activity time) sums to nothing in both and touches no row.
CREATE OR REPLACE FUNCTION ticket_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- ch: +1 per ticket after the statement, -1 before it; each branch names only its own transition
  -- table (PL/pgSQL plans a statement's every table).
  IF TG_OP = 'INSERT' THEN
    WITH ch AS (
      SELECT v.agent_id, r.status, r.priority, coalesce(r.sla_state, '') AS sla_state, r.category, 1 AS n
      FROM new_rows r, LATERAL (VALUES (coalesce(r.assigned_agent_id, 0)), (-1)) v(agent_id)
    ), counts AS (
      INSERT INTO ticket_counts AS c (agent_id, status, priority, sla_state, n)
      SELECT agent_id, status, priority, sla_state, sum(n)::int FROM ch
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (agent_id, status, priority, sla_state) DO UPDATE SET n = c.n + excluded.n
    )
    INSERT INTO ticket_category_counts AS c (category, agent_id, status, priority, sla_state, n)
    SELECT category, agent_id, status, priority, sla_state, sum(n)::int FROM ch
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (category, agent_id, status, priority, sla_state) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    WITH ch AS (
      SELECT v.agent_id, r.status, r.priority, coalesce(r.sla_state, '') AS sla_state, r.category, -1 AS n
      FROM old_rows r, LATERAL (VALUES (coalesce(r.assigned_agent_id, 0)), (-1)) v(agent_id)
    ), counts AS (
      INSERT INTO ticket_counts AS c (agent_id, status, priority, sla_state, n)
      SELECT agent_id, status, priority, sla_state, sum(n)::int FROM ch
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (agent_id, status, priority, sla_state) DO UPDATE SET n = c.n + excluded.n
    )
    INSERT INTO ticket_category_counts AS c (category, agent_id, status, priority, sla_state, n)
    SELECT category, agent_id, status, priority, sla_state, sum(n)::int FROM ch
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (category, agent_id, status, priority, sla_state) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    WITH ch AS (
      SELECT v.agent_id, r.status, r.priority, r.sla_state, r.category, r.n
      FROM (
        SELECT assigned_agent_id, status, priority, coalesce(sla_state, '') AS sla_state, category, 1 AS n FROM new_rows
        UNION ALL SELECT assigned_agent_id, status, priority, coalesce(sla_state, ''), category, -1 FROM old_rows
      ) r, LATERAL (VALUES (coalesce(r.assigned_agent_id, 0)), (-1)) v(agent_id)
    ), counts AS (
      INSERT INTO ticket_counts AS c (agent_id, status, priority, sla_state, n)
      SELECT agent_id, status, priority, sla_state, sum(n)::int FROM ch
      GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT (agent_id, status, priority, sla_state) DO UPDATE SET n = c.n + excluded.n
    )
    INSERT INTO ticket_category_counts AS c (category, agent_id, status, priority, sla_state, n)
    SELECT category, agent_id, status, priority, sla_state, sum(n)::int FROM ch
    GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (category, agent_id, status, priority, sla_state) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- TRUNCATE skips the statement triggers: both counters go with it.
CREATE OR REPLACE FUNCTION ticket_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ticket_counts;
  DELETE FROM ticket_category_counts;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Counted from the tickets as they are, with writes to tickets waiting, so none is missed or counted
-- twice; every existing ticket is `general` here.
LOCK TABLE tickets IN SHARE MODE;--> statement-breakpoint
INSERT INTO ticket_category_counts (category, agent_id, status, priority, sla_state, n)
SELECT t.category, v.agent_id, t.status, t.priority, coalesce(t.sla_state, ''), count(*)::int
FROM tickets t, LATERAL (VALUES (coalesce(t.assigned_agent_id, 0)), (-1)) v(agent_id)
GROUP BY 1, 2, 3, 4, 5;
