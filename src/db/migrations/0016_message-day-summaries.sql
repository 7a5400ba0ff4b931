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
CREATE TABLE "message_summary_stale_days" (
	"day" integer PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "message_day_failure_reasons_day_idx" ON "message_day_failure_reasons" USING btree ("day");--> statement-breakpoint
CREATE INDEX "message_day_summaries_day_idx" ON "message_day_summaries" USING btree ("day","channel");--> statement-breakpoint
-- hand-written: the triggers that keep message_summary_stale_days (docs/decisions/045). A message written,
-- changed or removed makes its own UTC day stale and the day 24 hours before it (an outbound message sent in
-- the reply window before it may have gained or lost its reply); a reply quoting a message makes that
-- message's day stale, however long ago it was sent.
CREATE OR REPLACE FUNCTION message_summary_mark_days(sent timestamptz, msg_channel text, msg_direction text, quoted text) RETURNS void AS $$
BEGIN
  INSERT INTO message_summary_stale_days (day)
    SELECT d FROM unnest(ARRAY[
      floor(extract(epoch from sent) / 86400)::int,
      floor(extract(epoch from sent - interval '24 hours') / 86400)::int]) AS d
    ON CONFLICT DO NOTHING;
  IF msg_direction = 'inbound' AND quoted IS NOT NULL THEN
    INSERT INTO message_summary_stale_days (day)
      SELECT DISTINCT floor(extract(epoch from m.sent_at) / 86400)::int FROM messages m
      WHERE m.channel = msg_channel AND m.provider_message_id = quoted
      ON CONFLICT DO NOTHING;
  END IF;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_summary_message_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM message_summary_mark_days(OLD.sent_at, OLD.channel, OLD.direction, OLD.reply_to_provider_message_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM message_summary_mark_days(NEW.sent_at, NEW.channel, NEW.direction, NEW.reply_to_provider_message_id);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER messages_summary_stale AFTER INSERT OR UPDATE OR DELETE ON messages
  FOR EACH ROW EXECUTE FUNCTION message_summary_message_changed();
--> statement-breakpoint
-- The summaries count by the patient's persona and organisation: a change of either makes their messages' days stale.
CREATE OR REPLACE FUNCTION message_summary_patient_changed() RETURNS trigger AS $$
BEGIN
  IF NEW.persona IS DISTINCT FROM OLD.persona OR NEW.organisation_id IS DISTINCT FROM OLD.organisation_id THEN
    INSERT INTO message_summary_stale_days (day)
      SELECT DISTINCT floor(extract(epoch from m.sent_at) / 86400)::int FROM messages m WHERE m.patient_id = NEW.id
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER patients_message_summary_stale AFTER UPDATE ON patients
  FOR EACH ROW EXECUTE FUNCTION message_summary_patient_changed();
--> statement-breakpoint
-- Messages already stored: every day of them is stale until the first read summarises it.
INSERT INTO message_summary_stale_days (day)
  SELECT DISTINCT floor(extract(epoch from sent_at) / 86400)::int FROM messages ON CONFLICT DO NOTHING;
