-- Reports (docs/api.md#reports, docs/decisions.md#reports-written-with-the-change): figures are written
-- with the change that makes them (reports/recordFigures.ts), never counted from tickets when read.
-- ticket_metrics holds what the report tables count for each ticket; report_totals and report_durations
-- hold hourly (span 1) and daily (span 24) figures in 6 grouping sets of assignee x priority x
-- category (each the ticket's value or all: -1 / ''; report_groups below), report_backlog the tickets open now by creation hour.
CREATE TABLE "report_backlog" (
	"assignee_id" integer NOT NULL,
	"priority" text NOT NULL,
	"category" text NOT NULL,
	"created_hour" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "report_backlog_assignee_id_priority_category_created_hour_status_pk" PRIMARY KEY("assignee_id","priority","category","created_hour","status")
);
--> statement-breakpoint
CREATE TABLE "report_durations" (
	"assignee_id" integer NOT NULL,
	"priority" text NOT NULL,
	"category" text NOT NULL,
	"span" smallint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" smallint NOT NULL,
	"bucket" smallint NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "report_durations_assignee_id_priority_category_span_at_kind_bucket_pk" PRIMARY KEY("assignee_id","priority","category","span","at","kind","bucket") INCLUDE ("n")
);
--> statement-breakpoint
CREATE TABLE "report_totals" (
	"assignee_id" integer NOT NULL,
	"priority" text NOT NULL,
	"category" text NOT NULL,
	"span" smallint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"resolved" integer DEFAULT 0 NOT NULL,
	"reopened" integer DEFAULT 0 NOT NULL,
	"assigned" integer DEFAULT 0 NOT NULL,
	"first_responses" integer DEFAULT 0 NOT NULL,
	"resolutions" integer DEFAULT 0 NOT NULL,
	"sla_response_met" integer DEFAULT 0 NOT NULL,
	"sla_response_missed" integer DEFAULT 0 NOT NULL,
	"sla_resolution_met" integer DEFAULT 0 NOT NULL,
	"sla_resolution_missed" integer DEFAULT 0 NOT NULL,
	"csat_good" integer DEFAULT 0 NOT NULL,
	"csat_neutral" integer DEFAULT 0 NOT NULL,
	"csat_bad" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_totals_assignee_id_priority_category_span_at_pk" PRIMARY KEY("assignee_id","priority","category","span","at")
);
--> statement-breakpoint
CREATE TABLE "ticket_metrics" (
	"ticket_id" integer PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"status" "ticket_status" NOT NULL,
	"priority" "ticket_priority" NOT NULL,
	"category" "article_category" NOT NULL,
	"assignee_id" integer DEFAULT 0 NOT NULL,
	"first_response_at" timestamp with time zone,
	"first_response_seconds" integer,
	"first_response_business_seconds" integer,
	"resolved_at" timestamp with time zone,
	"resolution_seconds" integer,
	"resolution_business_seconds" integer,
	"reopens" integer DEFAULT 0 NOT NULL,
	"sla_response_met" boolean,
	"sla_resolution_met" boolean,
	"csat_rating" "csat_rating",
	"csat_at" timestamp with time zone,
	"csat_priority" "ticket_priority",
	"csat_category" "article_category",
	"csat_assignee_id" integer
);
--> statement-breakpoint
ALTER TABLE "ticket_metrics" ADD CONSTRAINT "ticket_metrics_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- The histogram bucket of a duration in whole seconds: the bounds of reports/durationBuckets.ts (1 s,
-- then about +10 % each, past a year), written out; durationBuckets.test.ts checks they agree.
CREATE OR REPLACE FUNCTION report_duration_bucket(seconds bigint) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT width_bucket(seconds, '{1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,17,19,21,23,25,28,31,34,37,41,45,50,55,61,67,74,81,89,98,108,119,131,144,158,174,191,210,231,254,279,307,338,372,409,450,495,545,600,660,726,799,879,967,1064,1170,1287,1416,1558,1714,1885,2074,2281,2509,2760,3036,3340,3674,4041,4445,4890,5379,5917,6509,7160,7876,8664,9530,10483,11531,12684,13952,15347,16882,18570,20427,22470,24717,27189,29908,32899,36189,39808,43789,48168,52985,58284,64112,70523,77575,85333,93866,103253,113578,124936,137430,151173,166290,182919,201211,221332,243465,267812,294593,324052,356457,392103,431313,474444,521888,574077,631485,694634,764097,840507,924558,1017014,1118715,1230587,1353646,1489011,1637912,1801703,1981873,2180060,2398066,2637873,2901660,3191826,3511009,3862110,4248321,4673153,5140468,5654515,6219967,6841964,7526160,8278776,9106654,10017319,11019051,12120956,13333052,14666357,16132993,17746292,19520921,21473013,23620314,25982345,28580580,31438638,34582502}'::bigint[])::smallint
$$;--> statement-breakpoint
-- The 6 grouping sets a ticket's figures are written to (reports/figureRows.ts#groupingSets): each key
-- its own value or "all", but for an assignee beside a priority or category alone.
CREATE OR REPLACE FUNCTION report_groups(assignee integer, prio text, cat text)
RETURNS TABLE (assignee_id integer, priority text, category text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  VALUES (assignee, prio, cat), (assignee, '', ''), (-1, prio, cat), (-1, prio, ''), (-1, '', cat), (-1, '', '')
$$;--> statement-breakpoint
-- Empties the four report tables and counts them again from tickets, their status history, SLA columns
-- and newest answered surveys, every figure under the ticket's current keys. Enums are compared as
-- text: on a new database every migration runs in one transaction, where a value added by ALTER TYPE
-- cannot be used yet. ticket_metrics keeps times to the millisecond, as the writer (JavaScript) does;
-- durations are counted from the full precision. Run once below for the
-- tickets already there, and by the bench's data builder. A resolution without a status entry (data
-- written straight to tickets) counts at updated_at. What it cannot know: figures of deleted tickets,
-- and the hour and keys a figure was first counted at when the keys changed since.
CREATE OR REPLACE FUNCTION report_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE report_totals, report_durations, report_backlog, ticket_metrics;

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
    -- Decided by the first response or resolution under a policy (reports/reconcile.ts#metInTime).
    CASE
      WHEN t.sla_first_responded_at IS NOT NULL AND t.sla_policy_id IS NOT NULL
        THEN (t.sla_response_breached_at IS NULL OR t.sla_response_breached_at > t.sla_first_responded_at)
          AND (t.sla_response_due_at IS NULL OR t.sla_first_responded_at <= t.sla_response_due_at)
    END,
    CASE
      WHEN ch.first_resolved IS NOT NULL AND t.sla_policy_id IS NOT NULL
        THEN (t.sla_resolution_breached_at IS NULL OR t.sla_resolution_breached_at > ch.first_resolved)
          AND (t.sla_resolution_due_at IS NULL OR ch.first_resolved <= t.sla_resolution_due_at)
    END,
    s.rating, date_trunc('milliseconds', s.answered_at),
    CASE WHEN s.rating IS NOT NULL THEN t.priority END,
    CASE WHEN s.rating IS NOT NULL THEN t.category END,
    CASE WHEN s.rating IS NOT NULL THEN coalesce(t.assigned_agent_id, 0) END
  FROM tickets t
  LEFT JOIN (
    SELECT ticket_id, max(at) FILTER (WHERE resolves) AS last_resolved, min(at) FILTER (WHERE resolves) AS first_resolved,
      count(*) FILTER (WHERE NOT resolves)::int AS reopens
    FROM report_rebuild_changes GROUP BY ticket_id
  ) ch ON ch.ticket_id = t.id
  LEFT JOIN (
    SELECT DISTINCT ON (ticket_id) ticket_id, rating, answered_at FROM csat_surveys
    WHERE answered_at IS NOT NULL ORDER BY ticket_id, id DESC
  ) s ON s.ticket_id = t.id;

  -- One fact per thing that happened, at its moment, under the ticket's keys.
  WITH firsts AS (
    SELECT ticket_id, min(at) AS first_resolved FROM report_rebuild_changes WHERE resolves GROUP BY ticket_id
  ), facts AS (
    SELECT ticket_id, created_at AS at, 'created' AS what FROM ticket_metrics
    UNION ALL SELECT ticket_id, at, CASE WHEN resolves THEN 'resolved' ELSE 'reopened' END FROM report_rebuild_changes
    UNION ALL SELECT h.ticket_id, h.created_at, 'assigned' FROM ticket_history h WHERE h.type::text = 'assigned' AND h.to_value IS NOT NULL
    UNION ALL SELECT ticket_id, first_response_at, 'first_response' FROM ticket_metrics WHERE first_response_at IS NOT NULL
    UNION ALL SELECT m.ticket_id, m.first_response_at,
      CASE WHEN m.sla_response_met THEN 'sla_response_met' ELSE 'sla_response_missed' END
    FROM ticket_metrics m WHERE m.sla_response_met IS NOT NULL
    UNION ALL SELECT m.ticket_id, r.first_resolved,
      CASE WHEN m.sla_resolution_met THEN 'sla_resolution_met' ELSE 'sla_resolution_missed' END
    FROM ticket_metrics m JOIN firsts r ON r.ticket_id = m.ticket_id
    WHERE m.sla_resolution_met IS NOT NULL
    UNION ALL SELECT ticket_id, csat_at, 'csat_' || csat_rating FROM ticket_metrics WHERE csat_rating IS NOT NULL
  )
  INSERT INTO report_totals (assignee_id, priority, category, span, at, created, resolved, reopened, assigned,
    first_responses, resolutions, sla_response_met, sla_response_missed, sla_resolution_met, sla_resolution_missed,
    csat_good, csat_neutral, csat_bad)
  SELECT g.assignee_id, g.priority, g.category, s.span,
    date_trunc(CASE WHEN s.span = 1 THEN 'hour' ELSE 'day' END, f.at, 'UTC'),
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
  CROSS JOIN (VALUES (1::smallint), (24::smallint)) s(span)
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
    date_trunc(CASE WHEN s.span = 1 THEN 'hour' ELSE 'day' END, d.at, 'UTC'),
    d.kind, report_duration_bucket(greatest(d.seconds, 0)), count(*)
  FROM durations d
  JOIN ticket_metrics m ON m.ticket_id = d.ticket_id
  CROSS JOIN LATERAL report_groups(m.assignee_id, m.priority::text, m.category::text) g
  CROSS JOIN (VALUES (1::smallint), (24::smallint)) s(span)
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ORDER BY 1, 2, 3, 4, 5, 6, 7;

  INSERT INTO report_backlog (assignee_id, priority, category, created_hour, status, n)
  SELECT g.assignee_id, g.priority, g.category, date_trunc('hour', m.created_at, 'UTC'), m.status::text, count(*)
  FROM ticket_metrics m
  CROSS JOIN LATERAL report_groups(m.assignee_id, m.priority::text, m.category::text) g
  WHERE m.status::text IN ('open', 'in_progress', 'pending')
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5;

  DROP TABLE report_rebuild_changes;
END
$$;--> statement-breakpoint
SELECT report_rebuild();--> statement-breakpoint
-- Planned from the start with what the rebuild wrote: unanalysed, the tables' ranges were misjudged.
ANALYZE ticket_metrics, report_totals, report_durations, report_backlog;
