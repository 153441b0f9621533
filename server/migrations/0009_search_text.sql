DROP INDEX "tickets_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(title || ' ' || description)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "tickets_search_text_trgm_idx" ON "tickets" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- The planner needs the new column's statistics before the first search, not whenever autovacuum gets to it.
ANALYZE "tickets";
