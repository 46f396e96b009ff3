-- The executions of each search token in the list's default order, newest first. The GIN index
-- finds a token's executions but not in any order: a common surname was gathered whole and sorted
-- for a page of 25 (Nakamura, 11,500 executions at 10,000,000: 41.65 ms in `npm run bench:growth`,
-- 7.54 ms at 1,000,000). Here the list walks one token's rows newest first and stops after a page
-- (lib/executions/list.ts). Kept by triggers from `executions.search_tokens`, so every writer
-- (sync, purge, retention, a script) keeps it in step; a purge that empties the tokens empties it.
CREATE TABLE IF NOT EXISTS "execution_search_postings" (
  "token" text NOT NULL,
  "created_at" timestamp with time zone NOT NULL,
  "execution_id" uuid NOT NULL
);--> statement-breakpoint
-- Inserts per statement: an ingest page or a COPY adds its postings in one INSERT.
CREATE OR REPLACE FUNCTION execution_search_postings_insert() RETURNS trigger AS $$
BEGIN
  INSERT INTO execution_search_postings (token, created_at, execution_id)
  SELECT u.t, n.created_at, n.id FROM executions_added n, LATERAL (SELECT DISTINCT t FROM unnest(n.search_tokens) t) u
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION execution_search_postings_delete() RETURNS trigger AS $$
BEGIN
  DELETE FROM execution_search_postings p
  USING executions_removed o, unnest(o.search_tokens) t
  WHERE p.token = t AND p.created_at = o.created_at AND p.execution_id = o.id;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Updates per row, and only when the tokens or the time change (a purge, a name corrected at the
-- service): the feedback and case updates that make up nearly all updates pay nothing.
CREATE OR REPLACE FUNCTION execution_search_postings_update() RETURNS trigger AS $$
BEGIN
  DELETE FROM execution_search_postings p
  WHERE p.token = ANY (OLD.search_tokens) AND p.created_at = OLD.created_at AND p.execution_id = OLD.id;
  INSERT INTO execution_search_postings (token, created_at, execution_id)
  SELECT DISTINCT t, NEW.created_at, NEW.id FROM unnest(NEW.search_tokens) t
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER IF EXISTS executions_search_postings_insert ON executions;--> statement-breakpoint
CREATE TRIGGER executions_search_postings_insert AFTER INSERT ON executions
  REFERENCING NEW TABLE AS executions_added
  FOR EACH STATEMENT EXECUTE FUNCTION execution_search_postings_insert();
--> statement-breakpoint
DROP TRIGGER IF EXISTS executions_search_postings_delete ON executions;--> statement-breakpoint
CREATE TRIGGER executions_search_postings_delete AFTER DELETE ON executions
  REFERENCING OLD TABLE AS executions_removed
  FOR EACH STATEMENT EXECUTE FUNCTION execution_search_postings_delete();
--> statement-breakpoint
DROP TRIGGER IF EXISTS executions_search_postings_update ON executions;--> statement-breakpoint
CREATE TRIGGER executions_search_postings_update AFTER UPDATE OF search_tokens, created_at ON executions
  FOR EACH ROW WHEN (OLD.search_tokens IS DISTINCT FROM NEW.search_tokens OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION execution_search_postings_update();
--> statement-breakpoint
-- The executions cached before this migration. The triggers above already hold writers back
-- (their lock lasts until the migration commits), so none is missed; the index is built after the
-- rows are in, which is several times faster than keeping it row by row.
INSERT INTO execution_search_postings (token, created_at, execution_id)
SELECT u.t, e.created_at, e.id FROM executions e, LATERAL (SELECT DISTINCT t FROM unnest(e.search_tokens) t) u;--> statement-breakpoint
-- A unique index, not a primary key: a key's columns cannot be ordered DESC NULLS LAST, and the
-- list reads in that order (and backwards, ASC NULLS FIRST) to walk it without sorting.
CREATE UNIQUE INDEX IF NOT EXISTS "execution_search_postings_idx" ON "execution_search_postings" USING btree ("token", "created_at" DESC NULLS LAST, "execution_id" DESC NULLS LAST);
