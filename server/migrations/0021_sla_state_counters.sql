-- ticket_counts gains the SLA state ('' under no policy), so a list, its cards and a saved view under
-- `sla=` read the maintained counters like any other filter instead of asking the planner for an
-- estimate and counting the state's index up to the cap (docs/decisions.md#sla-states-counted-like-statuses).
ALTER TABLE "ticket_counts" ADD COLUMN "sla_state" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_counts" DROP CONSTRAINT "ticket_counts_agent_id_status_priority_pk";--> statement-breakpoint
ALTER TABLE "ticket_counts" ADD CONSTRAINT "ticket_counts_agent_id_status_priority_sla_state_pk" PRIMARY KEY("agent_id","status","priority","sla_state");--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each ticket counts in its assignee's rows (0 = unassigned) and in the all-tickets rows (-1).
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ticket_counts (agent_id, status, priority, sla_state, n)
    SELECT v.agent_id, r.status, r.priority, coalesce(r.sla_state, ''), count(*)::int
    FROM new_rows r, LATERAL (VALUES (coalesce(r.assigned_agent_id, 0)), (-1)) v(agent_id)
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (agent_id, status, priority, sla_state) DO UPDATE SET n = ticket_counts.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO ticket_counts (agent_id, status, priority, sla_state, n)
    SELECT v.agent_id, r.status, r.priority, coalesce(r.sla_state, ''), -count(*)::int
    FROM old_rows r, LATERAL (VALUES (coalesce(r.assigned_agent_id, 0)), (-1)) v(agent_id)
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (agent_id, status, priority, sla_state) DO UPDATE SET n = ticket_counts.n + excluded.n;
  ELSE
    -- Most updates move nothing (a title, an activity time): the sums cancel and no row is touched.
    INSERT INTO ticket_counts (agent_id, status, priority, sla_state, n)
    SELECT v.agent_id, r.status, r.priority, r.sla_state, sum(r.n)::int
    FROM (
      SELECT assigned_agent_id, status, priority, coalesce(sla_state, '') AS sla_state, 1 AS n FROM new_rows
      UNION ALL SELECT assigned_agent_id, status, priority, coalesce(sla_state, ''), -1 FROM old_rows
    ) r, LATERAL (VALUES (coalesce(r.assigned_agent_id, 0)), (-1)) v(agent_id)
    GROUP BY 1, 2, 3, 4 HAVING sum(r.n) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (agent_id, status, priority, sla_state) DO UPDATE SET n = ticket_counts.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- The counters are counted again from the tickets, each under its state; writes to tickets wait meanwhile.
LOCK TABLE tickets IN SHARE MODE;--> statement-breakpoint
DELETE FROM ticket_counts;--> statement-breakpoint
INSERT INTO ticket_counts (agent_id, status, priority, sla_state, n)
SELECT v.agent_id, t.status, t.priority, coalesce(t.sla_state, ''), count(*)::int
FROM tickets t, LATERAL (VALUES (coalesce(t.assigned_agent_id, 0)), (-1)) v(agent_id)
GROUP BY 1, 2, 3, 4;
