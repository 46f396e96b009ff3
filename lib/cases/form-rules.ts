import type { CaseOutcome } from '@/lib/db/case-states';

/**
 * What the case forms show and check in the browser before they post: outcome labels, limits and
 * the override rule. Without zod, so a page that only needs a label or a limit does not download
 * the schemas (./schema.ts, which uses these): through the list's queue dialog they were 38 KB of
 * the list route's 244 KB gzipped (`npm run js:budget`).
 */

export const OUTCOME_LABELS: Record<CaseOutcome, string> = {
  approve: 'Approve',
  decline: 'Decline',
  escalate: 'Escalate',
};
export const COMMENT_MAX_CHARS = 2000;
/** Outcomes that need a comment: the next reader must know why. */
export const COMMENT_REQUIRED: readonly CaseOutcome[] = ['decline', 'escalate'];

/**
 * An outcome against the service's decision: approving what it REJECTED or flagged (WARNING), or
 * declining what it PASSED. A person's judgement then overrides the checks, so a comment says why
 * (the queues page counts these as a quality signal, and an examiner asks for the reason). The
 * message when the comment is missing, or null when the outcome follows the service.
 */
export function overrideNeedsComment(outcome: CaseOutcome | '', decision: string | null | undefined): string | null {
  if (outcome === 'approve' && (decision === 'REJECTED' || decision === 'WARNING'))
    return `The service's decision is ${decision}: say in the comment why you approve it.`;
  if (outcome === 'decline' && decision === 'PASSED')
    return 'The service PASSED this execution: say in the comment why you decline it.';
  return null;
}

export const QUEUE_NAME_MAX = 80;
export const REASON_LABEL_MAX = 80;
