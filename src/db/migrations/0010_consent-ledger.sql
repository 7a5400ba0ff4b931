CREATE TABLE "consent_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"patient_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"purpose" text NOT NULL,
	"granted" boolean NOT NULL,
	"source" text NOT NULL,
	"actor_user_id" text,
	"effective_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consent_events" ADD CONSTRAINT "consent_events_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_events" ADD CONSTRAINT "consent_events_actor_user_id_auth_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_events_patient_idx" ON "consent_events" USING btree ("patient_id","channel","purpose","effective_at","id");--> statement-breakpoint
-- The ledger is append-only: a row is never changed, except that deleting a user account forgets who acted
-- (ON DELETE SET NULL). Deleting a patient removes their rows with them (ON DELETE CASCADE).
CREATE OR REPLACE FUNCTION consent_events_are_append_only() RETURNS trigger AS $$
BEGIN
  IF NEW.actor_user_id IS NULL
    AND NEW.id = OLD.id AND NEW.patient_id = OLD.patient_id AND NEW.channel = OLD.channel AND NEW.purpose = OLD.purpose
    AND NEW.granted = OLD.granted AND NEW.source = OLD.source AND NEW.effective_at = OLD.effective_at AND NEW.recorded_at = OLD.recorded_at
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'consent_events is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER consent_events_append_only BEFORE UPDATE ON consent_events
  FOR EACH ROW EXECUTE FUNCTION consent_events_are_append_only();
--> statement-breakpoint
-- The consent the patients column held becomes the ledger's first opt-ins (a false there was no consent, so no event).
INSERT INTO "consent_events" ("patient_id", "channel", "purpose", "granted", "source", "effective_at")
SELECT p."id", c.key, u.key, true, 'migration', p."created_at"
FROM "patients" p
  CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(p."consent") = 'object' THEN p."consent" ELSE '{}'::jsonb END) c
  CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(c.value) = 'object' THEN c.value ELSE '{}'::jsonb END) u
WHERE c.key IN ('whatsapp', 'sms', 'app')
  AND u.key IN ('reminders', 'education', 'surveys', 'research')
  AND u.value = 'true'::jsonb
ORDER BY p."id", c.key, u.key;
--> statement-breakpoint
ALTER TABLE "patients" DROP COLUMN "consent";