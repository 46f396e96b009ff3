ALTER TABLE "cases" ADD COLUMN "decision_at_outcome" text;--> statement-breakpoint
-- Cases resolved before this column existed: the decision as cached now is the best record left.
UPDATE "cases" c SET "decision_at_outcome" = e."decision_type" FROM "executions" e
  WHERE e."id" = c."execution_id" AND c."state" = 'resolved';
