CREATE TABLE "import_batch_rows" (
	"batch_id" uuid NOT NULL,
	"table_name" text NOT NULL,
	"row_id" text NOT NULL,
	"created" boolean NOT NULL,
	CONSTRAINT "import_batch_rows_batch_id_table_name_row_id_pk" PRIMARY KEY("batch_id","table_name","row_id")
);
--> statement-breakpoint
CREATE TABLE "import_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"format" text NOT NULL,
	"source" text NOT NULL,
	"file_name" text,
	"via" text NOT NULL,
	"created_by" text,
	"job_id" uuid,
	"status" text DEFAULT 'running' NOT NULL,
	"resources" integer,
	"skipped" integer,
	"created_rows" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"delivered_rows" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"removed_rows" jsonb,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"undone_by" text,
	"undone_at" timestamp with time zone,
	"undo_job_id" uuid,
	CONSTRAINT "import_batches_job_id_unique" UNIQUE("job_id")
);
--> statement-breakpoint
ALTER TABLE "import_batch_rows" ADD CONSTRAINT "import_batch_rows_batch_id_import_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."import_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_batch_rows_row_idx" ON "import_batch_rows" USING btree ("table_name","row_id");--> statement-breakpoint
CREATE INDEX "import_batches_started_idx" ON "import_batches" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "import_batches_created_by_idx" ON "import_batches" USING btree ("created_by","started_at");