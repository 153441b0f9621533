-- A search counted off its words (docs/decisions.md#a-search-counted-off-its-words). Counting a search's
-- matches off the GIN index visits each match's ticket row (a bitmap scan cannot skip the heap), about
-- 5 µs a match at a million tickets: a word in 1 % of them took ~250 ms to count. ticket_words holds
-- each ticket's words, one row each, with the filters a search is asked with, in one btree keyed by
-- word first: a search is counted index-only, and any status, priority or assignee filter is a few
-- contiguous ranges of it. ticket_vocabulary lists every word a ticket has held, so a typed prefix
-- becomes the exact words it starts. Both are kept by statement triggers on tickets, in the writing
-- transaction. `word` is COLLATE "C": byte order, which drizzle cannot declare.
CREATE TABLE "ticket_vocabulary" (
	"word" text COLLATE "C" PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_words" (
	"word" text COLLATE "C" NOT NULL,
	"status" "ticket_status" NOT NULL,
	"priority" "ticket_priority" NOT NULL,
	"agent_id" integer NOT NULL,
	"ticket_id" integer NOT NULL
);
--> statement-breakpoint
-- Index-only reads need the visibility map current: vacuum after every 20,000 changed rows, not a fifth
-- of the table (tens of millions of rows at a million tickets).
ALTER TABLE "ticket_words" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 20000, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 20000);
--> statement-breakpoint
ALTER TABLE "ticket_words" ALTER COLUMN "word" SET STATISTICS 1000;
--> statement-breakpoint
-- Rows whose words, status, priority or assignee changed lose their old rows and get new ones; other
-- updates (activity times, SLA marks) touch nothing here. Vocabulary first, in word order, so two
-- writers adding the same new words queue instead of deadlocking.
CREATE OR REPLACE FUNCTION ticket_words_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each branch names only its own transition tables: PL/pgSQL plans a statement's every table.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ticket_vocabulary (word)
    SELECT DISTINCT w FROM new_rows n, unnest(tsvector_to_array(n.search_words)) w ORDER BY 1
    ON CONFLICT (word) DO NOTHING;
    INSERT INTO ticket_words (word, status, priority, agent_id, ticket_id)
    SELECT w, n.status, n.priority, coalesce(n.assigned_agent_id, 0), n.id FROM new_rows n, unnest(tsvector_to_array(n.search_words)) w;
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM ticket_words t
    USING old_rows o, unnest(tsvector_to_array(o.search_words)) w
    WHERE t.word = w AND t.status = o.status AND t.priority = o.priority AND t.agent_id = coalesce(o.assigned_agent_id, 0)
      AND t.ticket_id = o.id;
  ELSE
    WITH changed AS (
      SELECT o.id, o.search_words AS old_words, o.status AS old_status, o.priority AS old_priority,
        coalesce(o.assigned_agent_id, 0) AS old_agent, n.search_words, n.status, n.priority,
        coalesce(n.assigned_agent_id, 0) AS agent_id
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (n.search_words, n.status, n.priority, coalesce(n.assigned_agent_id, 0))
        IS DISTINCT FROM (o.search_words, o.status, o.priority, coalesce(o.assigned_agent_id, 0))
    ), gone AS (
      DELETE FROM ticket_words t
      USING changed c, unnest(tsvector_to_array(c.old_words)) w
      WHERE t.word = w AND t.status = c.old_status AND t.priority = c.old_priority AND t.agent_id = c.old_agent
        AND t.ticket_id = c.id
    ), known AS (
      INSERT INTO ticket_vocabulary (word)
      SELECT DISTINCT w FROM changed c, unnest(tsvector_to_array(c.search_words)) w ORDER BY 1
      ON CONFLICT (word) DO NOTHING
    )
    INSERT INTO ticket_words (word, status, priority, agent_id, ticket_id)
    SELECT w, c.status, c.priority, c.agent_id, c.id FROM changed c, unnest(tsvector_to_array(c.search_words)) w;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_words_insert AFTER INSERT ON tickets REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_words_track();
--> statement-breakpoint
CREATE TRIGGER tickets_words_delete AFTER DELETE ON tickets REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_words_track();
--> statement-breakpoint
-- Every update (a column list cannot go with transition tables); also the ON DELETE SET NULL of a deleted agent.
CREATE TRIGGER tickets_words_update AFTER UPDATE ON tickets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_words_track();
--> statement-breakpoint
-- TRUNCATE skips row and statement triggers above: the words go with it.
CREATE OR REPLACE FUNCTION ticket_words_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ticket_words;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_words_truncate AFTER TRUNCATE ON tickets FOR EACH STATEMENT EXECUTE FUNCTION ticket_words_clear();
--> statement-breakpoint
-- Filled from the tickets as they are, after the triggers exist and with writes waiting, so no write is
-- missed or counted twice; the indexes are built after the rows, which is faster than row by row.
LOCK TABLE tickets IN SHARE MODE;
--> statement-breakpoint
INSERT INTO ticket_vocabulary (word) SELECT DISTINCT w FROM tickets, unnest(tsvector_to_array(search_words)) w;
--> statement-breakpoint
INSERT INTO ticket_words (word, status, priority, agent_id, ticket_id)
SELECT w, status, priority, coalesce(assigned_agent_id, 0), id FROM tickets, unnest(tsvector_to_array(search_words)) w;
--> statement-breakpoint
CREATE INDEX "ticket_words_idx" ON "ticket_words" USING btree ("word","status","priority","agent_id","ticket_id");
--> statement-breakpoint
ANALYZE ticket_words;
--> statement-breakpoint
ANALYZE ticket_vocabulary;
