-- Indexes that hold at 10,000,000 executions (`npm run bench:growth`).
--
-- One GIN index for the list's equality facets, capability tags and search tokens, instead of one
-- each (lib/executions/where.ts). A GIN scan intersects all of a query's conditions inside the
-- index and skips through the posting lists of frequent values (a decision, a common label) to
-- the entries of the rare one (a surname, a label); three separate indexes are ANDed as bitmaps,
-- each read whole. Measured with `npm run bench:growth`: a surname with a decision at 1,000,000
-- executions, 765 ms walking the decision's ordered index and 50 ms with two bitmaps, 1.3 ms here.
CREATE INDEX IF NOT EXISTS "executions_filters_idx" ON "executions" USING gin ("facets","capability_tags","search_tokens");--> statement-breakpoint
DROP INDEX IF EXISTS "executions_facets_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "executions_search_tokens_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "executions_capability_tags_idx";--> statement-breakpoint
-- Feedback not yet delivered, in the list's order: at 10,000,000 executions the former partial
-- index held every delivered label too, and the list sorted all open ones for a page (69 ms p95).
CREATE INDEX IF NOT EXISTS "executions_delivery_open_idx" ON "executions" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "executions"."feedback_delivery" in ('pending', 'failed', 'awaiting_approval');--> statement-breakpoint
DROP INDEX IF EXISTS "executions_delivery_idx";
