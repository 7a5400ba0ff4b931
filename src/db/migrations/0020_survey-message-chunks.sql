CREATE TABLE "survey_message_chunks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"survey_response_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"question_ids" text[] NOT NULL,
	"status" text NOT NULL,
	"status_reason" text,
	"message_id" uuid,
	"clarification_message_id" uuid,
	"clarified_reply_id" uuid,
	"answered_reply_id" uuid,
	"held_reply_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "reply_choices" jsonb;--> statement-breakpoint
ALTER TABLE "survey_message_chunks" ADD CONSTRAINT "survey_message_chunks_survey_response_id_survey_responses_id_fk" FOREIGN KEY ("survey_response_id") REFERENCES "public"."survey_responses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_message_chunks" ADD CONSTRAINT "survey_message_chunks_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_message_chunks" ADD CONSTRAINT "survey_message_chunks_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_message_chunks" ADD CONSTRAINT "survey_message_chunks_clarification_message_id_messages_id_fk" FOREIGN KEY ("clarification_message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_message_chunks" ADD CONSTRAINT "survey_message_chunks_clarified_reply_id_messages_id_fk" FOREIGN KEY ("clarified_reply_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_message_chunks" ADD CONSTRAINT "survey_message_chunks_answered_reply_id_messages_id_fk" FOREIGN KEY ("answered_reply_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_message_chunks" ADD CONSTRAINT "survey_message_chunks_held_reply_id_messages_id_fk" FOREIGN KEY ("held_reply_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "survey_message_chunks_open_idx" ON "survey_message_chunks" USING btree ("survey_response_id") WHERE "survey_message_chunks"."status" in ('sending', 'awaiting');--> statement-breakpoint
CREATE INDEX "survey_message_chunks_patient_idx" ON "survey_message_chunks" USING btree ("patient_id","status");