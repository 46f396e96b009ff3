import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  CASE_EVENT_TYPES,
  NOTE_MAX_CHARS,
  type CaseEventType,
  type CaseOutcome,
  type CaseState,
  type QueueKind,
} from '@/lib/db/case-states';
import { actorUserId, users } from './auth';
import { ownerExecutionId, xid8 } from './executions';
import { createdAt, serialPrimaryKey, updatedAt, uuidPrimaryKey } from './columns';

/**
 * Case work (lib/cases/README.md). A queue is a saved filter of the executions list; an
 * execution that matches one gets one case, which moves
 *   open -> in_review (claimed by one user) -> resolved (approve | decline)
 * and back (unassign, a claim nobody touched, reopen). Escalating moves it, open, to an
 * escalation queue that managers work.
 */
export * from '@/lib/db/case-states';

export const caseQueues = pgTable(
  'case_queues',
  {
    id: uuidPrimaryKey(),
    name: text('name').notNull(),
    /** Lower first: matching puts an execution in the first queue that matches, claims take from it first. */
    priority: integer('priority').notNull().default(100),
    slaHours: integer('sla_hours').notNull(),
    /** The executions list's filters as its URL query (lib/executions/list-params.ts); '' = every execution. */
    definition: text('definition').notNull().default(''),
    /** `escalation` queues take escalated cases only; they match nothing on their own. */
    kind: text('kind').$type<QueueKind>().notNull().default('filter'),
    /** The lowest role that works this queue ("next case" and the queues page). */
    minRole: text('min_role').$type<'analyst' | 'manager'>().notNull().default('analyst'),
    archived: boolean('archived').notNull().default(false),
    /** Display order on the queues page and in filters. */
    sortOrder: integer('sort_order').notNull().default(0),
    createdBy: actorUserId('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('case_queues_name_key').on(sql`lower(${t.name})`),
    check('case_queues_sla_check', sql`${t.slaHours} between 1 and 8760`),
    check('case_queues_definition_check', sql`length(${t.definition}) <= 4000`),
  ],
);

/** One case per execution, ever: a resolved case is reopened, never duplicated. */
export const cases = pgTable(
  'cases',
  {
    id: uuidPrimaryKey(),
    executionId: ownerExecutionId(),
    queueId: uuid('queue_id')
      .notNull()
      .references(() => caseQueues.id),
    state: text('state').$type<CaseState>().notNull().default('open'),
    assigneeId: actorUserId('assignee_id'),
    /** Last touch of the assignee: a claim older than CASE_CLAIM_MINUTES returns to the queue. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** When it entered its current queue; due = arrival + the queue's SLA. */
    arrivedAt: timestamp('arrived_at', { withTimezone: true }).notNull().defaultNow(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    outcome: text('outcome').$type<CaseOutcome>(),
    reason: text('reason'),
    comment: text('comment'),
    resolvedBy: actorUserId('resolved_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /**
     * The service's decision when the outcome was given: "approved a REJECTED" is judged against
     * what the analyst saw, and the queues page counts it without joining a million executions.
     */
    decisionAtOutcome: text('decision_at_outcome'),
    /** Every change adds one: a form carries the version it was opened on (stale-panel check). */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('cases_execution_key').on(t.executionId),
    // "Next case": the open cases of one queue, earliest due first.
    index('cases_open_queue_due_idx')
      .on(t.queueId, t.dueAt, t.id)
      .where(sql`${t.state} = 'open'`),
    index('cases_claimed_idx')
      .on(t.claimedAt)
      .where(sql`${t.state} = 'in_review'`),
    index('cases_assignee_idx')
      .on(t.assigneeId)
      .where(sql`${t.state} = 'in_review'`),
    // What the queues page reads of the cases themselves (index-only scans, lib/cases/queries.ts
    // getQueuesPage); its all-time figures are kept apart (./case-figures.ts). Every column used is
    // a key column, as drizzle has no INCLUDE.
    // Unresolved cases per queue: backlog, in review, overdue, the oldest one.
    index('cases_unresolved_queue_idx')
      .on(t.queueId, t.arrivedAt, t.state, t.dueAt)
      .where(sql`${t.state} <> 'resolved'`),
    // Resolved cases per queue: the last 7 days' throughput (and the list's queue filters).
    index('cases_resolved_queue_idx')
      .on(t.queueId, t.resolvedAt, t.arrivedAt, t.outcome, t.decisionAtOutcome, t.id)
      .where(sql`${t.state} = 'resolved'`),
    // Resolved cases per person: the list's resolver filters.
    index('cases_resolved_by_idx')
      .on(t.resolvedBy, t.resolvedAt, t.arrivedAt, t.outcome, t.id)
      .where(sql`${t.state} = 'resolved'`),
    index('cases_resolved_idx')
      .on(t.resolvedAt)
      .where(sql`${t.state} = 'resolved'`),
    check(
      'cases_claim_check',
      sql`(${t.state} = 'in_review') = (${t.assigneeId} is not null and ${t.claimedAt} is not null)`,
    ),
  ],
);

/** Every transition of a case, append-only (a trigger enforces it); the audit log has the same. */
export const caseEvents = pgTable(
  'case_events',
  {
    id: serialPrimaryKey(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    executionId: uuid('execution_id').notNull(),
    type: text('type').$type<CaseEventType>().notNull(),
    actorId: actorUserId('actor_id'),
    queueId: uuid('queue_id'),
    assigneeId: uuid('assignee_id'),
    outcome: text('outcome').$type<CaseOutcome>(),
    reason: text('reason'),
    comment: text('comment'),
    /** Resolution time for `resolved` and `escalated`: from arrival in the queue (seconds). */
    waitedSeconds: integer('waited_seconds'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('case_events_case_idx').on(t.caseId, t.at),
    index('case_events_outcome_idx')
      .on(t.at)
      .where(sql`${t.type} in ('resolved', 'escalated')`),
    // Escalations per person, for the queues page.
    index('case_events_escalated_idx')
      .on(t.actorId, t.caseId)
      .where(sql`${t.type} = 'escalated'`),
  ],
);

export const CASE_CHANGE_TYPES = [...CASE_EVENT_TYPES, 'withdrawn'] as const;
export type CaseChangeType = (typeof CASE_CHANGE_TYPES)[number];

/**
 * The read API's change feed of cases (lib/cases/changes.ts): one row per case event with
 * the case as it stood after it, and one per withdrawn (deleted) case. Written only by triggers
 * (migration 0015), so no code path can change a case without a row here. `txid` is the writing
 * transaction's id: the feed orders by (txid, id) and shows a row only once every transaction
 * with a lower id has ended, so a transaction that commits late cannot land behind a cursor.
 * No foreign keys: the row outlives a withdrawn case. No comment column: free text stays out.
 */
export const caseChanges = pgTable(
  'case_changes',
  {
    id: serialPrimaryKey(),
    txid: xid8('txid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    caseId: uuid('case_id').notNull(),
    executionId: uuid('execution_id').notNull(),
    change: text('change').$type<CaseChangeType>().notNull(),
    actorId: uuid('actor_id'),
    /** The case after the change; null state = withdrawn. */
    state: text('state').$type<CaseState>(),
    queueId: uuid('queue_id'),
    outcome: text('outcome').$type<CaseOutcome>(),
    reason: text('reason'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('case_changes_feed_idx').on(t.txid, t.id)],
);

/**
 * The notes thread of an execution: append-only (trigger). Editing a note adds its next version
 * under the same note id; the history shows every version.
 */
export const caseNotes = pgTable(
  'case_notes',
  {
    id: serialPrimaryKey(),
    noteId: uuid('note_id').notNull(),
    version: integer('version').notNull(),
    executionId: ownerExecutionId(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('case_notes_version_key').on(t.noteId, t.version),
    index('case_notes_execution_idx').on(t.executionId, t.createdAt),
    check('case_notes_body_check', sql`length(${t.body}) between 1 and ${sql.raw(String(NOTE_MAX_CHARS))}`),
  ],
);

/** The short list of reasons a resolution picks from; admins change rows, not code. */
export const caseReasons = pgTable('case_reasons', {
  code: text('code').primaryKey(),
  label: text('label').notNull(),
  /** Outcomes it may explain. */
  outcomes: text('outcomes').array().$type<CaseOutcome[]>().notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
  active: boolean('active').notNull().default(true),
});

/** A re-match of unresolved executions after a queue changed, with its progress. */
export const caseRematchRuns = pgTable('case_rematch_runs', {
  id: uuidPrimaryKey(),
  queueId: uuid('queue_id').references(() => caseQueues.id, { onDelete: 'set null' }),
  state: text('state').$type<'queued' | 'running' | 'completed' | 'failed'>().notNull().default('queued'),
  total: integer('total'),
  done: integer('done').notNull().default(0),
  /** Keyset position (execution id) of the walk, so a restarted job resumes. */
  lastId: uuid('last_id'),
  startedBy: actorUserId('started_by'),
  createdAt: createdAt(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  details: jsonb('details').$type<Record<string, unknown>>(),
});
