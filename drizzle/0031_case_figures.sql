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
-- The triggers are per statement, over its transition tables: a statement that resolves, moves or
-- deletes many cases at once changes each figure row once. Per row, every case upserted the same
-- few figure rows again, and each update of one row inside a transaction leaves a version the next
-- must step over: seeding 450,000 resolved cases in one statement ran for over 18 minutes before it
-- was cut off (`npm run bench:growth`, 2026-11-27).
CREATE OR REPLACE FUNCTION case_figures_on_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text;
BEGIN
  -- Claims, notes and escalations of open cases end here, after a look at the statement's rows.
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows WHERE state = 'resolved') THEN RETURN NULL; END IF;
    changes := 'SELECT n.*, 1 AS d FROM new_rows n WHERE n.state = ''resolved''';
  ELSIF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM old_rows WHERE state = 'resolved') THEN RETURN NULL; END IF;
    changes := 'SELECT o.*, -1 AS d FROM old_rows o WHERE o.state = ''resolved''';
  ELSE
    IF NOT EXISTS (SELECT 1 FROM new_rows WHERE state = 'resolved')
      AND NOT EXISTS (SELECT 1 FROM old_rows WHERE state = 'resolved') THEN RETURN NULL; END IF;
    changes := 'SELECT n.*, 1 AS d FROM new_rows n WHERE n.state = ''resolved''
      UNION ALL SELECT o.*, -1 AS d FROM old_rows o WHERE o.state = ''resolved''';
  END IF;
  -- An edit that leaves a case's figures as they were adds and takes away the same one: its sum is
  -- 0 and nothing is written. Figure rows are taken in key order, so two statements changing
  -- several of the same rows wait for each other instead of deadlocking.
  EXECUTE format($q$
    WITH c AS (%s),
    counted AS (
      INSERT INTO case_outcome_counts AS f (queue_id, resolved_by, outcome, decision_at_outcome, n)
      SELECT queue_id, resolved_by, outcome, decision_at_outcome, sum(d) FROM c
      GROUP BY 1, 2, 3, 4 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT ON CONSTRAINT case_outcome_counts_key DO UPDATE SET n = f.n + excluded.n
    )
    -- A time counts when there is one, as percentile_cont() skipped a null.
    INSERT INTO case_resolution_times AS f (queue_id, resolved_by, bucket, n)
    SELECT queue_id, resolved_by, case_resolution_bucket(arrived_at, resolved_at), sum(d) FROM c
    WHERE resolved_at IS NOT NULL
    GROUP BY 1, 2, 3 HAVING sum(d) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT ON CONSTRAINT case_resolution_times_key DO UPDATE SET n = f.n + excluded.n
  $q$, changes);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION case_figures_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE case_outcome_counts, case_resolution_times;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER IF EXISTS cases_figures_insert ON cases;--> statement-breakpoint
CREATE TRIGGER cases_figures_insert AFTER INSERT ON cases REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_figures_on_change();--> statement-breakpoint
DROP TRIGGER IF EXISTS cases_figures_update ON cases;--> statement-breakpoint
CREATE TRIGGER cases_figures_update AFTER UPDATE ON cases REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_figures_on_change();--> statement-breakpoint
DROP TRIGGER IF EXISTS cases_figures_delete ON cases;--> statement-breakpoint
CREATE TRIGGER cases_figures_delete AFTER DELETE ON cases REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION case_figures_on_change();--> statement-breakpoint
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
