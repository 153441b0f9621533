DROP INDEX "tickets_priority_created_desc_idx";--> statement-breakpoint
CREATE INDEX "tickets_priority_created_desc_idx" ON "tickets" USING btree ("priority","created_at" DESC NULLS FIRST,"id");