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
