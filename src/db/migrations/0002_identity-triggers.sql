-- The audit log is append-only: no row may be changed or removed once written.
CREATE OR REPLACE FUNCTION audit_log_is_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_is_append_only();
--> statement-breakpoint
-- Every change to a profile document, by whoever makes it, tells live subscribers (LISTEN profile_changed).
CREATE OR REPLACE FUNCTION notify_profile_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('profile_changed', COALESCE(NEW.uid, OLD.uid));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER user_profiles_notify AFTER INSERT OR UPDATE OR DELETE ON user_profiles
  FOR EACH ROW EXECUTE FUNCTION notify_profile_changed();
--> statement-breakpoint
-- Company memberships are part of what the profile shows.
CREATE OR REPLACE FUNCTION notify_membership_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('profile_changed', COALESCE(NEW.user_id, OLD.user_id));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER company_memberships_notify AFTER INSERT OR UPDATE OR DELETE ON company_memberships
  FOR EACH ROW EXECUTE FUNCTION notify_membership_changed();
