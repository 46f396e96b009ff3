import 'server-only';
import { and, asc, count, desc, eq, inArray, isNotNull, min, ne, notInArray, sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { executions, feedbackEvents, feedbackSubmissions } from '@/lib/db/schema';
import type { FeedbackDeliveryError, FeedbackState } from '@/lib/db/schema/feedback';
import { getFourEyes } from '@/lib/feedback/settings';
import { latestSubmissionsOf } from '@/lib/feedback/store';
import { isSealedExecution, sealedExecutionIds } from '@/lib/qa/seal';

/** The service's answer to a failed delivery, as stored and shown. */
export type { FeedbackDeliveryError };

/**
 * Read side of feedback for pages and actions: the detail panel (form version, state, history,
 * blast radius), the bulk confirmation, the approval queue, batch progress and the sync page.
 * Everything here is plain data (dates as ISO strings) so it can cross to client components.
 * What one viewer reads leaves out the labels a pending QA review seals for them (lib/qa/seal.ts).
 */

export interface FeedbackEventView {
  id: number;
  at: string;
  kind: string;
  fromState: string | null;
  toState: string | null;
  actorEmail: string | null;
  details: Record<string, unknown> | null;
}

export interface SubmissionView {
  id: string;
  executionId: string;
  status: string;
  reason: string | null;
  note: string | null;
  state: FeedbackState;
  submittedByEmail: string;
  submittedAt: string;
  batchId: string | null;
  decidedByEmail: string | null;
  decidedAt: string | null;
  approvalComment: string | null;
  attempts: number;
  lastError: FeedbackDeliveryError | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  events: FeedbackEventView[];
}

export interface BlastItem {
  id: string;
  createdAt: string;
  decisionType: string | null;
  status: string;
  /** Null while `sealed`. */
  feedbackStatus: string | null;
  /** A pending QA review seals this execution's label for the viewer. */
  sealed: boolean;
  /** Created after the execution(s) being labelled: the ones the service's FRAUD rule reaches. */
  later: boolean;
}

export interface BlastRadius {
  /** False when the cache holds no identity document for the execution (none extracted, or purged). */
  documentKnown: boolean;
  /** Other cached executions with the same identity document. */
  total: number;
  later: number;
  items: BlastItem[];
}

export interface FeedbackPanelData {
  executionId: string;
  executionStatus: string;
  /**
   * A pending QA review seals the label for the viewer: no service label, delivery, history or
   * latest submission, version "none", and no form (the QA decision has its own).
   */
  sealed: boolean;
  /** What the service itself says (from the last fetch). */
  service: { status: string | null; reason: string | null; providedAt: string | null };
  delivery: string | null;
  /** Optimistic-concurrency version: the latest submission's id, or "none". */
  version: string;
  fourEyes: boolean;
  latest: SubmissionView | null;
  history: SubmissionView[];
  blast: BlastRadius;
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const HISTORY_LIMIT = 50;
const BLAST_ITEMS = 25;

const submissionColumns = {
  id: feedbackSubmissions.id,
  executionId: feedbackSubmissions.executionId,
  status: feedbackSubmissions.status,
  reason: feedbackSubmissions.reason,
  note: feedbackSubmissions.note,
  state: feedbackSubmissions.state,
  submittedByEmail: feedbackSubmissions.submittedByEmail,
  submittedAt: feedbackSubmissions.submittedAt,
  batchId: feedbackSubmissions.batchId,
  decidedByEmail: feedbackSubmissions.decidedByEmail,
  decidedAt: feedbackSubmissions.decidedAt,
  approvalComment: feedbackSubmissions.approvalComment,
  attempts: feedbackSubmissions.attempts,
  lastError: feedbackSubmissions.lastError,
  lastAttemptAt: feedbackSubmissions.lastAttemptAt,
  nextAttemptAt: feedbackSubmissions.nextAttemptAt,
  deliveredAt: feedbackSubmissions.deliveredAt,
};
type SubmissionRow = { [K in keyof typeof submissionColumns]: (typeof feedbackSubmissions.$inferSelect)[K] };

function toView(r: SubmissionRow, events: FeedbackEventView[] = []): SubmissionView {
  return {
    ...r,
    submittedAt: iso(r.submittedAt)!,
    decidedAt: iso(r.decidedAt),
    lastAttemptAt: iso(r.lastAttemptAt),
    nextAttemptAt: iso(r.nextAttemptAt),
    deliveredAt: iso(r.deliveredAt),
    events,
  };
}

/** Every submission of an execution, newest first, each with its state changes (oldest first). */
export async function listFeedbackHistory(executionId: string, limit = HISTORY_LIMIT): Promise<SubmissionView[]> {
  const rows = await db()
    .select(submissionColumns)
    .from(feedbackSubmissions)
    .where(eq(feedbackSubmissions.executionId, executionId))
    .orderBy(desc(feedbackSubmissions.submittedAt), desc(feedbackSubmissions.id))
    .limit(limit);
  if (!rows.length) return [];
  const events = await db()
    .select()
    .from(feedbackEvents)
    .where(
      inArray(
        feedbackEvents.submissionId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(feedbackEvents.id));
  const bySubmission = new Map<string, FeedbackEventView[]>();
  for (const e of events) {
    const list = bySubmission.get(e.submissionId) ?? [];
    list.push({
      id: e.id,
      at: iso(e.at)!,
      kind: e.kind,
      fromState: e.fromState,
      toState: e.toState,
      actorEmail: e.actorEmail,
      details: e.details,
    });
    bySubmission.set(e.submissionId, list);
  }
  return rows.map((r) => toView(r, bySubmission.get(r.id) ?? []));
}

/**
 * Cached executions with the same identity document as `executionIds` (issuing country,
 * document type and number, names, date of birth: the service's rule for spreading FRAUD,
 * hashed into `document_key` at ingest), leaving out the executions themselves. Labels sealed
 * for `viewerId` are left out of the items.
 */
export async function getBlastRadius(
  executionIds: string[],
  viewerId: string,
  limit = BLAST_ITEMS,
): Promise<BlastRadius & { documents: number; withoutDocument: number }> {
  if (!executionIds.length)
    return { documentKnown: false, total: 0, later: 0, items: [], documents: 0, withoutDocument: 0 };
  const selected = await db()
    .select({ id: executions.id, documentKey: executions.documentKey, createdAt: executions.createdAt })
    .from(executions)
    .where(inArray(executions.id, executionIds));
  const keys = [...new Set(selected.map((s) => s.documentKey).filter((k): k is string => Boolean(k)))];
  const withoutDocument = selected.filter((s) => !s.documentKey).length;
  if (!keys.length) return { documentKnown: false, total: 0, later: 0, items: [], documents: 0, withoutDocument };
  // "Later" is judged against the earliest labelled execution of the same document.
  const earliest = new Map<string, Date>();
  for (const s of selected)
    if (s.documentKey && (!earliest.has(s.documentKey) || s.createdAt < earliest.get(s.documentKey)!))
      earliest.set(s.documentKey, s.createdAt);
  const where = and(inArray(executions.documentKey, keys), notInArray(executions.id, executionIds));
  const laterCase = sql.join(
    keys.map(
      (k) =>
        sql`when ${executions.documentKey} = ${k} then ${executions.createdAt} > ${earliest.get(k)!.toISOString()}::timestamptz`,
    ),
    sql` `,
  );
  const laterExpr = sql<boolean>`(case ${laterCase} else false end)`;
  const [totals] = await db()
    .select({ total: count(), later: sql<number>`count(*) filter (where ${laterExpr})`.mapWith(Number) })
    .from(executions)
    .where(where);
  const items = await db()
    .select({
      id: executions.id,
      createdAt: executions.createdAt,
      decisionType: executions.decisionType,
      status: executions.status,
      feedbackStatus: executions.feedbackStatus,
      later: laterExpr,
    })
    .from(executions)
    .where(where)
    .orderBy(desc(executions.createdAt), desc(executions.id))
    .limit(limit);
  const sealed = await sealedExecutionIds(
    db(),
    viewerId,
    items.map((i) => i.id),
  );
  return {
    documentKnown: true,
    total: totals?.total ?? 0,
    later: totals?.later ?? 0,
    items: items.map((i) => ({
      ...i,
      createdAt: iso(i.createdAt)!,
      later: Boolean(i.later),
      feedbackStatus: sealed.has(i.id) ? null : i.feedbackStatus,
      sealed: sealed.has(i.id),
    })),
    documents: keys.length,
    withoutDocument,
  };
}

/** The detail page's feedback panel as `viewerId` may see it. */
export async function getFeedbackPanel(executionId: string, viewerId: string): Promise<FeedbackPanelData | null> {
  const [ex] = await db()
    .select({
      id: executions.id,
      status: executions.status,
      feedbackStatus: executions.feedbackStatus,
      feedbackReason: executions.feedbackReason,
      feedbackProvidedAt: executions.feedbackProvidedAt,
      feedbackDelivery: executions.feedbackDelivery,
    })
    .from(executions)
    .where(eq(executions.id, executionId.toLowerCase()));
  if (!ex) return null;
  const [sealed, blast, fourEyes] = await Promise.all([
    isSealedExecution(db(), ex.id, viewerId),
    getBlastRadius([ex.id], viewerId),
    getFourEyes(),
  ]);
  const blastView = { documentKnown: blast.documentKnown, total: blast.total, later: blast.later, items: blast.items };
  if (sealed)
    return {
      executionId: ex.id,
      executionStatus: ex.status,
      sealed,
      service: { status: null, reason: null, providedAt: null },
      delivery: null,
      version: 'none',
      fourEyes: fourEyes.enabled,
      latest: null,
      history: [],
      blast: blastView,
    };
  const history = await listFeedbackHistory(ex.id);
  return {
    executionId: ex.id,
    executionStatus: ex.status,
    sealed,
    service: { status: ex.feedbackStatus, reason: ex.feedbackReason, providedAt: iso(ex.feedbackProvidedAt) },
    delivery: ex.feedbackDelivery,
    version: history[0]?.id ?? 'none',
    fourEyes: fourEyes.enabled,
    latest: history[0] ?? null,
    history,
    blast: blastView,
  };
}

export interface BulkPreview {
  count: number;
  /** Selected ids that are not in the cache (left out of `versions`). */
  missing: string[];
  /** Selected ids whose label a pending QA review seals for the viewer (left out of `versions` and the counts). */
  sealed: string[];
  versions: Record<string, string>;
  blast: BlastRadius & { documents: number; withoutDocument: number };
  /** How many of the selection already carry a label (service or Verdict). */
  alreadyLabelled: number;
  fourEyes: boolean;
}

export async function getBulkFeedbackPreview(executionIds: string[], viewerId: string): Promise<BulkPreview> {
  const [rows, sealed] = await Promise.all([
    db()
      .select({ id: executions.id, feedbackStatus: executions.feedbackStatus, delivery: executions.feedbackDelivery })
      .from(executions)
      .where(inArray(executions.id, executionIds)),
    sealedExecutionIds(db(), viewerId, executionIds),
  ]);
  const present = new Set(rows.map((f) => f.id));
  // A sealed execution is left out whole: whether it "already carries a label" would say which.
  const found = rows.filter((f) => !sealed.has(f.id));
  const ids = found.map((f) => f.id);
  const latest = await latestSubmissionsOf(db(), ids);
  const versions: Record<string, string> = Object.fromEntries(ids.map((id) => [id, 'none']));
  for (const l of latest.values()) versions[l.executionId] = l.id;
  const [blast, fourEyes] = await Promise.all([getBlastRadius(ids, viewerId), getFourEyes()]);
  return {
    count: ids.length,
    missing: executionIds.filter((id) => !present.has(id)),
    sealed: executionIds.filter((id) => present.has(id) && sealed.has(id)),
    versions,
    blast,
    alreadyLabelled: found.filter((f) => f.feedbackStatus || f.delivery).length,
    fourEyes: fourEyes.enabled,
  };
}

export interface BatchProgress {
  batchId: string;
  total: number;
  byState: Partial<Record<FeedbackState, number>>;
  /** Submissions that will not move on their own any more (delivered, failed, rejected, superseded, awaiting approval). */
  settled: number;
  failures: Array<{ submissionId: string; executionId: string; error: FeedbackDeliveryError | null }>;
}

export async function getBatchProgress(batchId: string): Promise<BatchProgress> {
  const rows = await db()
    .select({ state: feedbackSubmissions.state, n: count() })
    .from(feedbackSubmissions)
    .where(eq(feedbackSubmissions.batchId, batchId))
    .groupBy(feedbackSubmissions.state);
  const byState: BatchProgress['byState'] = {};
  for (const r of rows) byState[r.state] = r.n;
  const total = rows.reduce((a, r) => a + r.n, 0);
  const moving = (byState.pending ?? 0) + (byState.delivering ?? 0);
  const failures = byState.failed
    ? await db()
        .select({
          submissionId: feedbackSubmissions.id,
          executionId: feedbackSubmissions.executionId,
          error: feedbackSubmissions.lastError,
        })
        .from(feedbackSubmissions)
        .where(and(eq(feedbackSubmissions.batchId, batchId), eq(feedbackSubmissions.state, 'failed')))
        .limit(20)
    : [];
  return { batchId, total, byState, settled: total - moving, failures };
}

export interface ApprovalItem extends Omit<SubmissionView, 'events'> {
  execution: { status: string; decisionType: string | null; riskScore: number | null; createdAt: string };
  blastTotal: number;
}

/** The managers' queue: submissions waiting for a decision, oldest first. */
export async function listAwaitingApproval(limit = 100): Promise<{ items: ApprovalItem[]; total: number }> {
  const same =
    sql<number>`(select count(*) from executions o where o.document_key = ${executions.documentKey} and o.id <> ${executions.id})`.mapWith(
      Number,
    );
  const rows = await db()
    .select({
      ...submissionColumns,
      exStatus: executions.status,
      exDecision: executions.decisionType,
      exRisk: executions.riskScore,
      exCreatedAt: executions.createdAt,
      blastTotal: sql<number>`case when ${executions.documentKey} is null then 0 else ${same} end`.mapWith(Number),
    })
    .from(feedbackSubmissions)
    .innerJoin(executions, eq(executions.id, feedbackSubmissions.executionId))
    .where(eq(feedbackSubmissions.state, 'awaiting_approval'))
    .orderBy(asc(feedbackSubmissions.submittedAt), asc(feedbackSubmissions.id))
    .limit(limit);
  const [{ n }] = await db()
    .select({ n: count() })
    .from(feedbackSubmissions)
    .where(eq(feedbackSubmissions.state, 'awaiting_approval'));
  return {
    total: n,
    items: rows.map(({ exStatus, exDecision, exRisk, exCreatedAt, blastTotal, ...r }) => {
      const { events: _events, ...view } = toView(r);
      void _events;
      return {
        ...view,
        execution: { status: exStatus, decisionType: exDecision, riskScore: exRisk, createdAt: iso(exCreatedAt)! },
        blastTotal,
      };
    }),
  };
}

/**
 * For the list's feedback column: the label Verdict holds for executions whose latest label is
 * not at the service yet (the service's own status, in `executions`, is the older one).
 */
export async function getUndeliveredLabels(executionIds: string[]): Promise<Map<string, string>> {
  const latest = await latestSubmissionsOf(db(), executionIds, { effective: true });
  return new Map([...latest].map(([id, l]) => [id, l.status]));
}

export async function countAwaitingApproval(): Promise<number> {
  const [{ n }] = await db()
    .select({ n: count() })
    .from(feedbackSubmissions)
    .where(eq(feedbackSubmissions.state, 'awaiting_approval'));
  return n;
}

export interface FeedbackDeliveryStats {
  pending: number;
  delivering: number;
  failed: number;
  awaitingApproval: number;
  deliveredLast24h: number;
  oldestPendingAt: string | null;
  lastFailures: Array<{
    submissionId: string;
    executionId: string;
    status: string;
    reason: string | null;
    error: FeedbackDeliveryError | null;
    at: string | null;
    attempts: number;
  }>;
  /** Pending submissions whose last attempt failed and that wait for a retry (the service is down or slow). */
  retrying: number;
}

/** For the sync page: is feedback getting through to the service? */
export async function getFeedbackDeliveryStats(): Promise<FeedbackDeliveryStats> {
  const [c] = await db()
    .select({
      pending: sql<number>`count(*) filter (where ${feedbackSubmissions.state} = 'pending')`.mapWith(Number),
      delivering: sql<number>`count(*) filter (where ${feedbackSubmissions.state} = 'delivering')`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${feedbackSubmissions.state} = 'failed')`.mapWith(Number),
      awaitingApproval: sql<number>`count(*) filter (where ${feedbackSubmissions.state} = 'awaiting_approval')`.mapWith(
        Number,
      ),
      retrying:
        sql<number>`count(*) filter (where ${feedbackSubmissions.state} = 'pending' and ${feedbackSubmissions.lastError} is not null)`.mapWith(
          Number,
        ),
      oldestPendingAt: min(
        sql`case when ${feedbackSubmissions.state} in ('pending', 'delivering') then ${feedbackSubmissions.submittedAt} end`,
      ),
    })
    .from(feedbackSubmissions)
    .where(inArray(feedbackSubmissions.state, ['pending', 'delivering', 'failed', 'awaiting_approval']));
  const [d] = await db()
    .select({ n: count() })
    .from(feedbackSubmissions)
    .where(
      and(
        eq(feedbackSubmissions.state, 'delivered'),
        sql`${feedbackSubmissions.deliveredAt} > now() - interval '24 hours'`,
      ),
    );
  const failures = await db()
    .select({
      submissionId: feedbackSubmissions.id,
      executionId: feedbackSubmissions.executionId,
      status: feedbackSubmissions.status,
      reason: feedbackSubmissions.reason,
      error: feedbackSubmissions.lastError,
      at: feedbackSubmissions.lastAttemptAt,
      attempts: feedbackSubmissions.attempts,
    })
    .from(feedbackSubmissions)
    .where(
      and(
        isNotNull(feedbackSubmissions.lastError),
        ne(feedbackSubmissions.state, 'delivered'),
        notInArray(feedbackSubmissions.state, ['superseded', 'rejected']),
      ),
    )
    .orderBy(desc(feedbackSubmissions.lastAttemptAt))
    .limit(10);
  return {
    pending: c?.pending ?? 0,
    delivering: c?.delivering ?? 0,
    failed: c?.failed ?? 0,
    awaitingApproval: c?.awaitingApproval ?? 0,
    retrying: c?.retrying ?? 0,
    oldestPendingAt: iso(c?.oldestPendingAt as Date | string | null),
    deliveredLast24h: d?.n ?? 0,
    lastFailures: failures.map((f) => ({ ...f, at: iso(f.at) })),
  };
}
