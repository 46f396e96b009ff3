import 'server-only';
import { and, asc, gte, sql } from 'drizzle-orm';
import { feedWindow, type FeedPosition } from '@/lib/db/change-feed';
import { db } from '@/lib/db/client';
import { executions } from '@/lib/db/schema';

export interface ExecutionChange {
  id: string;
  /** When the cached row last changed (result, status, feedback, purge): the feed's order. */
  changedAt: string;
  execution: {
    accountId: string;
    status: string;
    decisionType: string | null;
    decisionLabel: string | null;
    riskScore: number | null;
    definitionKey: string | null;
    customerInternalReference: string | null;
    userReference: string | null;
    createdAt: string;
    completedAt: string | null;
    goneAt: string | null;
  };
  feedback: { status: string | null; reason: string | null; providedAt: string | null; delivery: string | null };
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
}): Promise<{ items: ExecutionChange[]; next: FeedPosition | null; hasMore: boolean }> {
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
  const page = rows.slice(0, opts.limit);
  const iso = (v: Date | null) => v?.toISOString() ?? null;
  const last = page[page.length - 1];
  return {
    items: page.map((r) => ({
      id: r.id,
      changedAt: r.changedAt,
      execution: {
        accountId: r.accountId,
        status: r.status,
        decisionType: r.decisionType,
        decisionLabel: r.decisionLabel,
        riskScore: r.riskScore,
        definitionKey: r.definitionKey,
        customerInternalReference: r.customerInternalReference,
        userReference: r.userReference,
        createdAt: r.createdAt.toISOString(),
        completedAt: iso(r.completedAt),
        goneAt: iso(r.goneAt),
      },
      feedback: {
        status: r.feedbackStatus,
        reason: r.feedbackReason,
        providedAt: iso(r.feedbackProvidedAt),
        delivery: r.feedbackDelivery,
      },
    })),
    // Also given after the last page: a caller keeps it and asks again later for what changed since.
    next: last ? { txid: last.txid, key: last.id } : (opts.after ?? null),
    hasMore: rows.length > opts.limit,
  };
}
