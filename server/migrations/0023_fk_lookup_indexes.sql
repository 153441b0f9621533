-- A deleted ticket's notifications and read marks are deleted with it, and the mails filed on it or on
-- its comments keep their row with the ticket or comment set to null: PostgreSQL finds those rows by
-- the referencing column, and none of these had an index leading with it, so each deletion read the
-- whole of each table (at 1M tickets, 2M notifications: 257 ms per deleted ticket, 196 of them in
-- notifications; with these, 2-6 ms). The nullable columns are indexed where set, like
-- email_outbox_comment_idx. The recipient or reader comes second: the list's unread mark, planned
-- with ticket_reads_ticket_idx on the ticket alone, read every reader's mark of a ticket.
CREATE INDEX "notifications_ticket_idx" ON "notifications" USING btree ("ticket_id","user_id");--> statement-breakpoint
CREATE INDEX "ticket_reads_ticket_idx" ON "ticket_reads" USING btree ("ticket_id","user_id");--> statement-breakpoint
CREATE INDEX "email_messages_comment_idx" ON "email_messages" USING btree ("comment_id") WHERE "email_messages"."comment_id" is not null;--> statement-breakpoint
CREATE INDEX "email_outbox_ticket_idx" ON "email_outbox" USING btree ("ticket_id") WHERE "email_outbox"."ticket_id" is not null;--> statement-breakpoint
CREATE INDEX "inbound_messages_ticket_idx" ON "inbound_messages" USING btree ("ticket_id") WHERE "inbound_messages"."ticket_id" is not null;--> statement-breakpoint
CREATE INDEX "inbound_messages_comment_idx" ON "inbound_messages" USING btree ("comment_id") WHERE "inbound_messages"."comment_id" is not null;