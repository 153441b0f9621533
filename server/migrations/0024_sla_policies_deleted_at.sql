-- A deleted SLA policy keeps its row, so the tickets it timed keep their sla_policy_id: deleting the
-- row set that column to null on every such ticket in one statement (the foreign key's action), which
-- at a million tickets under one policy ran past the statement timeout. Adding a nullable column
-- without a default rewrites nothing.
ALTER TABLE "sla_policies" ADD COLUMN "deleted_at" timestamp with time zone;