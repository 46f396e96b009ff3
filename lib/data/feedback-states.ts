import 'server-only';
import { and, asc, eq, gte, sql, type SQL } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { feedbackSubmissions, type FeedbackState } from '@/lib/db/schema';
import { changesSettleSeconds, type ChangePosition } from '@/lib/data/executions/changes';

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
 * pending, delivered, failed, ...), keyset-paged over `feedback_submissions_updated_idx` like
 * the executions' change feed, optionally for one execution.
 */
export async function listFeedbackStates(opts: {
  after?: ChangePosition;
  since?: Date;
  executionId?: string;
  limit: number;
}): Promise<{ items: FeedbackStateItem[]; next: ChangePosition | null; hasMore: boolean }> {
  const f = feedbackSubmissions;
  // The same settle time as the executions' feed: updated_at is the writing transaction's start.
  const where: SQL[] = [sql`${f.updatedAt} < now() - make_interval(secs => ${changesSettleSeconds()})`];
  if (opts.after) where.push(sql`(${f.updatedAt}, ${f.id}) > (${opts.after.at}::timestamptz, ${opts.after.id}::uuid)`);
  else if (opts.since) where.push(gte(f.updatedAt, opts.since));
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
    })
    .from(f)
    .where(and(...where))
    .orderBy(asc(f.updatedAt), asc(f.id))
    .limit(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  const iso = (v: Date | null) => v?.toISOString() ?? null;
  const last = page[page.length - 1];
  return {
    items: page.map((r) => ({
      ...r,
      submittedAt: r.submittedAt.toISOString(),
      decidedAt: iso(r.decidedAt),
      deliveredAt: iso(r.deliveredAt),
    })),
    next: last ? { at: last.changedAt, id: last.id } : (opts.after ?? null),
    hasMore: rows.length > opts.limit,
  };
}
