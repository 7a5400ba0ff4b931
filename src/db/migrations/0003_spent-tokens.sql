CREATE TABLE "spent_tokens" (
	"key" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "spent_tokens_expires_at_idx" ON "spent_tokens" USING btree ("expires_at");