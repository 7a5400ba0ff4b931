CREATE TABLE "message_template_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"template_id" text NOT NULL,
	"language" text NOT NULL,
	"version" integer NOT NULL,
	"body" text NOT NULL,
	"whatsapp_name" text NOT NULL,
	"whatsapp_language" text NOT NULL,
	"whatsapp_category" text NOT NULL,
	"approval_status" text NOT NULL,
	"edited_by" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policy_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"source" text NOT NULL,
	"local_date" date NOT NULL,
	"decided_at" timestamp with time zone NOT NULL,
	"policy_name" text NOT NULL,
	"policy_version" text NOT NULL,
	"context" jsonb NOT NULL,
	"action" text NOT NULL,
	"category" text,
	"framing" text,
	"template_id" text,
	"minute_of_day" integer,
	"propensity" double precision NOT NULL,
	"random_seed" text NOT NULL,
	"scheduled_for" timestamp with time zone,
	"status" text NOT NULL,
	"status_reason" text,
	"reward" double precision,
	"rewarded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dose_events" ADD COLUMN "missed_reason" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "policy_decision_id" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "template_language" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "template_version" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "reviewed_by" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "messaging_programme" text;--> statement-breakpoint
ALTER TABLE "message_template_versions" ADD CONSTRAINT "message_template_versions_edited_by_auth_users_id_fk" FOREIGN KEY ("edited_by") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_decisions" ADD CONSTRAINT "policy_decisions_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_template_versions_idx" ON "message_template_versions" USING btree ("template_id","language","version");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_decisions_patient_day_idx" ON "policy_decisions" USING btree ("patient_id","source","local_date");--> statement-breakpoint
CREATE INDEX "policy_decisions_status_idx" ON "policy_decisions" USING btree ("status","scheduled_for");--> statement-breakpoint
CREATE INDEX "policy_decisions_policy_idx" ON "policy_decisions" USING btree ("policy_name","decided_at");--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_policy_decision_id_policy_decisions_id_fk" FOREIGN KEY ("policy_decision_id") REFERENCES "public"."policy_decisions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_reviewed_by_auth_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_users_verified_phone_digits_idx" ON "auth_users" USING btree (regexp_replace("phone_number", '[^0-9]', '', 'g')) WHERE "auth_users"."phone_number_verified";--> statement-breakpoint
CREATE INDEX "dose_events_product_idx" ON "dose_events" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_policy_decision_channel_idx" ON "messages" USING btree ("policy_decision_id","channel");--> statement-breakpoint
CREATE INDEX "messages_reply_to_idx" ON "messages" USING btree ("channel","reply_to_provider_message_id");--> statement-breakpoint
CREATE INDEX "patients_messaging_programme_idx" ON "patients" USING btree ("messaging_programme");