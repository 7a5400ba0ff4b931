CREATE TABLE "policy_states" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"policy_name" text NOT NULL,
	"version" text NOT NULL,
	"source" text NOT NULL,
	"state" jsonb NOT NULL,
	"settings" jsonb NOT NULL,
	"decisions_used" integer DEFAULT 0 NOT NULL,
	"trained_through" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "policy_decisions" ADD COLUMN "arm_probabilities" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "policy_states_version_idx" ON "policy_states" USING btree ("policy_name","version");--> statement-breakpoint
CREATE INDEX "policy_states_created_idx" ON "policy_states" USING btree ("policy_name","created_at");