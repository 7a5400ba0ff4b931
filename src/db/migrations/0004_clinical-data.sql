CREATE TABLE "data_sources" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"api_key_hash" text,
	"last_activity_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_sources_api_key_hash_unique" UNIQUE("api_key_hash")
);
--> statement-breakpoint
CREATE TABLE "dispensings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"product_id" text,
	"medication_code" text,
	"dispensed_on" date NOT NULL,
	"days_supply" integer NOT NULL,
	"quantity" double precision,
	"doses_per_day" double precision,
	"source" text NOT NULL,
	"source_record_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dose_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"product_id" text,
	"scheduled_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"source_record_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"checkpoint" jsonb,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer,
	"rate" double precision,
	"result" jsonb,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"direction" text NOT NULL,
	"category" text,
	"framing" text,
	"template_id" text,
	"body" text,
	"sent_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"status_history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reply_text" text,
	"source" text NOT NULL,
	"source_record_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organisation_memberships" (
	"user_id" text NOT NULL,
	"organisation_id" text NOT NULL,
	CONSTRAINT "organisation_memberships_user_id_organisation_id_pk" PRIMARY KEY("user_id","organisation_id")
);
--> statement-breakpoint
CREATE TABLE "organisations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"pseudonym" text NOT NULL,
	"source" text NOT NULL,
	"source_record_id" text NOT NULL,
	"user_id" text,
	"organisation_id" text,
	"persona" text,
	"age_band" text,
	"sex" text,
	"region" text,
	"language" text,
	"timezone" text,
	"preferred_channel" text,
	"consent" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"conditions" text[] DEFAULT '{}' NOT NULL,
	"synthetic" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patients_pseudonym_unique" UNIQUE("pseudonym"),
	CONSTRAINT "patients_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text,
	"name" text NOT NULL,
	"generic_name" text NOT NULL,
	"atc_code" text,
	"rxnorm_code" text,
	"ndc_code" text,
	"strength" text,
	"form" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "regimens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"product_id" text,
	"medication_code" text,
	"doses_per_day" double precision NOT NULL,
	"dose_times" text[] DEFAULT '{}' NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date,
	"source" text NOT NULL,
	"source_record_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trial_enrolments" (
	"trial_id" text NOT NULL,
	"patient_id" uuid NOT NULL,
	"arm" text NOT NULL,
	"stratum" text,
	"block" integer,
	"enrolled_on" date NOT NULL,
	"withdrawn_on" date,
	CONSTRAINT "trial_enrolments_trial_id_patient_id_pk" PRIMARY KEY("trial_id","patient_id")
);
--> statement-breakpoint
CREATE TABLE "trials" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"start_date" date NOT NULL,
	"weeks" integer NOT NULL,
	"protocol" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dispensings" ADD CONSTRAINT "dispensings_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispensings" ADD CONSTRAINT "dispensings_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dose_events" ADD CONSTRAINT "dose_events_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dose_events" ADD CONSTRAINT "dose_events_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_memberships" ADD CONSTRAINT "organisation_memberships_user_id_auth_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_memberships" ADD CONSTRAINT "organisation_memberships_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_user_id_auth_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_company_id_drug_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."drug_companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regimens" ADD CONSTRAINT "regimens_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regimens" ADD CONSTRAINT "regimens_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_enrolments" ADD CONSTRAINT "trial_enrolments_trial_id_trials_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_enrolments" ADD CONSTRAINT "trial_enrolments_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dispensings_source_record_idx" ON "dispensings" USING btree ("source","source_record_id");--> statement-breakpoint
CREATE INDEX "dispensings_patient_date_idx" ON "dispensings" USING btree ("patient_id","dispensed_on");--> statement-breakpoint
CREATE INDEX "dispensings_product_date_idx" ON "dispensings" USING btree ("product_id","dispensed_on");--> statement-breakpoint
CREATE UNIQUE INDEX "dose_events_source_record_idx" ON "dose_events" USING btree ("source","source_record_id");--> statement-breakpoint
CREATE INDEX "dose_events_patient_time_idx" ON "dose_events" USING btree ("patient_id","scheduled_at");--> statement-breakpoint
CREATE INDEX "jobs_status_created_idx" ON "jobs" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "jobs_kind_created_idx" ON "jobs" USING btree ("kind","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_source_record_idx" ON "messages" USING btree ("source","source_record_id");--> statement-breakpoint
CREATE INDEX "messages_patient_time_idx" ON "messages" USING btree ("patient_id","sent_at");--> statement-breakpoint
CREATE INDEX "messages_time_idx" ON "messages" USING btree ("sent_at");--> statement-breakpoint
CREATE UNIQUE INDEX "patients_source_record_idx" ON "patients" USING btree ("source","source_record_id");--> statement-breakpoint
CREATE INDEX "patients_organisation_idx" ON "patients" USING btree ("organisation_id");--> statement-breakpoint
CREATE INDEX "products_company_idx" ON "products" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "products_atc_idx" ON "products" USING btree ("atc_code");--> statement-breakpoint
CREATE UNIQUE INDEX "regimens_source_record_idx" ON "regimens" USING btree ("source","source_record_id");--> statement-breakpoint
CREATE INDEX "regimens_patient_idx" ON "regimens" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "trial_enrolments_arm_idx" ON "trial_enrolments" USING btree ("trial_id","arm");