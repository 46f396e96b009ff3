-- Custom SQL migration (drizzle-kit generate --custom): extended statistics for the list's totals.
-- The decision and the risk score are strongly correlated (a rejection has a high score); without
-- these the planner multiplies their selectivities and estimates "REJECTED and risk >= 71" at a
-- tenth of the truth, so the list's "about N" was wrong tenfold and its cheap-count check tried
-- (and timed out on) counts that are not cheap. Same for the status and the decision.
CREATE STATISTICS IF NOT EXISTS "executions_decision_risk_stats" (dependencies, mcv) ON "decision_type", "risk_score" FROM "executions";
--> statement-breakpoint
-- Room for every (decision, score) pair: 4 decisions x 102 scores. At 1M rows "WARNING, risk
-- 40-70, USA" is then estimated at 31,368 for 32,927 (100 entries: 8,893; none: 1,744).
ALTER STATISTICS "executions_decision_risk_stats" SET STATISTICS 1000;
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "executions_status_decision_stats" (dependencies, mcv) ON "status", "decision_type" FROM "executions";
--> statement-breakpoint
ANALYZE "executions";
