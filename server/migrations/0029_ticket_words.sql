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
-- An insert adds its tickets' rows, a delete removes them. New words enter the vocabulary in word
-- order, so two writers adding the same new words queue instead of deadlocking.
CREATE OR REPLACE FUNCTION ticket_words_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each branch names only its own transition table: PL/pgSQL plans a statement's every table.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ticket_vocabulary (word)
    SELECT DISTINCT w FROM new_rows n, unnest(tsvector_to_array(n.search_words)) w ORDER BY 1
    ON CONFLICT (word) DO NOTHING;
    INSERT INTO ticket_words (word, status, priority, agent_id, ticket_id)
    SELECT w, n.status, n.priority, coalesce(n.assigned_agent_id, 0), n.id FROM new_rows n, unnest(tsvector_to_array(n.search_words)) w;
  ELSE
    DELETE FROM ticket_words t
    USING old_rows o, unnest(tsvector_to_array(o.search_words)) w
    WHERE t.word = w AND t.status = o.status AND t.priority = o.priority AND t.agent_id = coalesce(o.assigned_agent_id, 0)
      AND t.ticket_id = o.id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_words_insert AFTER INSERT ON tickets REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_words_track();
--> statement-breakpoint
CREATE TRIGGER tickets_words_delete AFTER DELETE ON tickets REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_words_track();
--> statement-breakpoint
-- A ticket whose words, status, priority or assignee changed gets its rows replaced. A row trigger on
-- those columns, so the updates that name none of them (activity times, the SLA scanner's marks) never
-- call it: a statement trigger ran on every update and its join of the transition tables made a
-- scanner pass over 10,000 tickets 2.4 times slower. Only a text edit can bring new words, one ticket
-- at a time.
CREATE OR REPLACE FUNCTION ticket_words_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ticket_words t
  USING unnest(tsvector_to_array(OLD.search_words)) w
  WHERE t.word = w AND t.status = OLD.status AND t.priority = OLD.priority AND t.agent_id = coalesce(OLD.assigned_agent_id, 0)
    AND t.ticket_id = OLD.id;
  IF NEW.search_words IS DISTINCT FROM OLD.search_words THEN
    INSERT INTO ticket_vocabulary (word)
    SELECT w FROM unnest(tsvector_to_array(NEW.search_words)) w ORDER BY 1
    ON CONFLICT (word) DO NOTHING;
  END IF;
  INSERT INTO ticket_words (word, status, priority, agent_id, ticket_id)
  SELECT w, NEW.status, NEW.priority, coalesce(NEW.assigned_agent_id, 0), NEW.id FROM unnest(tsvector_to_array(NEW.search_words)) w;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Also the ON DELETE SET NULL of a deleted agent, which updates assigned_agent_id.
CREATE TRIGGER tickets_words_update AFTER UPDATE OF title, description, status, priority, assigned_agent_id ON tickets FOR EACH ROW
WHEN (OLD.search_words IS DISTINCT FROM NEW.search_words OR OLD.status IS DISTINCT FROM NEW.status OR OLD.priority IS DISTINCT FROM NEW.priority
  OR OLD.assigned_agent_id IS DISTINCT FROM NEW.assigned_agent_id)
EXECUTE FUNCTION ticket_words_change();
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
