CREATE TABLE "risk_contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"contacted_by" text,
	"contacted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_models" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"source" text NOT NULL,
	"seed" integer NOT NULL,
	"patients" integer NOT NULL,
	"weeks" integer NOT NULL,
	"job_id" uuid,
	"parameters" jsonb,
	"evaluation" jsonb,
	"targeting" jsonb,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "risk_models_version_unique" UNIQUE("version")
);
--> statement-breakpoint
CREATE TABLE "risk_scores" (
	"patient_id" uuid NOT NULL,
	"model_id" uuid NOT NULL,
	"scored_on" date NOT NULL,
	"risk" double precision NOT NULL,
	"reasons" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "risk_scores_patient_id_model_id_pk" PRIMARY KEY("patient_id","model_id")
);
--> statement-breakpoint
ALTER TABLE "risk_contacts" ADD CONSTRAINT "risk_contacts_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_contacts" ADD CONSTRAINT "risk_contacts_contacted_by_auth_users_id_fk" FOREIGN KEY ("contacted_by") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_models" ADD CONSTRAINT "risk_models_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_models" ADD CONSTRAINT "risk_models_created_by_auth_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_scores" ADD CONSTRAINT "risk_scores_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_scores" ADD CONSTRAINT "risk_scores_model_id_risk_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."risk_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "risk_contacts_patient_idx" ON "risk_contacts" USING btree ("patient_id","contacted_at");--> statement-breakpoint
CREATE INDEX "risk_models_status_version_idx" ON "risk_models" USING btree ("status","version");--> statement-breakpoint
CREATE INDEX "risk_scores_model_risk_idx" ON "risk_scores" USING btree ("model_id","risk");