CREATE TABLE "portal_dirty_patients" (
	"patient_id" uuid PRIMARY KEY NOT NULL,
	"generation" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portal_patient_summaries" (
	"period_key" text NOT NULL,
	"level_key" text NOT NULL,
	"patient_id" uuid NOT NULL,
	"member" boolean NOT NULL,
	"adherent" boolean NOT NULL,
	"pdc_bin" smallint NOT NULL,
	"product_ids" text[] NOT NULL,
	"on_months" smallint[] NOT NULL,
	"adherent_months" smallint[] NOT NULL,
	"start_months" smallint[] NOT NULL,
	"stop_months" smallint[] NOT NULL,
	"gap_counts" integer[] NOT NULL,
	"subject_times" integer[] NOT NULL,
	"subject_events" boolean[] NOT NULL,
	"region" text NOT NULL,
	"age_band" text,
	"sex" text,
	"conditions" text[] NOT NULL,
	"company_keys" text[] NOT NULL,
	"class_keys" text[] NOT NULL,
	CONSTRAINT "portal_patient_summaries_period_key_level_key_patient_id_pk" PRIMARY KEY("period_key","level_key","patient_id")
);
--> statement-breakpoint
CREATE TABLE "portal_summary_cells" (
	"period_key" text NOT NULL,
	"level_key" text NOT NULL,
	"region" text NOT NULL,
	"part" text NOT NULL,
	"key" text NOT NULL,
	"n" integer NOT NULL,
	"a" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portal_summary_periods" (
	"period_key" text PRIMARY KEY NOT NULL,
	"start" date NOT NULL,
	"end" date NOT NULL,
	"built_at" timestamp with time zone,
	"last_used_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "portal_patient_summaries" ADD CONSTRAINT "portal_patient_summaries_period_key_portal_summary_periods_period_key_fk" FOREIGN KEY ("period_key") REFERENCES "public"."portal_summary_periods"("period_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_summary_cells" ADD CONSTRAINT "portal_summary_cells_period_key_portal_summary_periods_period_key_fk" FOREIGN KEY ("period_key") REFERENCES "public"."portal_summary_periods"("period_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "portal_patient_summaries_patient_idx" ON "portal_patient_summaries" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "portal_summary_cells_level_idx" ON "portal_summary_cells" USING btree ("period_key","level_key","region");--> statement-breakpoint
-- hand-written: the per-patient pre-aggregate's dirty list (docs/decisions/050). Every change to dispensings
-- lists its patients with a new generation number; the refresh deletes only the entries whose generation it
-- read, so a change committed while it runs is not lost. So does a change of a patient's region, age band, sex
-- or conditions (the cells are grouped by them). A product changing company or ATC code voids every
-- built period (the company product sets are part of the rows).
CREATE SEQUENCE portal_dirty_generation;--> statement-breakpoint
CREATE FUNCTION portal_mark_patients_dirty() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO portal_dirty_patients (patient_id, generation)
      SELECT patient_id, nextval('portal_dirty_generation') FROM (SELECT DISTINCT patient_id FROM portal_new_rows) changed
      ON CONFLICT (patient_id) DO UPDATE SET generation = excluded.generation;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO portal_dirty_patients (patient_id, generation)
      SELECT patient_id, nextval('portal_dirty_generation') FROM (SELECT DISTINCT patient_id FROM portal_old_rows) changed
      ON CONFLICT (patient_id) DO UPDATE SET generation = excluded.generation;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER portal_dispensings_insert AFTER INSERT ON dispensings REFERENCING NEW TABLE AS portal_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_mark_patients_dirty();--> statement-breakpoint
CREATE TRIGGER portal_dispensings_update AFTER UPDATE ON dispensings REFERENCING OLD TABLE AS portal_old_rows NEW TABLE AS portal_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_mark_patients_dirty();--> statement-breakpoint
CREATE TRIGGER portal_dispensings_delete AFTER DELETE ON dispensings REFERENCING OLD TABLE AS portal_old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_mark_patients_dirty();--> statement-breakpoint
CREATE FUNCTION portal_products_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM portal_old_rows o LEFT JOIN portal_new_rows n ON n.id = o.id
             WHERE n.id IS NULL OR o.company_id IS DISTINCT FROM n.company_id OR o.atc_code IS DISTINCT FROM n.atc_code) THEN
    DELETE FROM portal_patient_summaries;
    UPDATE portal_summary_periods SET built_at = NULL;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER portal_products_update AFTER UPDATE ON products REFERENCING OLD TABLE AS portal_old_rows NEW TABLE AS portal_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_products_changed();
--> statement-breakpoint
CREATE FUNCTION portal_patients_demographics_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO portal_dirty_patients (patient_id, generation)
    SELECT n.id, nextval('portal_dirty_generation') FROM portal_old_rows o JOIN portal_new_rows n ON n.id = o.id
     WHERE o.region IS DISTINCT FROM n.region OR o.age_band IS DISTINCT FROM n.age_band OR o.sex IS DISTINCT FROM n.sex
        OR o.conditions IS DISTINCT FROM n.conditions
    ON CONFLICT (patient_id) DO UPDATE SET generation = excluded.generation;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER portal_patients_demographics AFTER UPDATE ON patients REFERENCING OLD TABLE AS portal_old_rows NEW TABLE AS portal_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_patients_demographics_changed();
