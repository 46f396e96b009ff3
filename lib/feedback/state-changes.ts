import 'server-only';
import { and, asc, eq, gte, sql } from 'drizzle-orm';
import { feedPage, feedWindow, type FeedPage, type FeedPosition } from '@/lib/db/change-feed';
import { db } from '@/lib/db/client';
import { feedbackSubmissions, type FeedbackState } from '@/lib/db/schema';

export interface FeedbackStateItem {
  id: string;
  executionId: string;
  status: string;
  reason: string | null;
  state: FeedbackState;
  submittedAt: string;
  /** The submitting user's id: staff names, e-mail addresses and internal notes stay in the console. */
  submittedBy: string;
  decidedAt: string | null;
  deliveredAt: string | null;
  attempts: number;
  supersededBy: string | null;
  changedAt: string;
}

const changedAtText = sql<string>`to_char(${feedbackSubmissions.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Feedback submissions in the order their delivery state last changed (awaiting approval,
 * pending, delivered, failed, ...), paged by the rule of lib/db/change-feed.ts over
 * `feedback_submissions_change_idx` like the executions' change feed, optionally for one execution.
 */
export async function listFeedbackStates(opts: {
  after?: FeedPosition;
  since?: Date;
  executionId?: string;
  limit: number;
}): Promise<FeedPage<FeedbackStateItem>> {
  const f = feedbackSubmissions;
  const where = feedWindow(f.changeTxid, f.id, 'uuid', opts.after);
  if (!opts.after && opts.since) where.push(gte(f.updatedAt, opts.since));
  if (opts.executionId) where.push(eq(f.executionId, opts.executionId));
  const rows = await db()
    .select({
      id: f.id,
      executionId: f.executionId,
      status: f.status,
      reason: f.reason,
      state: f.state,
      submittedAt: f.submittedAt,
      submittedBy: f.submittedBy,
      decidedAt: f.decidedAt,
      deliveredAt: f.deliveredAt,
      attempts: f.attempts,
      supersededBy: f.supersededBy,
      changedAt: changedAtText,
      txid: sql<string>`${f.changeTxid}::text`,
    })
    .from(f)
    .where(and(...where))
    .orderBy(asc(f.changeTxid), asc(f.id))
    .limit(opts.limit + 1);
  const iso = (v: Date | null) => v?.toISOString() ?? null;
  return feedPage(
    rows,
    opts,
    (r) => r.id,
    ({ txid: _position, ...r }) => ({
      ...r,
      submittedAt: r.submittedAt.toISOString(),
      decidedAt: iso(r.decidedAt),
      deliveredAt: iso(r.deliveredAt),
    }),
  );
}
