CREATE TABLE "patient_persona_posteriors" (
	"patient_id" uuid PRIMARY KEY NOT NULL,
	"posterior" jsonb NOT NULL,
	"survey_response_id" uuid,
	"answers" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "patient_persona_posteriors" ADD CONSTRAINT "patient_persona_posteriors_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_persona_posteriors" ADD CONSTRAINT "patient_persona_posteriors_survey_response_id_survey_responses_id_fk" FOREIGN KEY ("survey_response_id") REFERENCES "public"."survey_responses"("id") ON DELETE set null ON UPDATE no action;