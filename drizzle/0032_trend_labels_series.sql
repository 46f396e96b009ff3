-- The labels' rows of the trends rollup in series order: per cube slice, each (capability,
-- decision, label) with its days in order, carrying the count. The page's label series and its
-- spike alerts read a year of these rows by label (lib/trends/series.ts `labelDays`); in the
-- primary key's day order that read sorted 23,000 rows first. Measured on the 10,000,000-execution
-- rollup of `npm run bench:growth`: 45 ms with the sort, 11 ms reading this index (EXPLAIN ANALYZE).
-- Drizzle cannot express INCLUDE, hence written by hand (lib/db/schema/trends.ts names it).
CREATE INDEX IF NOT EXISTS "trend_labels_series_idx" ON "trend_labels" USING btree ("scope", "definition_key", "issuing_country", "document_type", "capability", "decision_type", "label", "day") INCLUDE ("n");
