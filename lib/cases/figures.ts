import type { ListParams } from '@/lib/executions/list-params';

/**
 * The list behind every number of the queues page, defined once: the page links each figure to
 * its list, and tests/integration/case-figures.test.ts counts each list against its figure. Each
 * returns the figure's count field with the list filters that select exactly those cases.
 * Browser-safe (types only).
 */

type Link = Partial<ListParams>;
const UNRESOLVED: ListParams['caseState'] = ['open', 'in_review'];

export function queueFigureLinks(q: { id: string; oldestExecutionId: string | null }) {
  const queue = { queue: [q.id] };
  return {
    backlog: { ...queue, caseState: UNRESOLVED },
    inReview: { ...queue, caseState: ['in_review'] },
    overdue: { ...queue, due: 'overdue' },
    /** The oldest unresolved case alone (its execution id). */
    oldest: q.oldestExecutionId ? { ...queue, caseState: UNRESOLVED, q: q.oldestExecutionId } : null,
    /** Throughput per day is `resolved7d / 7`: the cases resolved in the last 7 days. */
    resolved7d: { ...queue, resolvedWithin: '7d' },
    /** Resolution p50 / p95 are over every resolved case of the queue. */
    resolved: { ...queue, caseState: ['resolved'] },
  } satisfies Record<string, Link | null>;
}

export function analystFigureLinks(a: { userId: string }) {
  return {
    approved: { resolver: a.userId, outcome: ['approve'] },
    declined: { resolver: a.userId, outcome: ['decline'] },
    escalated: { escalatedBy: a.userId },
    /** Resolution p50 / p95 are over every case the person resolved. */
    resolved: { resolver: a.userId, caseState: ['resolved'] },
  } satisfies Record<string, Link>;
}

/** Judged against the service's decision when the outcome was given (`cases.decision_at_outcome`). */
export const DISAGREEMENT_LINKS = {
  approvedRejected: { against: 'approved_rejected' },
  declinedPassed: { against: 'declined_passed' },
} satisfies Record<string, Link>;

/** The start page's figures ("My work", app/(console)/page.tsx): each the list of exactly those cases. */
export function myWorkFigureLinks(userId: string) {
  const mine = { assignee: 'me', caseState: ['in_review'] } satisfies Link;
  const week = { resolver: userId, resolvedWithin: '7d' } satisfies Link;
  return {
    claimed: { ...mine, sort: 'due', dir: 'asc' },
    overdue: { ...mine, due: 'overdue' },
    /** As the list's `due=today`: due within 24 hours, the overdue ones included. */
    dueSoon: { ...mine, due: 'today' },
    resolved7d: week,
    approved7d: { ...week, outcome: ['approve'] },
    declined7d: { ...week, outcome: ['decline'] },
  } satisfies Record<string, Link>;
}
