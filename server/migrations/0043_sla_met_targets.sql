-- "SLA met" counts only targets a ticket has (docs/api.md#reports, docs/decisions.md#reports-written-with-the-change).
-- A policy with no target for a ticket's priority gives it no service level: its state goes (and with
-- it the row of ticket_sla_states, by the triggers), as sla/ticketSla.ts#nextSlaColumns now leaves it.
-- Judged by the policy's targets now; a breach stays a breach.
UPDATE tickets t SET sla_state = NULL
FROM sla_policies p
WHERE p.id = t.sla_policy_id AND t.sla_state IS NOT NULL
  AND t.sla_response_breached_at IS NULL AND t.sla_resolution_breached_at IS NULL
  AND (p.targets -> t.priority::text ->> 'firstResponseMinutes') IS NULL
  AND (p.targets -> t.priority::text ->> 'resolutionMinutes') IS NULL;--> statement-breakpoint
-- The rebuild, as in 0042, deciding SLA targets as the writer now does: a target the ticket does not
-- have is neither met nor missed, and a resolution finding the first response unanswered and overdue
-- misses it.
CREATE OR REPLACE FUNCTION report_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE report_totals, report_durations, report_backlog, ticket_metrics;
  UPDATE report_state SET generation = generation + 1;

  -- Each resolution (active -> resolved/closed) and reopen (the other way), from the status history.
  DROP TABLE IF EXISTS report_rebuild_changes;
  CREATE TEMP TABLE report_rebuild_changes (ticket_id integer, at timestamptz, resolves boolean);
  INSERT INTO report_rebuild_changes
  SELECT h.ticket_id, h.created_at, h.to_value IN ('resolved', 'closed')
  FROM ticket_history h
  WHERE h.type::text = 'status'
    AND ((h.from_value IN ('open', 'in_progress', 'pending') AND h.to_value IN ('resolved', 'closed'))
      OR (h.from_value IN ('resolved', 'closed') AND h.to_value IN ('open', 'in_progress', 'pending')));
  INSERT INTO report_rebuild_changes
  SELECT t.id, t.updated_at, true FROM tickets t
  WHERE t.status::text IN ('resolved', 'closed')
    AND NOT EXISTS (SELECT 1 FROM report_rebuild_changes c WHERE c.ticket_id = t.id AND c.resolves);

  -- SLA outcomes as the writer decides them (reports/reconcile.ts): only for a target the ticket has,
  -- its policy's for its priority or one breached. The first response is decided by the reply, or
  -- missed by an earlier resolution that found it unanswered and overdue; the resolution by the
  -- first resolution. Both at that moment: met when unbreached and not after the deadline.
  DROP TABLE IF EXISTS report_rebuild_sla;
  CREATE TEMP TABLE report_rebuild_sla (ticket_id integer, response_at timestamptz, response_met boolean,
    resolution_at timestamptz, resolution_met boolean);
  INSERT INTO report_rebuild_sla
  SELECT o.id,
    CASE WHEN o.response_target THEN coalesce(o.overdue_at, o.responded_at) END,
    CASE
      WHEN NOT o.response_target THEN NULL
      WHEN o.overdue_at IS NOT NULL THEN false
      WHEN o.responded_at IS NOT NULL
        THEN (o.response_breached_at IS NULL OR o.response_breached_at > o.responded_at)
          AND (o.response_due_at IS NULL OR o.responded_at <= o.response_due_at)
    END,
    CASE WHEN o.resolution_target THEN o.first_resolved END,
    CASE
      WHEN o.resolution_target AND o.first_resolved IS NOT NULL
        THEN (o.resolution_breached_at IS NULL OR o.resolution_breached_at > o.first_resolved)
          AND (o.resolution_due_at IS NULL OR o.first_resolved <= o.resolution_due_at)
    END
  FROM (
    SELECT t.id, t.sla_first_responded_at AS responded_at, t.sla_response_due_at AS response_due_at,
      t.sla_response_breached_at AS response_breached_at, t.sla_resolution_due_at AS resolution_due_at,
      t.sla_resolution_breached_at AS resolution_breached_at, ch.first_resolved, ch.overdue_at,
      (p.targets -> t.priority::text ->> 'firstResponseMinutes') IS NOT NULL OR t.sla_response_breached_at IS NOT NULL AS response_target,
      (p.targets -> t.priority::text ->> 'resolutionMinutes') IS NOT NULL OR t.sla_resolution_breached_at IS NOT NULL AS resolution_target
    FROM tickets t
    JOIN sla_policies p ON p.id = t.sla_policy_id
    LEFT JOIN (
      SELECT c.ticket_id, min(c.at) AS first_resolved,
        min(c.at) FILTER (WHERE (r.sla_first_responded_at IS NULL OR c.at < r.sla_first_responded_at)
          AND (r.sla_response_breached_at <= c.at OR c.at > r.sla_response_due_at)) AS overdue_at
      FROM report_rebuild_changes c JOIN tickets r ON r.id = c.ticket_id
      WHERE c.resolves GROUP BY c.ticket_id
    ) ch ON ch.ticket_id = t.id
  ) o;

  INSERT INTO ticket_metrics (
    ticket_id, created_at, status, priority, category, assignee_id,
    first_response_at, first_response_seconds, first_response_business_seconds,
    resolved_at, resolution_seconds, resolution_business_seconds, reopens,
    sla_response_met, sla_resolution_met, csat_rating, csat_at, csat_priority, csat_category, csat_assignee_id)
  SELECT t.id, date_trunc('milliseconds', t.created_at), t.status, t.priority, t.category, coalesce(t.assigned_agent_id, 0),
    date_trunc('milliseconds', t.sla_first_responded_at),
    floor(extract(epoch FROM t.sla_first_responded_at - t.created_at))::int,
    CASE WHEN t.sla_policy_id IS NOT NULL AND t.sla_first_responded_at IS NOT NULL THEN round(t.sla_response_used_ms / 1000.0)::int END,
    date_trunc('milliseconds', ch.last_resolved),
    floor(extract(epoch FROM ch.last_resolved - t.created_at))::int,
    CASE WHEN t.sla_policy_id IS NOT NULL AND ch.last_resolved IS NOT NULL THEN round(t.sla_used_ms / 1000.0)::int END,
    coalesce(ch.reopens, 0),
    sla.response_met, sla.resolution_met,
    s.rating, date_trunc('milliseconds', s.answered_at),
    CASE WHEN s.rating IS NOT NULL THEN t.priority END,
    CASE WHEN s.rating IS NOT NULL THEN t.category END,
    CASE WHEN s.rating IS NOT NULL THEN coalesce(t.assigned_agent_id, 0) END
  FROM tickets t
  LEFT JOIN (
    SELECT ticket_id, max(at) FILTER (WHERE resolves) AS last_resolved, count(*) FILTER (WHERE NOT resolves)::int AS reopens
    FROM report_rebuild_changes GROUP BY ticket_id
  ) ch ON ch.ticket_id = t.id
  LEFT JOIN report_rebuild_sla sla ON sla.ticket_id = t.id
  LEFT JOIN (
    SELECT DISTINCT ON (ticket_id) ticket_id, rating, answered_at FROM csat_surveys
    WHERE answered_at IS NOT NULL ORDER BY ticket_id, id DESC
  ) s ON s.ticket_id = t.id;

  -- One fact per thing that happened, at its moment, under the ticket's keys.
  WITH facts AS (
    SELECT ticket_id, created_at AS at, 'created' AS what FROM ticket_metrics
    UNION ALL SELECT ticket_id, at, CASE WHEN resolves THEN 'resolved' ELSE 'reopened' END FROM report_rebuild_changes
    UNION ALL SELECT h.ticket_id, h.created_at, 'assigned' FROM ticket_history h WHERE h.type::text = 'assigned' AND h.to_value IS NOT NULL
    UNION ALL SELECT ticket_id, first_response_at, 'first_response' FROM ticket_metrics WHERE first_response_at IS NOT NULL
    UNION ALL SELECT ticket_id, response_at, CASE WHEN response_met THEN 'sla_response_met' ELSE 'sla_response_missed' END
    FROM report_rebuild_sla WHERE response_met IS NOT NULL
    UNION ALL SELECT ticket_id, resolution_at, CASE WHEN resolution_met THEN 'sla_resolution_met' ELSE 'sla_resolution_missed' END
    FROM report_rebuild_sla WHERE resolution_met IS NOT NULL
    UNION ALL SELECT ticket_id, csat_at, 'csat_' || csat_rating FROM ticket_metrics WHERE csat_rating IS NOT NULL
  )
  INSERT INTO report_totals (assignee_id, priority, category, span, at, created, resolved, reopened, assigned,
    first_responses, resolutions, sla_response_met, sla_response_missed, sla_resolution_met, sla_resolution_missed,
    csat_good, csat_neutral, csat_bad)
  SELECT g.assignee_id, g.priority, g.category, s.span,
    date_trunc(CASE s.span WHEN 1 THEN 'hour' WHEN 24 THEN 'day' WHEN 168 THEN 'week' ELSE 'month' END, f.at, 'UTC'),
    count(*) FILTER (WHERE f.what = 'created'),
    count(*) FILTER (WHERE f.what = 'resolved'),
    count(*) FILTER (WHERE f.what = 'reopened'),
    count(*) FILTER (WHERE f.what = 'assigned'),
    count(*) FILTER (WHERE f.what = 'first_response'),
    count(*) FILTER (WHERE f.what = 'resolved'),
    count(*) FILTER (WHERE f.what = 'sla_response_met'),
    count(*) FILTER (WHERE f.what = 'sla_response_missed'),
    count(*) FILTER (WHERE f.what = 'sla_resolution_met'),
    count(*) FILTER (WHERE f.what = 'sla_resolution_missed'),
    count(*) FILTER (WHERE f.what = 'csat_good'),
    count(*) FILTER (WHERE f.what = 'csat_neutral'),
    count(*) FILTER (WHERE f.what = 'csat_bad')
  FROM facts f
  JOIN ticket_metrics m ON m.ticket_id = f.ticket_id
  CROSS JOIN LATERAL report_groups(m.assignee_id, m.priority::text, m.category::text) g
  CROSS JOIN (VALUES (1::smallint), (24::smallint), (168::smallint), (720::smallint)) s(span)
  GROUP BY 1, 2, 3, 4, 5
  -- In key order: a set's rows of a range sit on neighbouring pages, not one page each.
  ORDER BY 1, 2, 3, 4, 5;

  -- Histograms: each first response, and each resolution (a re-resolution counts again).
  WITH durations AS (
    SELECT ticket_id, first_response_at AS at, 1::smallint AS kind, first_response_seconds AS seconds
    FROM ticket_metrics WHERE first_response_at IS NOT NULL
    UNION ALL SELECT c.ticket_id, c.at, 2::smallint, floor(extract(epoch FROM c.at - t.created_at))::int
    FROM report_rebuild_changes c JOIN tickets t ON t.id = c.ticket_id WHERE c.resolves
  )
  INSERT INTO report_durations (assignee_id, priority, category, span, at, kind, bucket, n)
  SELECT g.assignee_id, g.priority, g.category, s.span,
    date_trunc(CASE s.span WHEN 1 THEN 'hour' WHEN 24 THEN 'day' WHEN 168 THEN 'week' ELSE 'month' END, d.at, 'UTC'),
    d.kind, report_duration_bucket(greatest(d.seconds, 0)), count(*)
  FROM durations d
  JOIN ticket_metrics m ON m.ticket_id = d.ticket_id
  CROSS JOIN LATERAL report_groups(m.assignee_id, m.priority::text, m.category::text) g
  CROSS JOIN (VALUES (1::smallint), (24::smallint), (168::smallint), (720::smallint)) s(span)
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7;

  INSERT INTO report_backlog (assignee_id, priority, category, created_hour, status, n)
  SELECT g.assignee_id, g.priority, g.category, date_trunc('hour', m.created_at, 'UTC'), m.status::text, count(*)
  FROM ticket_metrics m
  CROSS JOIN LATERAL report_groups(m.assignee_id, m.priority::text, m.category::text) g
  WHERE m.status::text IN ('open', 'in_progress', 'pending')
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5;

  DROP TABLE report_rebuild_changes, report_rebuild_sla;
END
$$;--> statement-breakpoint
-- The figures written so far counted targets no ticket had as met, and never counted an unanswered
-- breach as missed: counted again, where any ticket was ever under a policy (without one, nothing changes).
SELECT report_rebuild() WHERE EXISTS (SELECT 1 FROM tickets WHERE sla_policy_id IS NOT NULL);--> statement-breakpoint
ANALYZE ticket_metrics, report_totals, report_durations, report_backlog;
