-- Word-prefix search (docs/decisions.md#search-by-word-prefix). A text's words: lower-cased, split on
-- explicit code point ranges (every ASCII character but letters and digits, Latin-1 punctuation and
-- symbols, × ÷, General Punctuation, CJK punctuation) so no locale decides what a letter is, and a
-- word longer than 100 characters cut into pieces that long (a lexeme may not pass 2 kB).
-- protocol/src/api/ticketMatch.ts `searchWordsOf` spells the same rule; server/src/routes/ticketMatch.test.ts holds them together.
CREATE OR REPLACE FUNCTION ticket_search_words(haystack text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT array_remove(regexp_split_to_array(
    regexp_replace(lower(haystack), '([^\u0001-\u002f\u003a-\u0040\u005b-\u0060\u007b-\u007f\u00a0-\u00bf\u00d7\u00f7\u2000-\u206f\u3000-\u303f]{100})', '\1 ', 'g'),
    '[\u0001-\u002f\u003a-\u0040\u005b-\u0060\u007b-\u007f\u00a0-\u00bf\u00d7\u00f7\u2000-\u206f\u3000-\u303f]+'), '')
$$;
--> statement-breakpoint
-- The indexed words of a ticket; positions are not kept (a search is words in any order).
CREATE OR REPLACE FUNCTION ticket_search_vector(title text, description text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT array_to_tsvector(ticket_search_words(title || ' ' || description))
$$;
--> statement-breakpoint
-- Every word of the search as a prefix, all required. The caller sends no search without a word: an
-- empty tsquery matches nothing but raises a notice.
CREATE OR REPLACE FUNCTION ticket_search_query(search text) RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT array_to_string(array(SELECT '''' || w || ''':*' FROM unnest(ticket_search_words(search)) w), ' & ')::tsquery
$$;
--> statement-breakpoint
-- The owner's conversation: public comments only, the count every reader is shown (notes never count).
ALTER TABLE "tickets" ADD COLUMN "comment_count" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_comment_count_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One UPDATE per statement, however many comments it wrote, in ticket id order (no lock-order deadlock).
  IF TG_OP = 'INSERT' THEN
    UPDATE tickets t SET comment_count = t.comment_count + d.n
    FROM (SELECT ticket_id, count(*)::int AS n FROM new_rows WHERE NOT internal GROUP BY ticket_id ORDER BY ticket_id) d
    WHERE t.id = d.ticket_id;
  ELSIF TG_OP = 'DELETE' THEN
    -- A ticket's own deletion cascades here after its row is gone: the UPDATE then finds nothing.
    UPDATE tickets t SET comment_count = t.comment_count - d.n
    FROM (SELECT ticket_id, count(*)::int AS n FROM old_rows WHERE NOT internal GROUP BY ticket_id ORDER BY ticket_id) d
    WHERE t.id = d.ticket_id;
  ELSE
    UPDATE tickets t SET comment_count = t.comment_count + d.n
    FROM (
      SELECT ticket_id, sum(n)::int AS n FROM (
        SELECT ticket_id, 1 AS n FROM new_rows WHERE NOT internal
        UNION ALL SELECT ticket_id, -1 FROM old_rows WHERE NOT internal
      ) m GROUP BY ticket_id HAVING sum(n) <> 0 ORDER BY ticket_id
    ) d
    WHERE t.id = d.ticket_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_comments_count_insert AFTER INSERT ON ticket_comments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_comment_count_track();
--> statement-breakpoint
CREATE TRIGGER ticket_comments_count_delete AFTER DELETE ON ticket_comments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_comment_count_track();
--> statement-breakpoint
CREATE TRIGGER ticket_comments_count_update AFTER UPDATE ON ticket_comments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_comment_count_track();
--> statement-breakpoint
-- Counts the existing comments while the rewrite below copies each row (one pass over the table,
-- not an UPDATE of every ticket); dropped once used.
CREATE OR REPLACE FUNCTION ticket_public_comments(ticket integer) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT count(*)::int FROM ticket_comments WHERE ticket_id = ticket AND NOT internal
$$;
--> statement-breakpoint
-- Taken after the triggers exist, so no comment is counted twice or missed.
LOCK TABLE ticket_comments IN SHARE MODE;
--> statement-breakpoint
-- Replaces the trigram search; its index goes first so the rewrite does not rebuild it.
DROP INDEX IF EXISTS "tickets_search_text_trgm_idx";
--> statement-breakpoint
ALTER TABLE "tickets"
  DROP COLUMN "search_text",
  ADD COLUMN "search_words" tsvector GENERATED ALWAYS AS (ticket_search_vector(title, description)) STORED NOT NULL,
  ALTER COLUMN "comment_count" TYPE integer USING ticket_public_comments(id);
--> statement-breakpoint
DROP FUNCTION ticket_public_comments(integer);
--> statement-breakpoint
CREATE INDEX "tickets_search_words_idx" ON "tickets" USING gin ("search_words");
--> statement-breakpoint
-- The active tickets' words: "printer" + open read a bitmap of 4,608 entries instead of 120,602
-- (docs/decisions.md#counting-a-search).
CREATE INDEX "tickets_active_search_words_idx" ON "tickets" USING gin ("search_words") WHERE "tickets"."status" in ('open', 'in_progress');
--> statement-breakpoint
-- "Mine + status": the page and its count straight off one index.
CREATE INDEX "tickets_assigned_status_created_idx" ON "tickets" USING btree ("assigned_agent_id","status","created_at","id");
--> statement-breakpoint
-- ticket_counts gains the rows of every ticket whoever holds it (agent_id -1), so a question without an
-- assignee reads 16 rows, not 16 per staff member (docs/decisions.md#maintained-counts-read-sixteen-rows).
-- The row triggers of 0004 become statement triggers: one write per statement, however many tickets it
-- changed, its counter rows taken in key order, so two writers that share rows queue instead of deadlocking.
DROP TRIGGER IF EXISTS tickets_counts_insert_delete ON tickets;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tickets_counts_update ON tickets;
--> statement-breakpoint
DROP FUNCTION IF EXISTS ticket_counts_track();
--> statement-breakpoint
DROP FUNCTION IF EXISTS ticket_counts_bump(integer, ticket_status, ticket_priority, integer);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each ticket counts in its assignee's row (0 = unassigned) and in the all-tickets row (-1).
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ticket_counts (agent_id, status, priority, n)
    SELECT v.agent_id, r.status, r.priority, count(*)::int
    FROM new_rows r, LATERAL (VALUES (coalesce(r.assigned_agent_id, 0)), (-1)) v(agent_id)
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (agent_id, status, priority) DO UPDATE SET n = ticket_counts.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO ticket_counts (agent_id, status, priority, n)
    SELECT v.agent_id, r.status, r.priority, -count(*)::int
    FROM old_rows r, LATERAL (VALUES (coalesce(r.assigned_agent_id, 0)), (-1)) v(agent_id)
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (agent_id, status, priority) DO UPDATE SET n = ticket_counts.n + excluded.n;
  ELSE
    -- Most updates move nothing (a title, an activity time): the sums cancel and no row is touched.
    INSERT INTO ticket_counts (agent_id, status, priority, n)
    SELECT v.agent_id, r.status, r.priority, sum(r.n)::int
    FROM (
      SELECT assigned_agent_id, status, priority, 1 AS n FROM new_rows
      UNION ALL SELECT assigned_agent_id, status, priority, -1 FROM old_rows
    ) r, LATERAL (VALUES (coalesce(r.assigned_agent_id, 0)), (-1)) v(agent_id)
    GROUP BY 1, 2, 3 HAVING sum(r.n) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (agent_id, status, priority) DO UPDATE SET n = ticket_counts.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_counts_insert AFTER INSERT ON tickets REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_counts_track();
--> statement-breakpoint
CREATE TRIGGER tickets_counts_delete AFTER DELETE ON tickets REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_counts_track();
--> statement-breakpoint
-- Every update (a column list cannot go with transition tables); also the ON DELETE SET NULL of a deleted agent.
CREATE TRIGGER tickets_counts_update AFTER UPDATE ON tickets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_counts_track();
--> statement-breakpoint
LOCK TABLE tickets IN SHARE MODE;
--> statement-breakpoint
INSERT INTO ticket_counts (agent_id, status, priority, n)
SELECT -1, status, priority, sum(n)::int FROM ticket_counts WHERE agent_id >= 0 GROUP BY status, priority;
--> statement-breakpoint
-- The planner picks "walk the date index and filter" for common words and the word index for rare
-- ones, and services/searchCounts.ts skips counting a search estimated far past the cap: both need
-- each word's share. The default target tracks ~1,000 words and prices every other one at half the
-- rarest tracked (4,700 tickets in a million), so a rare word walked the whole date index.
ALTER TABLE "tickets" ALTER COLUMN "search_words" SET STATISTICS 1000;
--> statement-breakpoint
ANALYZE "tickets";
