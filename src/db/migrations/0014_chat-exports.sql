CREATE TABLE "chat_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_user_id" text NOT NULL,
	"file_name" text NOT NULL,
	"time_zone" text NOT NULL,
	"date_order" text NOT NULL,
	"message_count" integer NOT NULL,
	"participants" text[] NOT NULL,
	"messages" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_exports" ADD CONSTRAINT "chat_exports_owner_user_id_auth_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."auth_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_exports_owner_idx" ON "chat_exports" USING btree ("owner_user_id","created_at");