import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { serialPrimaryKey } from './columns';

/**
 * What the sync could not do, one open row per execution (or per run), shown on the sync page
 * with its error and retried from there. A later success resolves it.
 */
export const syncFailures = pgTable(
  'sync_failures',
  {
    id: serialPrimaryKey(),
    /** `fetch` (one execution) or `run` (a backfill, reconcile or poll). */
    kind: text('kind').notNull(),
    executionId: uuid('execution_id'),
    accountId: uuid('account_id'),
    runId: bigint('run_id', { mode: 'number' }),
    error: text('error').notNull(),
    /** `retrying` while the queue still retries it, `failed` once it gave up. */
    state: text('state').notNull().default('failed'),
    attempts: integer('attempts').notNull().default(1),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull().defaultNow(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('sync_failures_open_execution_idx')
      .on(t.executionId)
      .where(sql`${t.resolvedAt} is null and ${t.executionId} is not null`),
    index('sync_failures_open_idx')
      .on(t.lastAt.desc())
      .where(sql`${t.resolvedAt} is null`),
  ],
);

/**
 * The last listing run that saw each execution at the service (R12). After a walk to the end,
 * cached executions that it did not see are checked one by one: deleted there, or still there.
 */
export const syncSeen = pgTable(
  'sync_seen',
  {
    executionId: uuid('execution_id').primaryKey(),
    runId: bigint('run_id', { mode: 'number' }).notNull(),
    listedAt: timestamp('listed_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sync_seen_run_idx').on(t.runId)],
);
