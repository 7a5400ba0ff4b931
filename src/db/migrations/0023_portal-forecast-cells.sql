CREATE TABLE "portal_forecast_bases" (
	"base_key" text PRIMARY KEY NOT NULL,
	"set_key" text NOT NULL,
	"as_of" date NOT NULL,
	"product_ids" text[],
	"built_at" timestamp with time zone,
	"last_used_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portal_forecast_cells" (
	"base_key" text NOT NULL,
	"part" text NOT NULL,
	"key" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "portal_forecast_cells_base_key_part_key_pk" PRIMARY KEY("base_key","part","key")
);
--> statement-breakpoint
CREATE TABLE "portal_forecast_rows" (
	"as_of" date NOT NULL,
	"patient_id" uuid NOT NULL,
	"cells" jsonb NOT NULL,
	CONSTRAINT "portal_forecast_rows_as_of_patient_id_pk" PRIMARY KEY("as_of","patient_id")
);
--> statement-breakpoint
ALTER TABLE "portal_forecast_cells" ADD CONSTRAINT "portal_forecast_cells_base_key_portal_forecast_bases_base_key_fk" FOREIGN KEY ("base_key") REFERENCES "public"."portal_forecast_bases"("base_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "portal_forecast_rows_patient_idx" ON "portal_forecast_rows" USING btree ("patient_id");--> statement-breakpoint
-- hand-written: the forecast's rows count synthetic patients (the page says "Synthetic demo data"), so a change
-- of a patient's synthetic flag lists them dirty like a change of their dispensings (docs/decisions/057).
CREATE FUNCTION portal_patients_synthetic_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO portal_dirty_patients (patient_id, generation)
    SELECT n.id, nextval('portal_dirty_generation') FROM portal_old_rows o JOIN portal_new_rows n ON n.id = o.id
     WHERE o.synthetic IS DISTINCT FROM n.synthetic
    ON CONFLICT (patient_id) DO UPDATE SET generation = excluded.generation;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER portal_patients_synthetic AFTER UPDATE ON patients REFERENCING OLD TABLE AS portal_old_rows NEW TABLE AS portal_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_patients_synthetic_changed();
