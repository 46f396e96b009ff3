import 'server-only';
import { and, asc, gte, sql, type SQL } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { executions } from '@/lib/db/schema';

/** Position in the change feed: the last change time (microseconds, as Postgres keeps it) and id. */
export interface ChangePosition {
  at: string;
  id: string;
}

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

/** Postgres keeps microseconds; a JavaScript Date would drop them and repeat or skip rows at a page edge. */
const changedAtText = sql<string>`to_char(${executions.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Seconds a change must age before the feed shows it. `updated_at` is the writing transaction's
 * start time, so a transaction that started earlier but commits later than another would land
 * behind a cursor that already passed it; waiting out the longest write (ingest commits a page
 * in well under a second) closes that gap.
 */
export const changesSettleSeconds = () => {
  const n = Number(process.env.API_CHANGES_SETTLE_SECONDS ?? 10);
  return Number.isFinite(n) && n >= 0 ? n : 10;
};

/**
 * Executions in the order they last changed, after `after` (exclusive) or from `since`
 * (inclusive), keyset-paged over `executions_updated_idx`. Each change carries the decision
 * and the fields a case is built from; when case work lands its fields join as one more member.
 */
export async function listExecutionChanges(opts: {
  after?: ChangePosition;
  since?: Date;
  limit: number;
}): Promise<{ items: ExecutionChange[]; next: ChangePosition | null; hasMore: boolean }> {
  const e = executions;
  const where: SQL[] = [sql`${e.updatedAt} < now() - make_interval(secs => ${changesSettleSeconds()})`];
  if (opts.after) where.push(sql`(${e.updatedAt}, ${e.id}) > (${opts.after.at}::timestamptz, ${opts.after.id}::uuid)`);
  else if (opts.since) where.push(gte(e.updatedAt, opts.since));
  const rows = await db()
    .select({
      id: e.id,
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
    .orderBy(asc(e.updatedAt), asc(e.id))
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
    next: last ? { at: last.changedAt, id: last.id } : (opts.after ?? null),
    hasMore: rows.length > opts.limit,
  };
}
