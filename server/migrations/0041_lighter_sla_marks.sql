-- What each SLA mark writes beside the ticket, made lighter (docs/decisions.md#lighter-sla-marks):
-- a scanner pass at a million tickets inserts a timeline entry and a notice per mark.
--
-- Who acted (ticket_history.actor_id) and whom a notice is about (notifications.by_id) are no longer
-- foreign keys to users (docs/decisions.md#no-key-checks-on-who-acted). Users are never deleted, so
-- the keys only checked each insert, by locking the user's row FOR KEY SHARE: a 500-ticket batch's
-- two inserts took 36 ms with them and 24 ms without, and two workers naming the same users turned
-- those locks into multixacts.
ALTER TABLE "ticket_history" DROP CONSTRAINT "ticket_history_actor_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_by_id_users_id_fk";
--> statement-breakpoint
-- The admins' notices (user_id null, migration 0039) out of the two indexes that find one recipient's:
-- every SLA mark on an unassigned ticket writes such a notice, each took an entry in both, and no
-- query reads them there (an admin's are found by notifications_admins_idx and _created_idx). A
-- recipient's `user_id = $1` implies the new predicate, so the lists and the bell's count keep their
-- plans.
DROP INDEX "notifications_user_created_idx";--> statement-breakpoint
DROP INDEX "notifications_user_unread_idx";--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at","id") WHERE "notifications"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id") WHERE "notifications"."user_id" is not null and "notifications"."read_at" is null;
--> statement-breakpoint
-- A table's statement triggers fire in name order. ticket_sla_states' now sorts before the counters'
-- (tickets_counts_update), which lock the shared count rows until the commit: a scanner batch's SLA
-- rows are then written before it takes them, not while a second worker's batch waits on them.
ALTER TRIGGER "tickets_sla_states_update" ON "tickets" RENAME TO "ticket_sla_states_update";
