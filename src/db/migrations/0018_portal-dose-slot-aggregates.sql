CREATE TABLE "portal_aggregate_state" (
	"key" text PRIMARY KEY NOT NULL,
	"through_day" date,
	"dirty_from" date,
	"version" bigint DEFAULT 0 NOT NULL,
	"refreshed_version" bigint DEFAULT 0 NOT NULL,
	"refreshed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "portal_dose_slots_daily" (
	"day" date NOT NULL,
	"product_id" text NOT NULL,
	"region" text,
	"weekday" integer NOT NULL,
	"hour" integer NOT NULL,
	"confirmed" integer NOT NULL,
	"missed" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portal_dose_slots_monthly" (
	"month" date NOT NULL,
	"product_id" text NOT NULL,
	"region" text,
	"weekday" integer NOT NULL,
	"hour" integer NOT NULL,
	"confirmed" integer NOT NULL,
	"missed" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "portal_dose_slots_daily_day_product_idx" ON "portal_dose_slots_daily" USING btree ("day","product_id");--> statement-breakpoint
CREATE INDEX "portal_dose_slots_monthly_month_product_idx" ON "portal_dose_slots_monthly" USING btree ("month","product_id");--> statement-breakpoint
CREATE INDEX "dose_events_scheduled_idx" ON "dose_events" USING btree ("scheduled_at");--> statement-breakpoint
-- hand-written: triggers that keep portal_aggregate_state.dirty_from (docs/decisions/039), so the portal never
-- reads a pre-aggregated day whose dose events, or whose patients' region or time zone, changed since the refresh.
INSERT INTO "portal_aggregate_state" ("key") VALUES ('dose-slots') ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE FUNCTION portal_mark_dose_slots_dirty(changed_from date) RETURNS void LANGUAGE sql AS $$
  UPDATE portal_aggregate_state
     SET dirty_from = changed_from, version = version + 1
   WHERE key = 'dose-slots' AND through_day IS NOT NULL AND changed_from IS NOT NULL
     AND changed_from < through_day AND (dirty_from IS NULL OR changed_from < dirty_from);
$$;--> statement-breakpoint
CREATE FUNCTION portal_dose_events_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Nothing aggregated yet (before the first refresh, e.g. while the demo dataset is seeded): nothing to mark.
  IF NOT EXISTS (SELECT 1 FROM portal_aggregate_state WHERE key = 'dose-slots' AND through_day IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  PERFORM portal_mark_dose_slots_dirty((SELECT min(scheduled_at AT TIME ZONE 'UTC')::date FROM portal_new_rows));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION portal_dose_events_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Nothing aggregated yet (before the first refresh, e.g. while the demo dataset is seeded): nothing to mark.
  IF NOT EXISTS (SELECT 1 FROM portal_aggregate_state WHERE key = 'dose-slots' AND through_day IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  PERFORM portal_mark_dose_slots_dirty(least(
    (SELECT min(scheduled_at AT TIME ZONE 'UTC')::date FROM portal_old_rows),
    (SELECT min(scheduled_at AT TIME ZONE 'UTC')::date FROM portal_new_rows)));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION portal_dose_events_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Nothing aggregated yet (before the first refresh, e.g. while the demo dataset is seeded): nothing to mark.
  IF NOT EXISTS (SELECT 1 FROM portal_aggregate_state WHERE key = 'dose-slots' AND through_day IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  PERFORM portal_mark_dose_slots_dirty((SELECT min(scheduled_at AT TIME ZONE 'UTC')::date FROM portal_old_rows));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION portal_patients_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Nothing aggregated yet (before the first refresh, e.g. while the demo dataset is seeded): nothing to mark.
  IF NOT EXISTS (SELECT 1 FROM portal_aggregate_state WHERE key = 'dose-slots' AND through_day IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  IF EXISTS (SELECT 1 FROM portal_old_rows o JOIN portal_new_rows n ON n.id = o.id
             WHERE o.region IS DISTINCT FROM n.region OR o.timezone IS DISTINCT FROM n.timezone) THEN
    PERFORM portal_mark_dose_slots_dirty(DATE '1970-01-01');
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER portal_dose_events_insert AFTER INSERT ON dose_events REFERENCING NEW TABLE AS portal_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_dose_events_inserted();--> statement-breakpoint
CREATE TRIGGER portal_dose_events_update AFTER UPDATE ON dose_events REFERENCING OLD TABLE AS portal_old_rows NEW TABLE AS portal_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_dose_events_updated();--> statement-breakpoint
CREATE TRIGGER portal_dose_events_delete AFTER DELETE ON dose_events REFERENCING OLD TABLE AS portal_old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_dose_events_deleted();--> statement-breakpoint
CREATE TRIGGER portal_patients_update AFTER UPDATE ON patients REFERENCING OLD TABLE AS portal_old_rows NEW TABLE AS portal_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_patients_updated();
