ALTER TABLE "portal_aggregate_state" ADD COLUMN "listing_since" timestamp with time zone;--> statement-breakpoint
-- hand-written: decision 057's "Left" gap closed (docs/decisions/060). The dose-slot triggers listed nothing while
-- nothing was aggregated, so a dose written during the FIRST build by a transaction committing after the build had
-- read dose_events was neither aggregated nor listed. Now the first build sets listing_since first, in its own
-- transaction holding the advisory lock below exclusively; a trigger that finds listing_since unset takes that lock
-- shared (held to its commit) and looks again. So a transaction that skipped listing commits before the build
-- begins (the build sees its doses), and every later one lists its changes (kept by generation, decision 057).
-- A database already aggregated lists from now on.
UPDATE portal_aggregate_state SET listing_since = coalesce(refreshed_at, now()) WHERE key = 'dose-slots' AND through_day IS NOT NULL;--> statement-breakpoint
CREATE FUNCTION portal_dose_slots_listing() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM portal_aggregate_state WHERE key = 'dose-slots' AND listing_since IS NOT NULL) THEN
    RETURN true;
  END IF;
  -- Waits while a first build is starting; then (a new snapshot, READ COMMITTED) sees whether it started.
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('portal-dose-slots-listing', 0));
  RETURN EXISTS (SELECT 1 FROM portal_aggregate_state WHERE key = 'dose-slots' AND listing_since IS NOT NULL);
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION portal_dose_events_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT portal_dose_slots_listing() THEN
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
  IF NOT portal_dose_slots_listing() THEN
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
  IF NOT portal_dose_slots_listing() THEN
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
  -- Only a moved patient or time zone matters; the lock is taken only then (every patient update fires this).
  IF NOT EXISTS (SELECT 1 FROM portal_old_rows o JOIN portal_new_rows n ON n.id = o.id
      WHERE o.region IS DISTINCT FROM n.region OR o.timezone IS DISTINCT FROM n.timezone) OR NOT portal_dose_slots_listing() THEN
    RETURN NULL;
  END IF;
  -- A moved patient or time zone changes every aggregated day of theirs: listed from the first day.
  INSERT INTO portal_dose_slot_changes (patient_id, day, generation)
    SELECT n.id, DATE '1970-01-01', nextval('portal_dose_slot_generation') FROM portal_old_rows o JOIN portal_new_rows n ON n.id = o.id
     WHERE o.region IS DISTINCT FROM n.region OR o.timezone IS DISTINCT FROM n.timezone
    ON CONFLICT (patient_id, day) DO UPDATE SET generation = excluded.generation;
  RETURN NULL;
END $$;
