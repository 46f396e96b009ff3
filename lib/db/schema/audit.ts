import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { actorUserId } from './auth';
import { serialPrimaryKey } from './columns';

export const auditOutcomeEnum = pgEnum('audit_outcome', ['success', 'failure', 'denied']);

/**
 * Append-only audit trail: who did or read what, on which record, when, from where, with what
 * outcome. A trigger in the migrations refuses UPDATE and DELETE on this table.
 *
 * Tamper evidence: an insert writes the content only; the sealer (lib/evidence/seal.ts) gives
 * each committed row its place in one hash chain a second or so later: `seq`, the previous
 * entry's `hash` as `prev_hash`, and `hash` = SHA-256(prev_hash || SHA-256(canonical content)).
 * NULL in these three means "not yet sealed". A trigger clears whatever an insert supplies for
 * them, and the update trigger allows only that one NULL -> value sealing.
 * lib/evidence/chain.ts defines the canonical content; lib/evidence/verify.ts walks the chain.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serialPrimaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: actorUserId('actor_id'),
    /** The e-mail as typed or known at the time; kept even if the user is removed. */
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    outcome: auditOutcomeEnum('outcome').notNull().default('success'),
    ip: text('ip'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    /** Position in the chain (1, 2, ...), given by the sealer under the chain head's row lock. */
    seq: bigint('seq', { mode: 'number' }),
    /** Hex SHA-256 of the previous entry (64 zeros for the first). */
    prevHash: text('prev_hash'),
    /** Hex SHA-256(prev_hash || SHA-256(canonical content)). */
    hash: text('hash'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at.desc(), t.id.desc()),
    index('audit_log_actor_idx').on(t.actorId, t.at.desc()),
    index('audit_log_action_idx').on(t.action, t.at.desc()),
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.at.desc()),
    uniqueIndex('audit_log_seq_key').on(t.seq),
    // The sealer's work list: small, since rows leave it within seconds.
    index('audit_log_unsealed_idx')
      .on(t.id)
      .where(sql`${t.seq} is null`),
  ],
);

/**
 * The one row that holds the chain's last position and hash. Only the sealer writes it: it locks
 * the row (SELECT ... FOR UPDATE) for the length of one short sealing transaction, so sealers in
 * any number of processes take turns and can never fork the chain. Inserts never touch it.
 */
export const auditChainHead = pgTable('audit_chain_head', {
  id: integer('id').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
  at: timestamp('at', { withTimezone: true }),
});

/**
 * A signed statement "the chain had this hash at this position", made periodically by the worker
 * with a key kept outside the database (AUDIT_SIGNING_KEY or `.data/audit-signing-key`). Someone
 * who rewrites the table and recomputes every hash still cannot produce these signatures.
 */
export const auditCheckpoints = pgTable(
  'audit_checkpoints',
  {
    id: serialPrimaryKey(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
    /** First 16 hex characters of SHA-256 of the raw Ed25519 public key. */
    keyId: text('key_id').notNull(),
    /** Base64 Ed25519 signature of lib/evidence/signed-statements.ts#checkpointMessage. */
    signature: text('signature').notNull(),
  },
  (t) => [index('audit_checkpoints_seq_idx').on(t.seq)],
);

/** What the last verifications found: the audit page shows the newest. */
export const auditVerifications = pgTable(
  'audit_verifications',
  {
    id: serialPrimaryKey(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
    ok: boolean('ok').notNull(),
    /** 'job' (the worker's schedule) or 'cli' (`npm run audit -- verify`). */
    source: text('source').notNull(),
    entries: bigint('entries', { mode: 'number' }).notNull(),
    checkpoints: integer('checkpoints').notNull(),
    /** The last entry that verified (with everything before it in the walked range). */
    verifiedSeq: bigint('verified_seq', { mode: 'number' }),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** The first entry or checkpoint that does not match: { seq, id, reason }. */
    failure: jsonb('failure').$type<{ seq: number | null; id: number | null; checkpointId?: number; reason: string }>(),
  },
  (t) => [index('audit_verifications_finished_idx').on(t.finishedAt.desc())],
);
