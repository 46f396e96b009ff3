import { integer, pgTable, smallint, text, unique, uuid } from 'drizzle-orm/pg-core';

/**
 * The queues page's all-time figures, kept as the cases change (lib/cases/resolved-figures.ts). Counting
 * and sorting every resolved case on each visit grew with the history: 280 ms at 10,000,000
 * executions with 500,000 resolved cases, where the target is 100 ms. These two small tables
 * hold the same figures by queue and person, so the page reads a few hundred rows whatever the
 * history.
 *
 * Statement triggers on `cases` keep them (drizzle/0031_case_figures.sql): a case that becomes
 * resolved adds one, one that leaves `resolved` (reopened, deleted) takes its one away, an edit of
 * a resolved case does both, summed over the statement's rows so that a statement of many cases
 * writes each figure once; TRUNCATE empties them. Being written in the same transaction as
 * the case, they agree with the list in every snapshot. Null keys (a case resolved before its
 * resolver was deleted) are a key like any other (NULLS NOT DISTINCT).
 */

/** Resolved cases by queue, resolver, outcome and the service's decision when it was given. */
export const caseOutcomeCounts = pgTable(
  'case_outcome_counts',
  {
    queueId: uuid('queue_id'),
    resolvedBy: uuid('resolved_by'),
    outcome: text('outcome'),
    decisionAtOutcome: text('decision_at_outcome'),
    n: integer('n').notNull(),
  },
  (t) => [
    unique('case_outcome_counts_key').on(t.queueId, t.resolvedBy, t.outcome, t.decisionAtOutcome).nullsNotDistinct(),
  ],
);

/**
 * Resolution times (arrival in the queue to resolution) by queue and resolver, in buckets 5 % wide
 * (`bucket` b holds [1.05^b, 1.05^(b+1)) seconds, case_resolution_bucket()): a percentile read from
 * them is within 2.5 % of the exact one, and a year of times fits in about 300 buckets.
 */
export const caseResolutionTimes = pgTable(
  'case_resolution_times',
  {
    queueId: uuid('queue_id'),
    resolvedBy: uuid('resolved_by'),
    bucket: smallint('bucket').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [unique('case_resolution_times_key').on(t.queueId, t.resolvedBy, t.bucket).nullsNotDistinct()],
);

/** Both tables, for a reset that bypasses the triggers (session_replication_role = replica). */
export const CASE_FIGURE_TABLES = 'case_outcome_counts, case_resolution_times';
