-- Trigram indexes back the case-insensitive searches of tickets and articles.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- array_to_string is only STABLE; this wrapper is safe to mark IMMUTABLE for text[] and can be indexed.
CREATE OR REPLACE FUNCTION article_search_text(title text, content text, keywords text[])
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT title || ' ' || content || ' ' || array_to_string(keywords, ' ') $$;
