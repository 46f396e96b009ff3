/**
 * The values of case work, browser-safe and dependency-free: the database schema
 * (lib/db/schema/cases.ts), the forms and the list's filters share them.
 */
export const CASE_STATES = ['open', 'in_review', 'resolved'] as const;
export type CaseState = (typeof CASE_STATES)[number];
export const CASE_OUTCOMES = ['approve', 'decline', 'escalate'] as const;
export type CaseOutcome = (typeof CASE_OUTCOMES)[number];
export const QUEUE_KINDS = ['filter', 'escalation'] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];
export const NOTE_MAX_CHARS = 5000;
/** Every transition a case's history records (`case_events.type`). */
export const CASE_EVENT_TYPES = [
  'created',
  'requeued',
  'claimed',
  'assigned',
  'unassigned',
  'released',
  'resolved',
  'escalated',
  'reopened',
  // QA sampling (lib/qa): sampled, and a disagreement settled by a manager (the case's outcome may change).
  'qa_sampled',
  'qa_settled',
] as const;
export type CaseEventType = (typeof CASE_EVENT_TYPES)[number];
