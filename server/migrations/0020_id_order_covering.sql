-- A list read in id order (sort=id, and sort=slaDueAt under a filter that leaves no clock running,
-- which is id order) walked the primary key and fetched each row to check its filter: at 1M tickets
-- tag=vip by id fetched 2,100 rows (41 ms), status=pending 2,900 (5 ms). The primary key cannot take
-- INCLUDE without dropping every foreign key that references it, so a second index on id carries the
-- list filters, as 0018 and 0019 do for the other orders (0.5 ms and 0.9 ms). drizzle cannot declare
-- INCLUDE, so the schema keeps this index's name and key and this file adds the rest
-- (docs/decisions.md#filters-read-off-the-order).
-- Every list order is read as an index-only scan, which holds only while the visibility map is
-- current: with PostgreSQL's default (a vacuum after a fifth of the table changed, 200,000 tickets at
-- 1M) it decays between vacuums, and a tag filter's p95 went from 31 to 40 ms with 15 % of the
-- table's pages no longer all-visible. Vacuumed after 1 % changed, each pass has little to do.
ALTER TABLE "tickets" SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tickets_id_covering_idx" ON "tickets" USING btree ("id") INCLUDE ("status", "priority", "assigned_agent_id", "tags", "sla_state");--> statement-breakpoint
ANALYZE "tickets";
