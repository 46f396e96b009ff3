CREATE INDEX "audit_log_unsealed_idx" ON "audit_log" USING btree ("id") WHERE "audit_log"."seq" is null;--> statement-breakpoint
-- Sealing (lib/evidence/README.md): an insert writes the content only and takes no lock; the
-- sealer (lib/evidence/seal.ts) chains committed rows a second or so later, one batch per
-- statement under the head's row lock. The head-lock trigger, which made every writer wait for
-- the previous writer's commit, goes. Rows it chained keep their positions and hashes as they are.
DROP TRIGGER "audit_log_chain" ON "audit_log";--> statement-breakpoint
DROP FUNCTION audit_log_chain();--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "seq" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "prev_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "hash" DROP NOT NULL;--> statement-breakpoint
-- Only the sealer places an entry: what an insert supplies for the chain columns is cleared. The
-- WHEN clause keeps the ordinary insert (which supplies none) from calling the function at all.
CREATE FUNCTION audit_log_unsealed_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.seq := NULL;
  NEW.prev_hash := NULL;
  NEW.hash := NULL;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_unsealed" BEFORE INSERT ON "audit_log" FOR EACH ROW
  WHEN (NEW.seq IS NOT NULL OR NEW.prev_hash IS NOT NULL OR NEW.hash IS NOT NULL)
  EXECUTE FUNCTION audit_log_unsealed_insert();--> statement-breakpoint
-- Still append-only, with one exception: sealing, which sets the three chain columns once, from
-- NULL, and leaves every other column (present or future) as it was. Deletes stay refused.
CREATE FUNCTION audit_log_seal_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND OLD.seq IS NULL AND OLD.prev_hash IS NULL AND OLD.hash IS NULL
    AND NEW.seq IS NOT NULL AND NEW.prev_hash IS NOT NULL AND NEW.hash IS NOT NULL
    AND to_jsonb(NEW) - ARRAY['seq', 'prev_hash', 'hash'] = to_jsonb(OLD) - ARRAY['seq', 'prev_hash', 'hash']
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: an entry is sealed once and never changed';
END;
$$;--> statement-breakpoint
DROP TRIGGER "audit_log_no_update" ON "audit_log";--> statement-breakpoint
CREATE TRIGGER "audit_log_no_update" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION audit_log_seal_only();--> statement-breakpoint
-- One link from a given start: the first row's state is the start (the chain's head), so a
-- window over a batch chains it onto the existing chain in one statement.
CREATE FUNCTION audit_chain_step_from(state bytea, start bytea, content_hash bytea) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
  SELECT sha256(coalesce(state, start) || content_hash)
$$;--> statement-breakpoint
CREATE AGGREGATE audit_chain_fold_from(bytea, bytea) (SFUNC = audit_chain_step_from, STYPE = bytea);
