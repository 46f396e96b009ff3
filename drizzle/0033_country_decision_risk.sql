-- A decision and a country, riskiest first (the list's decision and country filters with the
-- risk sort, the review queue of one market). The walk down (decision, risk) tested every row's
-- country on its heap page: at 10,000,000 executions, where a country's warnings sit low in the
-- risk range, it read 20,000 rows without a match and the planner's own plan then read 40,000 more
-- (WARNING + risk 40-70 + Japan: 413 ms, REJECTED + risk 71+ + Japan: 517 ms in
-- `npm run bench:growth`). This index holds just the country's rows of the decision, in risk order
-- (lib/executions/where.ts walks it).
CREATE INDEX IF NOT EXISTS "executions_country_decision_risk_idx" ON "executions" USING btree ("issuing_country", "decision_type", "risk_score" DESC NULLS LAST, "id" DESC NULLS LAST);
