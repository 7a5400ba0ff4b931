CREATE TABLE "message_day_failure_reasons" (
	"day" integer NOT NULL,
	"channel" text NOT NULL,
	"persona" text,
	"organisation_id" text,
	"code" text,
	"title" text,
	"messages" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_day_patient_sets" (
	"day" integer NOT NULL,
	"channel" text NOT NULL,
	"direction" text NOT NULL,
	"category" text NOT NULL,
	"patients" bit varying NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_day_summaries" (
	"day" integer NOT NULL,
	"channel" text NOT NULL,
	"direction" text NOT NULL,
	"category" text NOT NULL,
	"persona" text,
	"organisation_id" text,
	"reply_text" text,
	"messages" integer NOT NULL,
	"delivered" integer NOT NULL,
	"read" integer NOT NULL,
	"failed" integer NOT NULL,
	"live_stops" integer NOT NULL,
	"replied" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_summary_patients" (
	"patient_id" uuid PRIMARY KEY NOT NULL,
	"ordinal" integer NOT NULL,
	CONSTRAINT "message_summary_patients_ordinal_unique" UNIQUE("ordinal")
);
--> statement-breakpoint
CREATE TABLE "message_summary_stale_days" (
	"day" integer PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "message_day_failure_reasons_day_idx" ON "message_day_failure_reasons" USING btree ("day");--> statement-breakpoint
CREATE INDEX "message_day_patient_sets_day_idx" ON "message_day_patient_sets" USING btree ("day");--> statement-breakpoint
CREATE INDEX "message_day_summaries_day_idx" ON "message_day_summaries" USING btree ("day","channel");--> statement-breakpoint
-- hand-written: the triggers that keep message_summary_stale_days (docs/decisions/045). Messages written,
-- changed or removed make their own UTC days stale and the days 24 hours before them (an outbound message sent in
-- the reply window before one may have gained or lost its reply); a reply quoting a message makes that message's
-- day stale, however long ago it was sent. Statement-level with transition tables, so a bulk load marks each
-- day once, and ENABLE ALWAYS, so they fire even where a loader switches row triggers off
-- (session_replication_role = replica, as the demo seed does for its foreign-key checks).
CREATE OR REPLACE FUNCTION message_summary_inserted_or_deleted() RETURNS trigger AS $$
BEGIN
  INSERT INTO message_summary_stale_days (day)
    SELECT DISTINCT d FROM (
      SELECT floor(extract(epoch from c.sent_at) / 86400)::int AS d FROM changed c
      UNION ALL SELECT floor(extract(epoch from c.sent_at - interval '24 hours') / 86400)::int FROM changed c
      UNION ALL SELECT floor(extract(epoch from m.sent_at) / 86400)::int FROM changed c
        JOIN messages m ON m.channel = c.channel AND m.provider_message_id = c.reply_to_provider_message_id
        WHERE c.direction = 'inbound' AND c.reply_to_provider_message_id IS NOT NULL
    ) days
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_summary_updated() RETURNS trigger AS $$
BEGIN
  INSERT INTO message_summary_stale_days (day)
    SELECT DISTINCT d FROM (
      SELECT floor(extract(epoch from c.sent_at) / 86400)::int AS d FROM (SELECT * FROM old_rows UNION ALL SELECT * FROM new_rows) c
      UNION ALL SELECT floor(extract(epoch from c.sent_at - interval '24 hours') / 86400)::int
        FROM (SELECT * FROM old_rows UNION ALL SELECT * FROM new_rows) c
      UNION ALL SELECT floor(extract(epoch from m.sent_at) / 86400)::int
        FROM (SELECT * FROM old_rows UNION ALL SELECT * FROM new_rows) c
        JOIN messages m ON m.channel = c.channel AND m.provider_message_id = c.reply_to_provider_message_id
        WHERE c.direction = 'inbound' AND c.reply_to_provider_message_id IS NOT NULL
    ) days
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER messages_summary_stale_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION message_summary_inserted_or_deleted();
--> statement-breakpoint
CREATE TRIGGER messages_summary_stale_delete AFTER DELETE ON messages
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION message_summary_inserted_or_deleted();
--> statement-breakpoint
CREATE TRIGGER messages_summary_stale_update AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_summary_updated();
--> statement-breakpoint
ALTER TABLE messages ENABLE ALWAYS TRIGGER messages_summary_stale_insert;
--> statement-breakpoint
ALTER TABLE messages ENABLE ALWAYS TRIGGER messages_summary_stale_delete;
--> statement-breakpoint
ALTER TABLE messages ENABLE ALWAYS TRIGGER messages_summary_stale_update;
--> statement-breakpoint
-- The summaries count by the patient's persona and organisation: a change of either makes their messages' days
-- stale. Per statement too: linking the demo clinic moves 200 patients in one update.
CREATE OR REPLACE FUNCTION message_summary_patients_updated() RETURNS trigger AS $$
BEGIN
  INSERT INTO message_summary_stale_days (day)
    SELECT DISTINCT floor(extract(epoch from m.sent_at) / 86400)::int
    FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN messages m ON m.patient_id = n.id
    WHERE n.persona IS DISTINCT FROM o.persona OR n.organisation_id IS DISTINCT FROM o.organisation_id
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER patients_message_summary_stale AFTER UPDATE ON patients
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_summary_patients_updated();
--> statement-breakpoint
ALTER TABLE patients ENABLE ALWAYS TRIGGER patients_message_summary_stale;
--> statement-breakpoint
-- Messages already stored: every day of them is stale until the first read summarises it.
INSERT INTO message_summary_stale_days (day)
  SELECT DISTINCT floor(extract(epoch from sent_at) / 86400)::int FROM messages ON CONFLICT DO NOTHING;
