CREATE TABLE "audit_chain_head" (
	"id" integer PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "audit_checkpoints" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"key_id" text NOT NULL,
	"signature" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_verifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"ok" boolean NOT NULL,
	"source" text NOT NULL,
	"entries" bigint NOT NULL,
	"checkpoints" integer NOT NULL,
	"verified_seq" bigint,
	"verified_at" timestamp with time zone,
	"failure" jsonb
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text;--> statement-breakpoint
CREATE INDEX "audit_checkpoints_seq_idx" ON "audit_checkpoints" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "audit_verifications_finished_idx" ON "audit_verifications" USING btree ("finished_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_seq_key" ON "audit_log" USING btree ("seq");--> statement-breakpoint
-- Tamper evidence (lib/evidence/README.md). One field of the canonical content: NULL is "|~",
-- a value is "|<UTF-8 byte length>:<value>", so no value can pass for two fields.
CREATE FUNCTION audit_field(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN v IS NULL THEN '|~' ELSE '|' || octet_length(v) || ':' || v END
$$;--> statement-breakpoint
-- The canonical content of an entry, version 1. lib/evidence/chain.ts builds the same string from
-- the same texts; the verifier never relies on this function (it could be replaced by whoever
-- edits the table), it only re-reads the stored values.
CREATE FUNCTION audit_canonical(
  seq bigint, at timestamptz, actor_id uuid, actor_email text, action text, target_type text,
  target_id text, outcome audit_outcome, ip text, details jsonb
) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT 'v1' || audit_field(seq::text)
    || audit_field(to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
    || audit_field(actor_id::text) || audit_field(actor_email) || audit_field(action)
    || audit_field(target_type) || audit_field(target_id) || audit_field(outcome::text)
    || audit_field(ip) || audit_field(details::text)
$$;--> statement-breakpoint
-- One link: SHA-256(previous hash || SHA-256(content)). As an aggregate it folds a whole ordered
-- set in one statement (the backfill below, the benchmark's seeding).
CREATE FUNCTION audit_chain_step(state bytea, content_hash bytea) RETURNS bytea LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT sha256(state || content_hash)
$$;--> statement-breakpoint
CREATE AGGREGATE audit_chain_fold(bytea) (SFUNC = audit_chain_step, STYPE = bytea, INITCOND = '\x0000000000000000000000000000000000000000000000000000000000000000');--> statement-breakpoint
-- Existing entries are chained in id order.
ALTER TABLE "audit_log" DISABLE TRIGGER audit_log_no_update;--> statement-breakpoint
WITH numbered AS (
  SELECT a.*, row_number() OVER (ORDER BY a.id) AS n FROM "audit_log" a
), hashed AS (
  SELECT id, n, audit_chain_fold(sha256(convert_to(audit_canonical(n, at, actor_id, actor_email, action, target_type, target_id, outcome, ip, details), 'UTF8')))
    OVER (ORDER BY n ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS h
  FROM numbered
), linked AS (
  SELECT id, n, h, lag(h, 1, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea) OVER (ORDER BY n) AS p FROM hashed
)
UPDATE "audit_log" a SET seq = l.n, prev_hash = encode(l.p, 'hex'), hash = encode(l.h, 'hex')
FROM linked l WHERE a.id = l.id;--> statement-breakpoint
ALTER TABLE "audit_log" ENABLE TRIGGER audit_log_no_update;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "prev_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_chain_head" ADD CONSTRAINT "audit_chain_head_one_row" CHECK (id = 1);--> statement-breakpoint
INSERT INTO "audit_chain_head" (id, seq, hash, at)
SELECT 1, coalesce(last.seq, 0), coalesce(last.hash, '0000000000000000000000000000000000000000000000000000000000000000'), last.at
FROM (SELECT 1) one LEFT JOIN (SELECT seq, hash, at FROM "audit_log" ORDER BY seq DESC LIMIT 1) last ON true;--> statement-breakpoint
-- Every insert takes the next place under the head's row lock, held to the end of its
-- transaction: writers in any number of processes append one after another, never from the
-- same head. Values the insert supplies for seq, prev_hash and hash are overwritten.
CREATE FUNCTION audit_log_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head_seq bigint;
  head_hash text;
BEGIN
  SELECT seq, hash INTO head_seq, head_hash FROM audit_chain_head WHERE id = 1 FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'audit_chain_head is missing';
  END IF;
  NEW.seq := head_seq + 1;
  NEW.prev_hash := head_hash;
  NEW.hash := encode(audit_chain_step(decode(head_hash, 'hex'), sha256(convert_to(audit_canonical(
    NEW.seq, NEW.at, NEW.actor_id, NEW.actor_email, NEW.action, NEW.target_type, NEW.target_id,
    NEW.outcome, NEW.ip, NEW.details), 'UTF8'))), 'hex');
  UPDATE audit_chain_head SET seq = NEW.seq, hash = NEW.hash, at = NEW.at WHERE id = 1;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER audit_log_chain BEFORE INSERT ON "audit_log" FOR EACH ROW EXECUTE FUNCTION audit_log_chain();--> statement-breakpoint
-- Checkpoints and verification results are evidence too: never changed once written.
CREATE FUNCTION audit_evidence_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER audit_checkpoints_no_update BEFORE UPDATE OR DELETE ON "audit_checkpoints"
  FOR EACH ROW EXECUTE FUNCTION audit_evidence_append_only();--> statement-breakpoint
CREATE TRIGGER audit_verifications_no_update BEFORE UPDATE OR DELETE ON "audit_verifications"
  FOR EACH ROW EXECUTE FUNCTION audit_evidence_append_only();
