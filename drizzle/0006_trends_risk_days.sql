-- Day summaries of the risk histogram (count, sum, p90 of the scores 0..100) for the trends
-- page's day buckets: one row a day instead of up to 101. INCLUDE keeps the reads index-only
-- (drizzle cannot express it). Filled from the existing histogram rows, as lib/sync/rollup.ts does.
CREATE TABLE "trend_risk_days" (
	"scope" smallint NOT NULL,
	"definition_key" text NOT NULL,
	"issuing_country" text NOT NULL,
	"document_type" text NOT NULL,
	"day" date NOT NULL,
	"n" integer NOT NULL,
	"sum" bigint NOT NULL,
	"p90" integer NOT NULL,
	CONSTRAINT "trend_risk_days_pk" PRIMARY KEY("scope","definition_key","issuing_country","document_type","day") INCLUDE ("n", "sum", "p90")
);
--> statement-breakpoint
ALTER TABLE "trend_risk_days" SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);
--> statement-breakpoint
INSERT INTO "trend_risk_days" ("scope", "definition_key", "issuing_country", "document_type", "day", "n", "sum", "p90")
SELECT scope, definition_key, issuing_country, document_type, day, sum(n)::int, sum(risk_score::bigint * n),
  min(risk_score) FILTER (WHERE cum >= ceil(0.9::float8 * total::float8))
FROM (
  SELECT scope, definition_key, issuing_country, document_type, day, risk_score, n,
    sum(n) OVER (PARTITION BY scope, definition_key, issuing_country, document_type, day ORDER BY risk_score ROWS UNBOUNDED PRECEDING) AS cum,
    sum(n) OVER (PARTITION BY scope, definition_key, issuing_country, document_type, day) AS total
  FROM "trend_risk" WHERE scope < 8 AND risk_score >= 0 AND n > 0
) h
GROUP BY 1, 2, 3, 4, 5;
