-- The list by risk within a created range (one day's riskiest first): the walk down the risk index
-- tested each row's created time on its heap page, 7,110 rows for a page of one day in a year at
-- 10,000,000 executions, whose pages are rarely in memory there (6.28 ms at 1,000,000, 14.26 ms at
-- 10,000,000 in `npm run bench:growth`). With the created time in the index the page's ids
-- come from the index alone (lib/executions/where.ts `coveredBySortIndex`, lib/executions/list.ts)
-- and only the page's rows are read from the heap. The new index is built before the old one is
-- dropped: a build lets the list read meanwhile, and the drop's exclusive lock lasts a moment.
CREATE INDEX IF NOT EXISTS "executions_risk_created_idx" ON "executions" USING btree ("risk_score" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("created_at");--> statement-breakpoint
DROP INDEX IF EXISTS "executions_risk_idx";
