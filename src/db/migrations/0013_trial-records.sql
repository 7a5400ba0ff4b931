CREATE TABLE "trial_screenings" (
	"trial_id" text NOT NULL,
	"patient_id" uuid NOT NULL,
	"assessed_on" date NOT NULL,
	"assessed_by" text,
	"outcome" text NOT NULL,
	"exclusion_reason" text,
	"exclusion_detail" text,
	"eligibility" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "trial_screenings_trial_id_patient_id_pk" PRIMARY KEY("trial_id","patient_id")
);
--> statement-breakpoint
ALTER TABLE "trial_enrolments" ADD COLUMN "stratum_position" integer;--> statement-breakpoint
ALTER TABLE "trial_enrolments" ADD COLUMN "enrolled_by" text;--> statement-breakpoint
ALTER TABLE "trial_enrolments" ADD COLUMN "consent_recorded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trial_enrolments" ADD COLUMN "previous_programme" text;--> statement-breakpoint
ALTER TABLE "trial_enrolments" ADD COLUMN "received_allocation" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "trial_enrolments" ADD COLUMN "not_received_reason" text;--> statement-breakpoint
ALTER TABLE "trial_enrolments" ADD COLUMN "discontinued_on" date;--> statement-breakpoint
ALTER TABLE "trial_enrolments" ADD COLUMN "discontinued_reason" text;--> statement-breakpoint
ALTER TABLE "trial_enrolments" ADD COLUMN "withdrawal_reason" text;--> statement-breakpoint
ALTER TABLE "trial_enrolments" ADD COLUMN "lost_to_follow_up_on" date;--> statement-breakpoint
ALTER TABLE "trial_enrolments" ADD COLUMN "lost_to_follow_up_reason" text;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "analysis_plan" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "analysis_plan_sha256" text;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "target_enrolment" integer;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "recruitment_closed_on" date;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "randomisation_seed" integer DEFAULT (floor(random() * 2147483647))::integer NOT NULL;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "block_sizes" integer[] DEFAULT '{4,6}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "synthetic" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "created_by" text;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "trial_screenings" ADD CONSTRAINT "trial_screenings_trial_id_trials_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_screenings" ADD CONSTRAINT "trial_screenings_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_screenings" ADD CONSTRAINT "trial_screenings_assessed_by_auth_users_id_fk" FOREIGN KEY ("assessed_by") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trial_screenings_outcome_idx" ON "trial_screenings" USING btree ("trial_id","outcome");--> statement-breakpoint
ALTER TABLE "trial_enrolments" ADD CONSTRAINT "trial_enrolments_enrolled_by_auth_users_id_fk" FOREIGN KEY ("enrolled_by") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_created_by_auth_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trial_enrolments_stratum_position_idx" ON "trial_enrolments" USING btree ("trial_id","stratum","stratum_position");--> statement-breakpoint
-- The analysis plan is frozen once enrolment starts (issue 14): the use case refuses with a message, and
-- this refuses any other path (a script, a console) too.
CREATE FUNCTION "trials_freeze_analysis_plan"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF (NEW."analysis_plan" IS DISTINCT FROM OLD."analysis_plan" OR NEW."analysis_plan_sha256" IS DISTINCT FROM OLD."analysis_plan_sha256")
		AND EXISTS (SELECT 1 FROM "trial_enrolments" WHERE "trial_id" = OLD."id") THEN
		RAISE EXCEPTION 'The analysis plan of trial % is frozen: enrolment has started', OLD."id" USING ERRCODE = 'check_violation';
	END IF;
	RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "trials_freeze_analysis_plan" BEFORE UPDATE ON "trials" FOR EACH ROW EXECUTE FUNCTION "trials_freeze_analysis_plan"();
