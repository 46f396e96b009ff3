CREATE TABLE "case_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"case_id" uuid NOT NULL,
	"execution_id" uuid NOT NULL,
	"change" text NOT NULL,
	"actor_id" uuid,
	"state" text,
	"queue_id" uuid,
	"outcome" text,
	"reason" text,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- A constant default first: adding the column then rewrites nothing, and the rows that exist
-- (changed before any feed position was handed out) sort first, by id.
ALTER TABLE "executions" ADD COLUMN "change_txid" "xid8" DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "executions" ALTER COLUMN "change_txid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
-- A constant default first: adding the column then rewrites nothing, and the rows that exist
-- (changed before any feed position was handed out) sort first, by id.
ALTER TABLE "feedback_submissions" ADD COLUMN "change_txid" "xid8" DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "feedback_submissions" ALTER COLUMN "change_txid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
CREATE INDEX "case_changes_feed_idx" ON "case_changes" USING btree ("txid","id");--> statement-breakpoint
CREATE INDEX "executions_change_idx" ON "executions" USING btree ("change_txid","id");--> statement-breakpoint
CREATE INDEX "feedback_submissions_change_idx" ON "feedback_submissions" USING btree ("change_txid","id");--> statement-breakpoint
-- The read API's execution and feedback feeds order rows by the transaction that last changed
-- them (lib/db/change-feed.ts). Whatever code path moves updated_at, this moves change_txid with
-- it; inserts take the column default.
CREATE OR REPLACE FUNCTION set_change_txid() RETURNS trigger AS $$
BEGIN
  NEW.change_txid := pg_current_xact_id();
  RETURN NEW;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER executions_change_txid BEFORE UPDATE ON executions
  FOR EACH ROW WHEN (NEW.updated_at IS DISTINCT FROM OLD.updated_at) EXECUTE FUNCTION set_change_txid();
--> statement-breakpoint
CREATE TRIGGER feedback_submissions_change_txid BEFORE UPDATE ON feedback_submissions
  FOR EACH ROW WHEN (NEW.updated_at IS DISTINCT FROM OLD.updated_at) EXECUTE FUNCTION set_change_txid();
--> statement-breakpoint
-- Every case event adds a change with the case as it stood after it; statement-level, so a
-- backfill that opens thousands of cases in one INSERT costs one more INSERT, not one per row.
-- The writing code updates the case before (or in the same statement as) its event, and an AFTER
-- trigger sees every change of its statement, data-modifying CTEs included.
CREATE OR REPLACE FUNCTION case_changes_from_events() RETURNS trigger AS $$
BEGIN
  INSERT INTO case_changes (case_id, execution_id, change, actor_id, state, queue_id, outcome, reason,
    resolved_at, resolved_by, at)
  SELECT e.case_id, e.execution_id, e.type, e.actor_id, c.state, c.queue_id, c.outcome, c.reason,
    c.resolved_at, c.resolved_by, e.at
  FROM case_events_added e JOIN cases c ON c.id = e.case_id
  ORDER BY e.id;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER case_events_to_changes AFTER INSERT ON case_events
  REFERENCING NEW TABLE AS case_events_added
  FOR EACH STATEMENT EXECUTE FUNCTION case_changes_from_events();
--> statement-breakpoint
-- A withdrawn case is deleted (its events go with it): the feed keeps a row saying so.
CREATE OR REPLACE FUNCTION case_changes_from_deletes() RETURNS trigger AS $$
BEGIN
  INSERT INTO case_changes (case_id, execution_id, change, state, queue_id)
  SELECT o.id, o.execution_id, 'withdrawn', NULL, o.queue_id FROM cases_removed o ORDER BY o.id;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER cases_deleted_to_changes AFTER DELETE ON cases
  REFERENCING OLD TABLE AS cases_removed
  FOR EACH STATEMENT EXECUTE FUNCTION case_changes_from_deletes();
--> statement-breakpoint
CREATE TRIGGER case_changes_no_update BEFORE UPDATE ON case_changes
  FOR EACH ROW EXECUTE FUNCTION case_history_append_only();
--> statement-breakpoint
-- Cases that exist already start the feed at their current state, with their last event's type and actor.
INSERT INTO case_changes (case_id, execution_id, change, actor_id, state, queue_id, outcome, reason, resolved_at,
  resolved_by, at)
SELECT c.id, c.execution_id, coalesce(e.type, 'created'), e.actor_id, c.state, c.queue_id, c.outcome, c.reason,
  c.resolved_at, c.resolved_by, coalesce(e.at, c.updated_at)
FROM cases c
LEFT JOIN LATERAL (SELECT type, actor_id, at FROM case_events WHERE case_id = c.id ORDER BY id DESC LIMIT 1) e ON true
ORDER BY c.updated_at, c.id;
