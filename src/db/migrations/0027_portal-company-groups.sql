CREATE TABLE "portal_summary_groups" (
	"level_key" text PRIMARY KEY NOT NULL,
	"company_ids" text[] NOT NULL,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "portal_summary_periods" ADD COLUMN "group_levels" text[] DEFAULT '{}'::text[] NOT NULL;