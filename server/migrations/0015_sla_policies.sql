CREATE TABLE "sla_calendars" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sla_calendars_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"time_zone" text NOT NULL,
	"hours" jsonb NOT NULL,
	"holidays" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sla_policies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sla_policies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"calendar_id" integer,
	"requester_domains" text[] NOT NULL,
	"targets" jsonb NOT NULL,
	"warn_before_minutes" integer NOT NULL,
	"active" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sla_policies" ADD CONSTRAINT "sla_policies_calendar_id_sla_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."sla_calendars"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sla_policies_calendar_idx" ON "sla_policies" USING btree ("calendar_id");