import { bigint, index, integer, pgTable, primaryKey, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { executions, ownerExecutionId } from './executions';
import { createdAt, serialPrimaryKey, updatedAt } from './columns';

/**
 * The link graph behind fraud rings (lib/rings/README.md). Values are never stored: each attribute
 * an execution shares (document, face, device, IP, e-mail, phone, address) is a keyed hash (HMAC
 * under LINK_KEY_SECRET, which lives outside the database), so a copy of these tables cannot be
 * searched for a known e-mail or phone number.
 */
export const linkKeys = pgTable(
  'link_keys',
  {
    executionId: ownerExecutionId(),
    kind: text('kind').notNull(),
    /** HMAC-SHA256 of the normalised value, base64url. */
    keyHash: text('key_hash').notNull(),
    /** Where the value came from (e.g. `deviceRiskVerification.deviceIdAlias`): the link's evidence, never the value. */
    evidence: text('evidence').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.executionId, t.kind, t.keyHash] }),
    index('link_keys_key_idx').on(t.kind, t.keyHash),
  ],
);

/** How many executions share each hashed value; past the cut-off a value is a weak link (shown, not joined). */
export const linkValues = pgTable(
  'link_values',
  {
    kind: text('kind').notNull(),
    keyHash: text('key_hash').notNull(),
    executions: integer('executions').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.keyHash] })],
);

/** One row per connected component of two or more executions over the strong links. */
export const rings = pgTable(
  'rings',
  {
    id: serialPrimaryKey(),
    size: integer('size').notNull(),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
    rejected: integer('rejected').notNull().default(0),
    fraud: integer('fraud').notNull().default(0),
    /** Link kinds that join its members, sorted. */
    linkKinds: text('link_kinds').array().notNull().default([]),
    score: real('score').notNull().default(0),
    /** open | dismissed | labelled */
    status: text('status').notNull().default('open'),
    /** The size when dismissed: the ring shows again once it grows past it. */
    dismissedSize: integer('dismissed_size'),
    dismissedReason: text('dismissed_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** When `ring.detected` was emitted (once per ring). */
    announcedAt: timestamp('announced_at', { withTimezone: true }),
  },
  (t) => [index('rings_score_idx').on(t.score, t.id), index('rings_last_seen_idx').on(t.lastSeen)],
);

export const ringMembers = pgTable(
  'ring_members',
  {
    executionId: uuid('execution_id')
      .primaryKey()
      .references(() => executions.id, { onDelete: 'cascade' }),
    ringId: bigint('ring_id', { mode: 'number' })
      .notNull()
      .references(() => rings.id, { onDelete: 'cascade' }),
    /** The execution's creation time, kept here so growth over 24 h and 7 days is an index range. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('ring_members_ring_idx').on(t.ringId, t.createdAt)],
);
