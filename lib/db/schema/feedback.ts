import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { executions, xid8 } from './executions';
import { serialPrimaryKey, updatedAt, uuidPrimaryKey } from './columns';

/**
 * Life of one feedback submission:
 *   awaiting_approval -> pending | rejected        (four-eyes: a manager decides)
 *   pending -> delivering -> delivered | pending (transient error, retried later) | failed (permanent 4xx)
 *   failed -> pending                              (retry button)
 *   awaiting_approval | pending | failed -> superseded (a newer submission for the same execution)
 */
export const FEEDBACK_STATES = [
  'awaiting_approval',
  'pending',
  'delivering',
  'delivered',
  'failed',
  'rejected',
  'superseded',
] as const;
export type FeedbackState = (typeof FEEDBACK_STATES)[number];

/** What the service answered when a delivery attempt failed (or the network error). */
export interface FeedbackDeliveryError {
  status?: number;
  title?: string;
  detail?: string;
  message: string;
  permanent: boolean;
}

/**
 * Every feedback an analyst (or a bulk action) submitted, stored before anything is sent to the
 * service. Rows are never deleted and their label, note and author never change (a trigger
 * enforces it); only the delivery columns move. Together with `feedback_events` this is the
 * execution's feedback history.
 */
export const feedbackSubmissions = pgTable(
  'feedback_submissions',
  {
    id: uuidPrimaryKey(),
    // No cascade: an execution with feedback history cannot silently disappear from the cache.
    executionId: uuid('execution_id')
      .notNull()
      .references(() => executions.id),
    accountId: uuid('account_id').notNull(),
    status: text('status').notNull(),
    reason: text('reason'),
    /** Internal note; stays in Verdict, never sent to the service. */
    note: text('note'),
    state: text('state').$type<FeedbackState>().notNull(),
    submittedBy: uuid('submitted_by')
      .notNull()
      .references(() => users.id),
    submittedByEmail: text('submitted_by_email').notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    /** Chosen by the form when it opens; a repeated request with the same key returns the first submission. */
    idempotencyKey: text('idempotency_key').notNull(),
    /** The latest submission the submitter saw ("none" = null): the optimistic-concurrency version. */
    baseSubmissionId: uuid('base_submission_id'),
    /** Set for submissions made together by a bulk action. */
    batchId: uuid('batch_id'),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedByEmail: text('decided_by_email'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    approvalComment: text('approval_comment'),
    attempts: integer('attempts').notNull().default(0),
    lastError: jsonb('last_error').$type<FeedbackDeliveryError>(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    supersededBy: uuid('superseded_by'),
    updatedAt: updatedAt(),
    /** The transaction that last changed `updated_at` (trigger, migration 0015): the feed's order. */
    changeTxid: xid8('change_txid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (t) => [
    uniqueIndex('feedback_submissions_idempotency_key').on(t.submittedBy, t.idempotencyKey),
    index('feedback_submissions_execution_idx').on(t.executionId, t.submittedAt.desc(), t.id.desc()),
    index('feedback_submissions_open_idx')
      .on(t.state, t.submittedAt)
      .where(sql`${t.state} in ('awaiting_approval', 'pending', 'delivering', 'failed')`),
    // The read API's feedback feed (lib/feedback/state-changes.ts): keyset order by the changing
    // transaction; updated_at for its `since`.
    index('feedback_submissions_change_idx').on(t.changeTxid, t.id),
    index('feedback_submissions_updated_idx').on(t.updatedAt, t.id),
    index('feedback_submissions_batch_idx')
      .on(t.batchId)
      .where(sql`${t.batchId} is not null`),
    check(
      'feedback_submissions_state_check',
      sql`${t.state} in ('awaiting_approval', 'pending', 'delivering', 'delivered', 'failed', 'rejected', 'superseded')`,
    ),
    check('feedback_submissions_status_check', sql`${t.status} in ('NA', 'FRAUD', 'NOT_FRAUD')`),
    check(
      'feedback_submissions_fraud_reason_check',
      sql`${t.status} <> 'FRAUD' or (${t.reason} is not null and ${t.reason} <> 'NA')`,
    ),
    check('feedback_submissions_note_check', sql`char_length(${t.note}) <= 2000`),
    check('feedback_submissions_comment_check', sql`char_length(${t.approvalComment}) <= 1000`),
  ],
);

/**
 * Every state change of every submission, append-only (a trigger refuses UPDATE and DELETE):
 * who or what (actor null = the delivery worker) moved it, when, and with which service answer.
 */
export const feedbackEvents = pgTable(
  'feedback_events',
  {
    id: serialPrimaryKey(),
    submissionId: uuid('submission_id')
      .notNull()
      .references(() => feedbackSubmissions.id),
    executionId: uuid('execution_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    fromState: text('from_state'),
    toState: text('to_state'),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('feedback_events_submission_idx').on(t.submissionId, t.id),
    index('feedback_events_execution_idx').on(t.executionId, t.id),
  ],
);
