ALTER TYPE "public"."ticket_history_type" ADD VALUE 'tags';--> statement-breakpoint
ALTER TYPE "public"."ticket_history_type" ADD VALUE 'merged';--> statement-breakpoint
CREATE TABLE "tag_counts" (
	"tag" text PRIMARY KEY NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "users_name_prefix_idx" ON "users" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "tickets_tags_idx" ON "tickets" USING gin ("tags");--> statement-breakpoint
-- Keeps tag_counts exact in the transaction of every change to a ticket's tags (GET /api/tags).
CREATE OR REPLACE FUNCTION tag_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tag_counts AS c (tag, n) SELECT t, 1 FROM unnest(NEW.tags) t
    ON CONFLICT (tag) DO UPDATE SET n = c.n + 1;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE tag_counts SET n = n - 1 WHERE tag = ANY (OLD.tags);
  ELSIF OLD.tags IS DISTINCT FROM NEW.tags THEN
    UPDATE tag_counts SET n = n - 1 WHERE tag = ANY (OLD.tags) AND NOT (tag = ANY (NEW.tags));
    INSERT INTO tag_counts AS c (tag, n) SELECT t, 1 FROM unnest(NEW.tags) t WHERE NOT (t = ANY (OLD.tags))
    ON CONFLICT (tag) DO UPDATE SET n = c.n + 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_tag_counts_insert_delete AFTER INSERT OR DELETE ON tickets FOR EACH ROW EXECUTE FUNCTION tag_counts_track();
--> statement-breakpoint
CREATE TRIGGER tickets_tag_counts_update AFTER UPDATE OF tags ON tickets FOR EACH ROW EXECUTE FUNCTION tag_counts_track();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tag_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM tag_counts;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_tag_counts_truncate AFTER TRUNCATE ON tickets FOR EACH STATEMENT EXECUTE FUNCTION tag_counts_clear();
