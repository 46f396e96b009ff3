-- A document type in the list's default order, newest first. A combination by created walks the
-- ordered index of its rarest single value (lib/executions/walk.ts `planWalk`); a document type is
-- often the rarest (VISA: 0.2% of executions), and without this index VISA + REJECTED + a country
-- went to the GIN index, which intersects three posting lists that grow with the table (3.48 ms at
-- 1,000,000, 16.62 ms at 10,000,000 in `npm run bench:growth`). A document type alone is then a
-- lead like a country (lib/executions/where.ts).
CREATE INDEX IF NOT EXISTS "executions_doctype_created_idx" ON "executions" USING btree ("document_type","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
