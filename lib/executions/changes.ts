import 'server-only';
import { and, asc, gte, sql } from 'drizzle-orm';
import { feedPage, feedWindow, type FeedPage, type FeedPosition } from '@/lib/db/change-feed';
import { db } from '@/lib/db/client';
import { executions } from '@/lib/db/schema';
import { executionCore, feedbackState, type ExecutionCore, type FeedbackState } from './shape';

export interface ExecutionChange {
  id: string;
  /** When the cached row last changed (result, status, feedback, purge): the feed's order. */
  changedAt: string;
  execution: ExecutionCore;
  feedback: FeedbackState;
}

/** Postgres keeps microseconds; a JavaScript Date would drop them. */
const changedAtText = sql<string>`to_char(${executions.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Executions in the order they last changed, after `after` (exclusive) or, without it, from
 * rows changed at or after `since`; paged by the rule of lib/db/change-feed.ts over
 * `executions_change_idx`, so a transaction that commits late is never skipped. Each change
 * carries the decision and the feedback; cases have their own feed (lib/cases/changes.ts).
 */
export async function listExecutionChanges(opts: {
  after?: FeedPosition;
  since?: Date;
  limit: number;
}): Promise<FeedPage<ExecutionChange>> {
  const e = executions;
  const where = feedWindow(e.changeTxid, e.id, 'uuid', opts.after);
  if (!opts.after && opts.since) where.push(gte(e.updatedAt, opts.since));
  const rows = await db()
    .select({
      id: e.id,
      txid: sql<string>`${e.changeTxid}::text`,
      changedAt: changedAtText,
      accountId: e.accountId,
      status: e.status,
      decisionType: e.decisionType,
      decisionLabel: e.decisionLabel,
      riskScore: e.riskScore,
      definitionKey: e.definitionKey,
      customerInternalReference: e.customerInternalReference,
      userReference: e.userReference,
      createdAt: e.createdAt,
      completedAt: e.completedAt,
      goneAt: e.goneAt,
      feedbackStatus: e.feedbackStatus,
      feedbackReason: e.feedbackReason,
      feedbackProvidedAt: e.feedbackProvidedAt,
      feedbackDelivery: e.feedbackDelivery,
    })
    .from(e)
    .where(and(...where))
    .orderBy(asc(e.changeTxid), asc(e.id))
    .limit(opts.limit + 1);
  return feedPage(
    rows,
    opts,
    (r) => r.id,
    (r) => ({ id: r.id, changedAt: r.changedAt, execution: executionCore(r), feedback: feedbackState(r) }),
  );
}
