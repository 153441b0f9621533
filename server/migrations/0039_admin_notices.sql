-- A notice to every admin (an SLA mark on an unassigned ticket) is stored once, with no recipient,
-- instead of once per admin: a scanner pass over 10,000 due tickets wrote 56,000 rows with ten admins.
-- Each admin's reads of them: a read-through mark (mark all read) and single reads above it
-- (docs/decisions.md#notices-to-every-admin).
CREATE TABLE "admin_notice_marks" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"through_id" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_notice_reads" (
	"user_id" integer NOT NULL,
	"notification_id" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_notice_reads_user_id_notification_id_pk" PRIMARY KEY("user_id","notification_id")
);
--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "admin_notice_marks" ADD CONSTRAINT "admin_notice_marks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_notice_reads" ADD CONSTRAINT "admin_notice_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_notice_reads" ADD CONSTRAINT "admin_notice_reads_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_notice_reads_notification_idx" ON "admin_notice_reads" USING btree ("notification_id");--> statement-breakpoint
CREATE INDEX "notifications_admins_idx" ON "notifications" USING btree ("id") WHERE "notifications"."user_id" is null;--> statement-breakpoint
CREATE INDEX "notifications_admins_created_idx" ON "notifications" USING btree ("created_at") WHERE "notifications"."user_id" is null;