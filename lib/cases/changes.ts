import 'server-only';
import { and, asc, eq, sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { caseChanges, caseQueues, type CaseChangeType, type CaseOutcome, type CaseState } from '@/lib/db/schema';
import { feedPage, feedWindow, type FeedPage, type FeedPosition } from '@/lib/db/change-feed';

export interface CaseChange {
  caseId: string;
  executionId: string;
  change: CaseChangeType;
  changedAt: string;
  /** The user who made the change; null for changes made by ingest or the claim timer. */
  actorId: string | null;
  case: {
    /** null once the case was withdrawn (its execution matches no queue any more). */
    state: CaseState | null;
    queue: { id: string; name: string | null } | null;
    outcome: CaseOutcome | null;
    reason: string | null;
    resolvedAt: string | null;
    resolvedBy: string | null;
  };
}

/**
 * Cases in the order they changed, after `after` (exclusive), from `case_changes` (written by
 * triggers on every case event and withdrawal, in the changing transaction), paged by the rule
 * of lib/db/change-feed.ts: a transaction that commits late is never skipped.
 */
export async function listCaseChanges(opts: { after?: FeedPosition; limit: number }): Promise<FeedPage<CaseChange>> {
  const c = caseChanges;
  const where = feedWindow(c.txid, c.id, 'bigint', opts.after);
  const rows = await db()
    .select({
      seq: sql<string>`${c.id}::text`,
      txid: sql<string>`${c.txid}::text`,
      caseId: c.caseId,
      executionId: c.executionId,
      change: c.change,
      at: c.at,
      actorId: c.actorId,
      state: c.state,
      queueId: c.queueId,
      queueName: caseQueues.name,
      outcome: c.outcome,
      reason: c.reason,
      resolvedAt: c.resolvedAt,
      resolvedBy: c.resolvedBy,
    })
    .from(c)
    .leftJoin(caseQueues, eq(caseQueues.id, c.queueId))
    .where(and(...where))
    .orderBy(asc(c.txid), asc(c.id))
    .limit(opts.limit + 1);
  return feedPage(
    rows,
    opts,
    (r) => r.seq,
    (r) => ({
      caseId: r.caseId,
      executionId: r.executionId,
      change: r.change,
      changedAt: r.at.toISOString(),
      actorId: r.actorId,
      case: {
        state: r.state,
        queue: r.queueId ? { id: r.queueId, name: r.queueName } : null,
        outcome: r.outcome,
        reason: r.reason,
        resolvedAt: r.resolvedAt?.toISOString() ?? null,
        resolvedBy: r.resolvedBy,
      },
    }),
  );
}
