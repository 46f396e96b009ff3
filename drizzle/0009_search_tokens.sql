CREATE TABLE "rate_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "search_tokens" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "executions_search_tokens_idx" ON "executions" USING gin ("search_tokens");--> statement-breakpoint
-- Rows cached before whole-value search: their tokens from the same normalisation as
-- lib/pii/search-tokens.ts, and a search_text of references only (personal data leaves it).
CREATE FUNCTION pg_temp.verdict_token(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT regexp_replace(lower(regexp_replace(normalize(v, NFD), '[\u0300-\u036f]', '', 'g')), '[\s\-\u2010\u2011''\u2019.,/_]', '', 'g')
$$;--> statement-breakpoint
UPDATE "executions" e SET
  "search_tokens" = coalesce((
    SELECT array_agg(DISTINCT t ORDER BY t) FROM (
      SELECT pg_temp.verdict_token(w) AS t FROM regexp_split_to_table(coalesce(e.first_name, '') || ' ' || coalesce(e.last_name, ''), '\s+') AS w
      UNION ALL
      SELECT pg_temp.verdict_token(p) FROM regexp_split_to_table(coalesce(e.first_name, '') || ' ' || coalesce(e.last_name, ''), '[\s\-\u2010\u2011]+') AS p
      UNION ALL
      SELECT pg_temp.verdict_token(e.document_number)
    ) x WHERE t IS NOT NULL AND t <> ''
  ), '{}'),
  "search_text" = nullif(trim(concat_ws(' ', lower(e.user_reference), lower(e.customer_internal_reference), lower(e.reporting_criteria))), '')
WHERE e.first_name IS NOT NULL OR e.last_name IS NOT NULL OR e.document_number IS NOT NULL;
