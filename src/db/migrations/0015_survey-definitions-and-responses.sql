CREATE TABLE "survey_definitions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"survey_key" text NOT NULL,
	"version" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"change_note" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survey_responses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"definition_id" uuid NOT NULL,
	"survey_key" text NOT NULL,
	"channel" text DEFAULT 'web' NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"asked_order" text[] DEFAULT '{}' NOT NULL,
	"summary" jsonb,
	"posterior" jsonb,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "survey_definitions" ADD CONSTRAINT "survey_definitions_created_by_auth_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_definition_id_survey_definitions_id_fk" FOREIGN KEY ("definition_id") REFERENCES "public"."survey_definitions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "survey_definitions_key_version_idx" ON "survey_definitions" USING btree ("survey_key","version");--> statement-breakpoint
CREATE INDEX "survey_responses_patient_idx" ON "survey_responses" USING btree ("patient_id","survey_key","started_at");--> statement-breakpoint
CREATE INDEX "survey_responses_completed_idx" ON "survey_responses" USING btree ("survey_key","completed_at");