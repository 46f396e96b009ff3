import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { ownerUserId } from './auth';
import { ownerExecutionId } from './executions';
import { createdAt, serialPrimaryKey } from './columns';

/**
 * An analyst's time-limited permission to see one execution's personal data unmasked, with the
 * reason they gave. Rows are never updated: a new reveal is a new row, so the table is also the
 * history of who looked at what and why (the audit log has the same facts as `pii.reveal`).
 */
export const piiReveals = pgTable(
  'pii_reveals',
  {
    id: serialPrimaryKey(),
    userId: ownerUserId('user_id'),
    executionId: ownerExecutionId(),
    reason: text('reason').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('pii_reveals_user_execution_idx').on(t.userId, t.executionId, t.expiresAt.desc())],
);

/**
 * Free-text searches of the executions list, kept on the server so that a name typed into the
 * search box never appears in a URL (browser history, proxy logs, shared links). The URL carries
 * only the short random token; any analyst who opens a shared link sees the same results.
 */
export const searchTerms = pgTable(
  'search_terms',
  {
    token: text('token').primaryKey(),
    term: text('term').notNull(),
    /** sha256 of the normalised term: the same user searching the same thing reuses one token. */
    termHash: text('term_hash').notNull(),
    createdBy: ownerUserId('created_by'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('search_terms_user_hash_key').on(t.createdBy, t.termHash),
    index('search_terms_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Fixed-window counters shared by every console process (a user's searches per minute): one
 * upsert increments and returns the count, so the limit holds across instances.
 */
export const rateCounters = pgTable('rate_counters', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});
