CREATE TABLE "portal_dose_slot_changes" (
	"patient_id" uuid NOT NULL,
	"day" date NOT NULL,
	"generation" bigint NOT NULL,
	CONSTRAINT "portal_dose_slot_changes_patient_id_day_pk" PRIMARY KEY("patient_id","day")
);
--> statement-breakpoint
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
CREATE INDEX "portal_dose_slot_changes_day_idx" ON "portal_dose_slot_changes" USING btree ("day");--> statement-breakpoint
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
--> statement-breakpoint
-- hand-written: decision 039's race closed (docs/decisions/057). The dose-slot triggers compared a changed day with
-- the through_day they saw, so a dose written to a day the running refresh was about to cover, by a transaction
-- committing after the refresh had aggregated, was neither aggregated nor marked. They now list every changed
-- (patient, UTC day) with a generation, whatever through_day is; the refresh deletes only the rows it read before
-- aggregating (by generation), so such a change stays listed and its day is read from dose_events.
CREATE SEQUENCE portal_dose_slot_generation;--> statement-breakpoint
CREATE OR REPLACE FUNCTION portal_dose_events_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Nothing aggregated yet (before the first refresh, e.g. while the demo dataset is seeded): nothing to mark.
  IF NOT EXISTS (SELECT 1 FROM portal_aggregate_state WHERE key = 'dose-slots' AND through_day IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  INSERT INTO portal_dose_slot_changes (patient_id, day, generation)
    SELECT patient_id, day, nextval('portal_dose_slot_generation')
      FROM (SELECT DISTINCT patient_id, (scheduled_at AT TIME ZONE 'UTC')::date AS day FROM portal_new_rows) changed
    ON CONFLICT (patient_id, day) DO UPDATE SET generation = excluded.generation;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION portal_dose_events_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM portal_aggregate_state WHERE key = 'dose-slots' AND through_day IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  INSERT INTO portal_dose_slot_changes (patient_id, day, generation)
    SELECT patient_id, day, nextval('portal_dose_slot_generation')
      FROM (SELECT patient_id, (scheduled_at AT TIME ZONE 'UTC')::date AS day FROM portal_old_rows
            UNION SELECT patient_id, (scheduled_at AT TIME ZONE 'UTC')::date FROM portal_new_rows) changed
    ON CONFLICT (patient_id, day) DO UPDATE SET generation = excluded.generation;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION portal_dose_events_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM portal_aggregate_state WHERE key = 'dose-slots' AND through_day IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  INSERT INTO portal_dose_slot_changes (patient_id, day, generation)
    SELECT patient_id, day, nextval('portal_dose_slot_generation')
      FROM (SELECT DISTINCT patient_id, (scheduled_at AT TIME ZONE 'UTC')::date AS day FROM portal_old_rows) changed
    ON CONFLICT (patient_id, day) DO UPDATE SET generation = excluded.generation;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION portal_patients_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM portal_aggregate_state WHERE key = 'dose-slots' AND through_day IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  -- A moved patient or time zone changes every aggregated day of theirs: listed from the first day.
  INSERT INTO portal_dose_slot_changes (patient_id, day, generation)
    SELECT n.id, DATE '1970-01-01', nextval('portal_dose_slot_generation') FROM portal_old_rows o JOIN portal_new_rows n ON n.id = o.id
     WHERE o.region IS DISTINCT FROM n.region OR o.timezone IS DISTINCT FROM n.timezone
    ON CONFLICT (patient_id, day) DO UPDATE SET generation = excluded.generation;
  RETURN NULL;
END $$;
