-- Feedback history is never overwritten: events are append-only, and a submission keeps its
-- label, note, author and time for ever (only its delivery columns may move).
CREATE OR REPLACE FUNCTION feedback_events_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'feedback_events is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER feedback_events_no_update BEFORE UPDATE OR DELETE ON feedback_events
  FOR EACH ROW EXECUTE FUNCTION feedback_events_append_only();
--> statement-breakpoint
CREATE TRIGGER feedback_events_no_truncate BEFORE TRUNCATE ON feedback_events
  FOR EACH STATEMENT EXECUTE FUNCTION feedback_events_append_only();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION feedback_submissions_keep_history() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'feedback_submissions rows are never deleted';
  END IF;
  IF NEW.id IS DISTINCT FROM OLD.id OR NEW.execution_id IS DISTINCT FROM OLD.execution_id
     OR NEW.account_id IS DISTINCT FROM OLD.account_id OR NEW.status IS DISTINCT FROM OLD.status
     OR NEW.reason IS DISTINCT FROM OLD.reason OR NEW.note IS DISTINCT FROM OLD.note
     OR NEW.submitted_by IS DISTINCT FROM OLD.submitted_by OR NEW.submitted_by_email IS DISTINCT FROM OLD.submitted_by_email
     OR NEW.submitted_at IS DISTINCT FROM OLD.submitted_at OR NEW.idempotency_key IS DISTINCT FROM OLD.idempotency_key
     OR NEW.base_submission_id IS DISTINCT FROM OLD.base_submission_id OR NEW.batch_id IS DISTINCT FROM OLD.batch_id THEN
    RAISE EXCEPTION 'a feedback submission''s label, note and author cannot change: submit a new one';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER feedback_submissions_keep_history BEFORE UPDATE OR DELETE ON feedback_submissions
  FOR EACH ROW EXECUTE FUNCTION feedback_submissions_keep_history();
--> statement-breakpoint
CREATE TRIGGER feedback_submissions_no_truncate BEFORE TRUNCATE ON feedback_submissions
  FOR EACH STATEMENT EXECUTE FUNCTION feedback_events_append_only();
