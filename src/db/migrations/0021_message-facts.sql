CREATE TABLE "message_fact_stale_days" (
	"day" integer PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_facts" (
	"message_id" uuid PRIMARY KEY NOT NULL,
	"day" integer NOT NULL,
	"patient_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"direction" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"template_id" text,
	"final_status" boolean NOT NULL,
	"delivered" boolean NOT NULL,
	"delivery_seconds" double precision,
	"replied_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"confirmed_scheduled_at" timestamp with time zone,
	"matched" boolean,
	"reply_key" text
);
--> statement-breakpoint
CREATE INDEX "message_facts_day_idx" ON "message_facts" USING btree ("day");--> statement-breakpoint
CREATE INDEX "message_facts_channel_sent_idx" ON "message_facts" USING btree ("channel","sent_at");--> statement-breakpoint
CREATE INDEX "dose_events_taken_confirmed_idx" ON "dose_events" USING btree ("patient_id","confirmed_at") WHERE "dose_events"."status" = 'taken' and "dose_events"."confirmed_at" is not null;--> statement-breakpoint
-- hand-written: the triggers that keep message_fact_stale_days (docs/decisions/049). A message written, changed
-- or removed makes stale its own UTC day, the day 24 hours before it (an outbound message whose next message or
-- reply it may be), the day 24 hours after it (a reply whose match within 24 hours it may be), the day of a
-- message it quotes, and the days of replies quoting it. A 'taken' dose confirmation written, changed or removed
-- makes stale the days of the messages it may be the first confirmation for (the 24 hours before it).
-- Statement-level with transition tables, so a bulk load marks each day once, and ENABLE ALWAYS, so they fire
-- where a loader switches row triggers off (session_replication_role = replica, as the demo seed does).
CREATE OR REPLACE FUNCTION message_fact_days(changed_at timestamptz) RETURNS int[] AS $$
  SELECT ARRAY[
    floor(extract(epoch from changed_at - interval '24 hours') / 86400)::int,
    floor(extract(epoch from changed_at) / 86400)::int,
    floor(extract(epoch from changed_at + interval '24 hours') / 86400)::int]
$$ LANGUAGE sql STABLE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_facts_inserted_or_deleted() RETURNS trigger AS $$
BEGIN
  INSERT INTO message_fact_stale_days (day)
    SELECT DISTINCT d FROM (
      SELECT unnest(message_fact_days(c.sent_at)) AS d FROM changed c
      UNION ALL SELECT floor(extract(epoch from m.sent_at) / 86400)::int FROM changed c
        JOIN messages m ON m.channel = c.channel AND m.provider_message_id = c.reply_to_provider_message_id
        WHERE c.direction = 'inbound' AND c.reply_to_provider_message_id IS NOT NULL
      UNION ALL SELECT floor(extract(epoch from m.sent_at) / 86400)::int FROM changed c
        JOIN messages m ON m.channel = c.channel AND m.reply_to_provider_message_id = c.provider_message_id
        WHERE c.direction = 'outbound' AND c.provider_message_id IS NOT NULL
    ) days
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_facts_updated() RETURNS trigger AS $$
BEGIN
  INSERT INTO message_fact_stale_days (day)
    SELECT DISTINCT d FROM (
      SELECT unnest(message_fact_days(c.sent_at)) AS d FROM (SELECT * FROM old_rows UNION ALL SELECT * FROM new_rows) c
      UNION ALL SELECT floor(extract(epoch from m.sent_at) / 86400)::int
        FROM (SELECT * FROM old_rows UNION ALL SELECT * FROM new_rows) c
        JOIN messages m ON m.channel = c.channel AND m.provider_message_id = c.reply_to_provider_message_id
        WHERE c.direction = 'inbound' AND c.reply_to_provider_message_id IS NOT NULL
      UNION ALL SELECT floor(extract(epoch from m.sent_at) / 86400)::int
        FROM (SELECT * FROM old_rows UNION ALL SELECT * FROM new_rows) c
        JOIN messages m ON m.channel = c.channel AND m.reply_to_provider_message_id = c.provider_message_id
        WHERE c.direction = 'outbound' AND c.provider_message_id IS NOT NULL
    ) days
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER messages_fact_stale_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION message_facts_inserted_or_deleted();
--> statement-breakpoint
CREATE TRIGGER messages_fact_stale_delete AFTER DELETE ON messages
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION message_facts_inserted_or_deleted();
--> statement-breakpoint
CREATE TRIGGER messages_fact_stale_update AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_facts_updated();
--> statement-breakpoint
ALTER TABLE messages ENABLE ALWAYS TRIGGER messages_fact_stale_insert;
--> statement-breakpoint
ALTER TABLE messages ENABLE ALWAYS TRIGGER messages_fact_stale_delete;
--> statement-breakpoint
ALTER TABLE messages ENABLE ALWAYS TRIGGER messages_fact_stale_update;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_facts_doses_changed() RETURNS trigger AS $$
BEGIN
  INSERT INTO message_fact_stale_days (day)
    SELECT DISTINCT d FROM (
      SELECT floor(extract(epoch from c.confirmed_at) / 86400)::int AS d FROM changed c
        WHERE c.status = 'taken' AND c.confirmed_at IS NOT NULL
      UNION ALL SELECT floor(extract(epoch from c.confirmed_at - interval '24 hours') / 86400)::int FROM changed c
        WHERE c.status = 'taken' AND c.confirmed_at IS NOT NULL
    ) days
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_facts_doses_updated() RETURNS trigger AS $$
BEGIN
  INSERT INTO message_fact_stale_days (day)
    SELECT DISTINCT d FROM (
      SELECT floor(extract(epoch from c.confirmed_at) / 86400)::int AS d FROM (SELECT * FROM old_rows UNION ALL SELECT * FROM new_rows) c
        WHERE c.status = 'taken' AND c.confirmed_at IS NOT NULL
      UNION ALL SELECT floor(extract(epoch from c.confirmed_at - interval '24 hours') / 86400)::int
        FROM (SELECT * FROM old_rows UNION ALL SELECT * FROM new_rows) c
        WHERE c.status = 'taken' AND c.confirmed_at IS NOT NULL
    ) days
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER dose_events_fact_stale_insert AFTER INSERT ON dose_events
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION message_facts_doses_changed();
--> statement-breakpoint
CREATE TRIGGER dose_events_fact_stale_delete AFTER DELETE ON dose_events
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION message_facts_doses_changed();
--> statement-breakpoint
CREATE TRIGGER dose_events_fact_stale_update AFTER UPDATE ON dose_events
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_facts_doses_updated();
--> statement-breakpoint
ALTER TABLE dose_events ENABLE ALWAYS TRIGGER dose_events_fact_stale_insert;
--> statement-breakpoint
ALTER TABLE dose_events ENABLE ALWAYS TRIGGER dose_events_fact_stale_delete;
--> statement-breakpoint
ALTER TABLE dose_events ENABLE ALWAYS TRIGGER dose_events_fact_stale_update;
--> statement-breakpoint
-- Messages already stored: every day of them is stale until the first read computes its facts.
INSERT INTO message_fact_stale_days (day)
  SELECT DISTINCT floor(extract(epoch from sent_at) / 86400)::int FROM messages ON CONFLICT DO NOTHING;
