-- The queues page's all-time figures, kept as the cases change (lib/db/schema/case-figures.ts,
-- lib/cases/resolved-figures.ts). Reading them from every resolved case grew with the history: 280 ms at
-- 10,000,000 executions with 500,000 resolved cases (`npm run bench:growth`).
CREATE TABLE IF NOT EXISTS "case_outcome_counts" (
	"queue_id" uuid,
	"resolved_by" uuid,
	"outcome" text,
	"decision_at_outcome" text,
	"n" integer NOT NULL,
	CONSTRAINT "case_outcome_counts_key" UNIQUE NULLS NOT DISTINCT("queue_id","resolved_by","outcome","decision_at_outcome")
);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "case_resolution_times" (
	"queue_id" uuid,
	"resolved_by" uuid,
	"bucket" smallint NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "case_resolution_times_key" UNIQUE NULLS NOT DISTINCT("queue_id","resolved_by","bucket")
);--> statement-breakpoint
-- Bucket b holds resolution times in [1.05^b, 1.05^(b+1)) seconds; under a second is bucket 0.
-- lib/cases/resolved-figures.ts reads a bucket back as its geometric middle.
CREATE OR REPLACE FUNCTION case_resolution_bucket(arrived timestamptz, resolved timestamptz) RETURNS smallint
LANGUAGE sql IMMUTABLE AS $$
  SELECT floor(ln(greatest(extract(epoch FROM resolved - arrived), 1)) / ln(1.05))::smallint
$$;--> statement-breakpoint
-- Adds (d = 1) or takes away (d = -1) one resolved case.
CREATE OR REPLACE FUNCTION case_figures_add(c cases, d integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO case_outcome_counts AS f (queue_id, resolved_by, outcome, decision_at_outcome, n)
  VALUES (c.queue_id, c.resolved_by, c.outcome, c.decision_at_outcome, d)
  ON CONFLICT ON CONSTRAINT case_outcome_counts_key DO UPDATE SET n = f.n + excluded.n;
  -- A time counts when there is one, as percentile_cont() skipped a null.
  IF c.resolved_at IS NOT NULL THEN
    INSERT INTO case_resolution_times AS f (queue_id, resolved_by, bucket, n)
    VALUES (c.queue_id, c.resolved_by, case_resolution_bucket(c.arrived_at, c.resolved_at), d)
    ON CONFLICT ON CONSTRAINT case_resolution_times_key DO UPDATE SET n = f.n + excluded.n;
  END IF;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION case_figures_on_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.state = 'resolved' THEN PERFORM case_figures_add(OLD, -1); END IF;
  IF TG_OP <> 'DELETE' AND NEW.state = 'resolved' THEN PERFORM case_figures_add(NEW, 1); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION case_figures_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE case_outcome_counts, case_resolution_times;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Only the changes that touch a resolved case fire: claims and escalations of open cases do not.
DROP TRIGGER IF EXISTS cases_figures_insert ON cases;--> statement-breakpoint
CREATE TRIGGER cases_figures_insert AFTER INSERT ON cases FOR EACH ROW
  WHEN (NEW.state = 'resolved') EXECUTE FUNCTION case_figures_on_change();--> statement-breakpoint
DROP TRIGGER IF EXISTS cases_figures_update ON cases;--> statement-breakpoint
CREATE TRIGGER cases_figures_update AFTER UPDATE ON cases FOR EACH ROW
  WHEN ((OLD.state = 'resolved' OR NEW.state = 'resolved')
    AND (OLD.state, OLD.queue_id, OLD.resolved_by, OLD.outcome, OLD.decision_at_outcome, OLD.arrived_at, OLD.resolved_at)
      IS DISTINCT FROM (NEW.state, NEW.queue_id, NEW.resolved_by, NEW.outcome, NEW.decision_at_outcome, NEW.arrived_at, NEW.resolved_at))
  EXECUTE FUNCTION case_figures_on_change();--> statement-breakpoint
DROP TRIGGER IF EXISTS cases_figures_delete ON cases;--> statement-breakpoint
CREATE TRIGGER cases_figures_delete AFTER DELETE ON cases FOR EACH ROW
  WHEN (OLD.state = 'resolved') EXECUTE FUNCTION case_figures_on_change();--> statement-breakpoint
-- A TRUNCATE of executions cascades here without row triggers.
DROP TRIGGER IF EXISTS cases_figures_truncate ON cases;--> statement-breakpoint
CREATE TRIGGER cases_figures_truncate AFTER TRUNCATE ON cases FOR EACH STATEMENT
  EXECUTE FUNCTION case_figures_on_truncate();--> statement-breakpoint
-- The cases resolved so far.
DELETE FROM case_outcome_counts;--> statement-breakpoint
DELETE FROM case_resolution_times;--> statement-breakpoint
INSERT INTO case_outcome_counts (queue_id, resolved_by, outcome, decision_at_outcome, n)
SELECT queue_id, resolved_by, outcome, decision_at_outcome, count(*) FROM cases WHERE state = 'resolved'
GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO case_resolution_times (queue_id, resolved_by, bucket, n)
SELECT queue_id, resolved_by, case_resolution_bucket(arrived_at, resolved_at), count(*) FROM cases
WHERE state = 'resolved' AND resolved_at IS NOT NULL GROUP BY 1, 2, 3;
