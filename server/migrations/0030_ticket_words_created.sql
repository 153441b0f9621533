-- A word's matches sorted off its own rows (docs/decisions.md#a-search-counted-off-its-words): each row of
-- ticket_words now carries its ticket's creation time, which never changes, in the index beside the key.
-- A page of up to 10,000 matches in creation, id, priority or status order is then sorted index-only,
-- where each match cost a descent of the tickets' btree (~3.5 µs) and a walk of the order's index cost
-- an entry per ticket walked past. Rebuilt rather than altered: an UPDATE of every row would write the
-- table twice over. Writes to tickets wait meanwhile (SHARE), so none is missed or counted twice.
LOCK TABLE tickets IN SHARE MODE;
--> statement-breakpoint
CREATE TABLE "ticket_words_next" (
	"word" text COLLATE "C" NOT NULL,
	"status" "ticket_status" NOT NULL,
	"priority" "ticket_priority" NOT NULL,
	"agent_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
INSERT INTO ticket_words_next (word, status, priority, agent_id, ticket_id, created_at)
SELECT w, status, priority, coalesce(assigned_agent_id, 0), id, created_at FROM tickets, unnest(tsvector_to_array(search_words)) w;
--> statement-breakpoint
DROP TABLE "ticket_words";
--> statement-breakpoint
ALTER TABLE "ticket_words_next" RENAME TO "ticket_words";
--> statement-breakpoint
ALTER TABLE "ticket_words" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 20000, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 20000);
--> statement-breakpoint
ALTER TABLE "ticket_words" ALTER COLUMN "word" SET STATISTICS 1000;
--> statement-breakpoint
CREATE INDEX "ticket_words_idx" ON "ticket_words" USING btree ("word","status","priority","agent_id","ticket_id") INCLUDE ("created_at");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_words_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each branch names only its own transition table: PL/pgSQL plans a statement's every table.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ticket_vocabulary (word)
    SELECT DISTINCT w FROM new_rows n, unnest(tsvector_to_array(n.search_words)) w ORDER BY 1
    ON CONFLICT (word) DO NOTHING;
    INSERT INTO ticket_words (word, status, priority, agent_id, ticket_id, created_at)
    SELECT w, n.status, n.priority, coalesce(n.assigned_agent_id, 0), n.id, n.created_at FROM new_rows n, unnest(tsvector_to_array(n.search_words)) w;
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
-- The row trigger of 0029, which now also carries the creation time. The app never writes it again;
-- should anyone, the trigger below replaces the rows as for any other of their columns.
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
  INSERT INTO ticket_words (word, status, priority, agent_id, ticket_id, created_at)
  SELECT w, NEW.status, NEW.priority, coalesce(NEW.assigned_agent_id, 0), NEW.id, NEW.created_at FROM unnest(tsvector_to_array(NEW.search_words)) w;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "tickets_words_update" ON "tickets";
--> statement-breakpoint
CREATE TRIGGER tickets_words_update AFTER UPDATE OF title, description, status, priority, assigned_agent_id, created_at ON tickets FOR EACH ROW
WHEN (OLD.search_words IS DISTINCT FROM NEW.search_words OR OLD.status IS DISTINCT FROM NEW.status OR OLD.priority IS DISTINCT FROM NEW.priority
  OR OLD.assigned_agent_id IS DISTINCT FROM NEW.assigned_agent_id OR OLD.created_at IS DISTINCT FROM NEW.created_at)
EXECUTE FUNCTION ticket_words_change();
--> statement-breakpoint
ANALYZE ticket_words;
