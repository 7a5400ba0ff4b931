CREATE TABLE "portal_reply_days" (
	"patient_id" uuid NOT NULL,
	"day" integer NOT NULL,
	"reply_key" text NOT NULL,
	"replies" integer NOT NULL,
	CONSTRAINT "portal_reply_days_patient_id_day_reply_key_pk" PRIMARY KEY("patient_id","day","reply_key")
);
--> statement-breakpoint
CREATE TABLE "portal_reply_dirty_patients" (
	"patient_id" uuid PRIMARY KEY NOT NULL,
	"generation" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portal_reply_months" (
	"patient_id" uuid NOT NULL,
	"month" integer NOT NULL,
	"reply_key" text NOT NULL,
	"replies" integer NOT NULL,
	CONSTRAINT "portal_reply_months_patient_id_month_reply_key_pk" PRIMARY KEY("patient_id","month","reply_key")
);
--> statement-breakpoint
CREATE TABLE "portal_reply_texts" (
	"reply_key" text PRIMARY KEY NOT NULL,
	"reply_text" text,
	"inbound_reading" jsonb
);
--> statement-breakpoint
CREATE INDEX "portal_reply_days_day_idx" ON "portal_reply_days" USING btree ("day");--> statement-breakpoint
CREATE INDEX "portal_reply_months_month_idx" ON "portal_reply_months" USING btree ("month");--> statement-breakpoint
-- hand-written: the reply counts' dirty list (docs/decisions/061). A message written, changed or removed lists its
-- patient (both patients, when an update moves it) with a new generation when either side is inbound; an update
-- that changes none of what is counted (patient, direction, time, text, reading) lists nothing (a status or a
-- review mark). The refresh deletes only entries whose generation it read, so a change committed while it runs is
-- not lost. Statement-level with transition tables and ENABLE ALWAYS, so a bulk load under
-- session_replication_role = replica (the demo seed) still lists its patients.
CREATE FUNCTION portal_reply_mark_patients() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO portal_reply_dirty_patients (patient_id, generation)
      SELECT patient_id, nextval('portal_dirty_generation')
      FROM (SELECT DISTINCT patient_id FROM portal_reply_new_rows WHERE direction = 'inbound') changed
      ON CONFLICT (patient_id) DO UPDATE SET generation = excluded.generation;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO portal_reply_dirty_patients (patient_id, generation)
      SELECT patient_id, nextval('portal_dirty_generation')
      FROM (SELECT DISTINCT patient_id FROM portal_reply_old_rows WHERE direction = 'inbound') changed
      ON CONFLICT (patient_id) DO UPDATE SET generation = excluded.generation;
  ELSE
    INSERT INTO portal_reply_dirty_patients (patient_id, generation)
      SELECT patient_id, nextval('portal_dirty_generation')
      FROM (
        SELECT o.patient_id FROM portal_reply_old_rows o JOIN portal_reply_new_rows n ON n.id = o.id
        WHERE (o.direction = 'inbound' OR n.direction = 'inbound')
          AND (o.patient_id IS DISTINCT FROM n.patient_id OR o.direction IS DISTINCT FROM n.direction
            OR o.sent_at IS DISTINCT FROM n.sent_at OR o.reply_text IS DISTINCT FROM n.reply_text
            OR o.inbound_reading IS DISTINCT FROM n.inbound_reading)
        UNION
        SELECT n.patient_id FROM portal_reply_old_rows o JOIN portal_reply_new_rows n ON n.id = o.id
        WHERE (o.direction = 'inbound' OR n.direction = 'inbound')
          AND (o.patient_id IS DISTINCT FROM n.patient_id OR o.direction IS DISTINCT FROM n.direction
            OR o.sent_at IS DISTINCT FROM n.sent_at OR o.reply_text IS DISTINCT FROM n.reply_text
            OR o.inbound_reading IS DISTINCT FROM n.inbound_reading)
      ) changed
      ON CONFLICT (patient_id) DO UPDATE SET generation = excluded.generation;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER portal_reply_messages_insert AFTER INSERT ON messages REFERENCING NEW TABLE AS portal_reply_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_reply_mark_patients();--> statement-breakpoint
ALTER TABLE messages ENABLE ALWAYS TRIGGER portal_reply_messages_insert;--> statement-breakpoint
CREATE TRIGGER portal_reply_messages_update AFTER UPDATE ON messages REFERENCING OLD TABLE AS portal_reply_old_rows NEW TABLE AS portal_reply_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_reply_mark_patients();--> statement-breakpoint
ALTER TABLE messages ENABLE ALWAYS TRIGGER portal_reply_messages_update;--> statement-breakpoint
CREATE TRIGGER portal_reply_messages_delete AFTER DELETE ON messages REFERENCING OLD TABLE AS portal_reply_old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portal_reply_mark_patients();--> statement-breakpoint
ALTER TABLE messages ENABLE ALWAYS TRIGGER portal_reply_messages_delete;--> statement-breakpoint
-- The counts start empty: every patient with replies already stored is listed, so views read them from messages
-- until the refresh job has written their counts.
INSERT INTO portal_reply_dirty_patients (patient_id, generation)
  SELECT patient_id, nextval('portal_dirty_generation') FROM (SELECT DISTINCT patient_id FROM messages WHERE direction = 'inbound') existing;
