import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '@/lib/db/client';
import { qaReviews } from '@/lib/db/schema';

/**
 * Blindness. While a case's QA review waits or is being reviewed, its first outcome, reason and
 * comment are sealed for every viewer except the first analyst: whoever looks could be the one who
 * claims the review next. The read functions apply it (lib/cases/queries.ts: the case panel and
 * header, notes; lib/executions/detail.ts: the audit trail; lib/executions/where.ts: the
 * list's outcome filter), so no page, report or action result shows what the reviewer must not
 * see. Once the review is decided, both outcomes are shown to everyone.
 *
 * The execution's FRAUD / NOT_FRAUD label is sealed with it: resolving a case labels it in the
 * same step, so the label would give the outcome away. Wherever a label is shown or filtered on
 * (detail, feedback panel, linked records, blast radius, list, CSV, case report, the list's
 * feedback filters) the execution-keyed helpers below withhold it, and the feedback write side
 * refuses a sealed viewer, whose conflict messages would name the label.
 *
 * No 'server-only': the list's WHERE builder also runs in scripts.
 */

/** A review that still seals: pending, and `viewerId` (none: everybody) is not its first analyst. */
const pendingFor = (viewerId: string | null | undefined) =>
  sql`${qaReviews.state} in ('open', 'in_review')
    and ${viewerId ? sql`${qaReviews.firstAnalystId} <> ${viewerId}::uuid` : sql`true`}`;

/** True when the case's first outcome is sealed for `viewerId`. */
export function sealedFor(caseId: AnyPgColumn | SQL, viewerId: string | null | undefined): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${qaReviews} where ${qaReviews.caseId} = ${caseId} and ${pendingFor(viewerId)})`;
}

/**
 * The cases sealed for `viewerId`, as a set to test against (`id not in …`): for aggregates over
 * many cases (the queues page's outcome counts), where Postgres hashes the set once instead of
 * probing the reviews per row as `sealedFor` does.
 */
export function sealedCaseIds(viewerId: string | null | undefined): SQL {
  return sql`(select ${qaReviews.caseId} from ${qaReviews} where ${pendingFor(viewerId)})`;
}

/**
 * The same test keyed by execution id, for the execution-level reads (labels) and the list's
 * feedback filters: `qa_reviews_execution_idx` answers it without a join through cases.
 */
export function sealedExecution(executionId: AnyPgColumn | SQL, viewerId: string | null | undefined): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${qaReviews} where ${qaReviews.executionId} = ${executionId} and ${pendingFor(viewerId)})`;
}

/** Whether an execution's case is sealed for the viewer. */
export async function isSealedExecution(d: DbOrTx, executionId: string, viewerId: string): Promise<boolean> {
  const r = await d.execute<{ sealed: boolean }>(
    sql`select ${sealedExecution(sql`${executionId}::uuid`, viewerId)} as sealed`,
  );
  return Boolean(r.rows[0]?.sealed);
}

/**
 * Which of `ids` are sealed for the viewer, in one query: the per-row test of every surface that
 * shows many executions' labels at once (the list, the CSV, linked records, the blast radius).
 */
export async function sealedExecutionIds(d: DbOrTx, viewerId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const r = await d.execute<{ id: string }>(sql`select distinct ${qaReviews.executionId} as id from ${qaReviews}
    where ${qaReviews.executionId} = any(${sql.param(ids)}::uuid[]) and ${pendingFor(viewerId)}`);
  return new Set(r.rows.map((x) => x.id));
}

/** Audit actions whose details carry a case outcome or its reason. */
const OUTCOME_ACTIONS = new Set(['case.resolve', 'case.escalate']);
/** Detail keys of feedback entries that name the label or the service's answer to it. */
const LABEL_KEYS = ['status', 'reason', 'title', 'detail', 'lastError'];

/** Whether an audit entry of this action carries what the seal withholds: the first outcome, the label, their reasons. */
export const carriesSealedContent = (action: string) => OUTCOME_ACTIONS.has(action) || action.startsWith('feedback.');

/** One audit entry with the first outcome and the label taken out of its details. */
function redactEntry<T extends { action: string; details: unknown }>(r: T): T {
  if (!r.details || typeof r.details !== 'object') return r;
  const details = r.details as Record<string, unknown>;
  if (OUTCOME_ACTIONS.has(r.action)) {
    const { outcome: _o, reason: _r, feedback: _f, ...rest } = details;
    return { ...r, details: { ...rest, sealed: true } };
  }
  if (r.action.startsWith('feedback.')) {
    const rest = Object.fromEntries(Object.entries(details).filter(([k]) => !LABEL_KEYS.includes(k)));
    return { ...r, details: { ...rest, sealed: true } };
  }
  return r;
}

/** The execution's audit trail with the first outcome and the label taken out of its entries, for a sealed viewer. */
export function redactSealedTrail<T extends { action: string; details: unknown }>(rows: T[]): T[] {
  return rows.map(redactEntry);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Audit entries about any records (the audit page), as `viewerId` may read them: an entry about
 * an execution sealed for them loses the outcome and the label, as on the execution's own trail.
 */
export async function redactSealedEntries<
  T extends { action: string; details: unknown; targetType: string | null; targetId: string | null },
>(d: DbOrTx, viewerId: string, rows: T[]): Promise<T[]> {
  const about = (r: T) =>
    r.targetType === 'execution' && r.targetId && UUID.test(r.targetId) && carriesSealedContent(r.action)
      ? r.targetId.toLowerCase()
      : null;
  const ids = [...new Set(rows.map(about).filter((x): x is string => Boolean(x)))];
  const sealed = await sealedExecutionIds(d, viewerId, ids);
  return rows.map((r) => {
    const id = about(r);
    return id && sealed.has(id) ? redactEntry(r) : r;
  });
}

/**
 * Every execution sealed for the viewer, as lowercase ids: for the audit export, which walks
 * entries by position and withholds those that carry a sealed outcome or label
 * (lib/evidence/export-writer.ts). Pending reviews are few (a share of a week's resolutions).
 */
export async function sealedExecutionsFor(d: DbOrTx, viewerId: string): Promise<Set<string>> {
  const r = await d.execute<{ id: string }>(
    sql`select distinct ${qaReviews.executionId}::text as id from ${qaReviews} where ${pendingFor(viewerId)}`,
  );
  return new Set(r.rows.map((x) => x.id.toLowerCase()));
}

/** Whether the export withholds this entry from a viewer for whom `sealed` executions are sealed. */
export const withheldFromExport = (
  e: { action: string; targetType: string | null; targetId: string | null },
  sealed: Set<string>,
) =>
  e.targetType === 'execution' &&
  Boolean(e.targetId) &&
  carriesSealedContent(e.action) &&
  sealed.has(e.targetId!.toLowerCase());
