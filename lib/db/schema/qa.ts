import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { QA_STATES, type QaOutcome, type QaState } from '@/lib/db/qa-states';
import { actorUserId, users } from './auth';
import { caseQueues, cases } from './cases';
import { ownerExecutionId } from './executions';
import { createdAt, uuidPrimaryKey } from './columns';

export { QA_STATES, type QaState };

/** One sampling of one week (the job's progress on the quality page; a rerun resumes it). */
export const qaSampleRuns = pgTable(
  'qa_sample_runs',
  {
    id: uuidPrimaryKey(),
    /** Monday (UTC) of the week whose resolved cases are sampled. */
    week: date('week').notNull(),
    state: text('state').$type<'queued' | 'running' | 'completed' | 'failed'>().notNull().default('queued'),
    /** People whose resolved cases are sampled; `done` of them so far. */
    total: integer('total'),
    done: integer('done').notNull().default(0),
    sampled: integer('sampled').notNull().default(0),
    /** The rate it ran with, as recorded when it started. */
    settings: jsonb('settings').$type<{ ratePercent: number; minPerAnalyst: number }>(),
    trigger: text('trigger').$type<'manual' | 'schedule'>().notNull().default('manual'),
    startedBy: actorUserId('started_by'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [index('qa_sample_runs_created_idx').on(t.createdAt)],
);

/**
 * A sampled case's blind re-review (lib/qa/README.md). The first resolution is copied here when
 * the case is sampled, so a later reopen of the case cannot change what was reviewed; a case is
 * sampled at most once (`qa_reviews_case_key`).
 */
export const qaReviews = pgTable(
  'qa_reviews',
  {
    id: uuidPrimaryKey(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    executionId: ownerExecutionId(),
    /** The queue the case was resolved in, for agreement per queue. */
    queueId: uuid('queue_id').references(() => caseQueues.id, { onDelete: 'set null' }),
    week: date('week').notNull(),
    runId: uuid('run_id').references(() => qaSampleRuns.id, { onDelete: 'set null' }),
    firstAnalystId: uuid('first_analyst_id')
      .notNull()
      .references(() => users.id),
    firstOutcome: text('first_outcome').$type<QaOutcome>().notNull(),
    firstReason: text('first_reason').notNull(),
    firstComment: text('first_comment'),
    firstResolvedAt: timestamp('first_resolved_at', { withTimezone: true }).notNull(),
    state: text('state').$type<QaState>().notNull().default('open'),
    assigneeId: actorUserId('assignee_id'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    reviewerId: uuid('reviewer_id').references(() => users.id),
    reviewOutcome: text('review_outcome').$type<QaOutcome>(),
    reviewReason: text('review_reason'),
    reviewComment: text('review_comment'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    settledBy: uuid('settled_by').references(() => users.id),
    settledOutcome: text('settled_outcome').$type<QaOutcome>(),
    settledReason: text('settled_reason'),
    settledComment: text('settled_comment'),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    sampledAt: timestamp('sampled_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('qa_reviews_case_key').on(t.caseId),
    index('qa_reviews_execution_idx').on(t.executionId),
    // "Next QA review": the oldest waiting one.
    index('qa_reviews_open_idx')
      .on(t.sampledAt, t.id)
      .where(sql`${t.state} = 'open'`),
    index('qa_reviews_claimed_idx')
      .on(t.claimedAt)
      .where(sql`${t.state} = 'in_review'`),
    index('qa_reviews_week_analyst_idx').on(t.week, t.firstAnalystId),
    check('qa_reviews_claim_check', sql`(${t.state} = 'in_review') = (${t.assigneeId} is not null)`),
    // The rule the actions enforce, held by the database too: nobody re-reviews their own case.
    check('qa_reviews_second_pair_check', sql`${t.reviewerId} is null or ${t.reviewerId} <> ${t.firstAnalystId}`),
    check('qa_reviews_assignee_check', sql`${t.assigneeId} is null or ${t.assigneeId} <> ${t.firstAnalystId}`),
    check(
      'qa_reviews_decided_check',
      sql`(${t.state} in ('agreed', 'disputed', 'settled')) = (${t.reviewOutcome} is not null)`,
    ),
    check('qa_reviews_settled_check', sql`(${t.state} = 'settled') = (${t.settledOutcome} is not null)`),
  ],
);
