import 'server-only';
import { eq, or } from 'drizzle-orm';
import { db, type Db } from '@/lib/db/client';
import { executions } from '@/lib/db/schema';
import type { ListParams } from '@/lib/executions/list-params';
import { getListCases } from './list-cases';
import { getUndeliveredLabels } from '@/lib/feedback/queries';
import { revealedIds } from '@/lib/pii/reveals';
import { resolveSearchTerm } from '@/lib/executions/search-terms';
import { searchTermTokens } from '@/lib/pii/search-tokens';
import { listConditions } from '@/lib/executions/where';
import { sealedExecutionIds } from '@/lib/qa/seal';
import { readListWithTotal, readNeighbours, toListRow, type ExecutionListRow } from '@/lib/executions/list';
import type { ListTotal } from '@/lib/executions/total';

/**
 * Why a search did not run as asked: its link expired, it was too short, the link is another
 * user's (`not_yours`: opened elsewhere than the list, which adopts it), or adopting that link went
 * over the user's search limit (`rate_limited`, set by the list page).
 */
export type SearchNotice = 'expired' | 'too_short' | 'not_yours' | 'rate_limited' | null;

export interface ExecutionList {
  rows: ExecutionListRow[];
  next: string | null;
  prev: string | null;
  total: ListTotal;
  /** The free-text search behind `st`, for the search box (never put back into a URL). */
  searchTerm: string | null;
  searchNotice: SearchNotice;
}

/** Resolves the list's search token, for the user who saved it, to the words it filters on. */
async function searchOf(p: ListParams, userId: string | undefined) {
  const none = (notice: SearchNotice) => ({
    term: null,
    words: null,
    refPrefix: undefined,
    exactReference: undefined,
    notice,
  });
  if (!p.st) return none(null);
  const found = userId ? await resolveSearchTerm(p.st, userId) : 'foreign';
  if (!found) return none('expired');
  if (found === 'foreign') return none('not_yours');
  return { term: found.term, ...(await resolveSearch(found.term)) };
}

/**
 * How a free-text term searches: an exact reference; otherwise whole name words and document
 * numbers, and (for one word) the start of a reference. Never a fragment of personal data.
 */
export async function resolveSearch(term: string, d: Db = db()) {
  // A whole customer or user reference is looked up exactly (its own btree index): its trigrams
  // are the commonest of all ("onb-2026…"), so a substring search for it would read far more.
  if (!/\s/.test(term)) {
    const [ref] = await d
      .select({ id: executions.id })
      .from(executions)
      .where(or(eq(executions.customerInternalReference, term), eq(executions.userReference, term)))
      .limit(1);
    if (ref) return { words: [] as string[], refPrefix: undefined, exactReference: term, notice: null as SearchNotice };
  }
  const tokens = searchTermTokens(term);
  const refPrefix = !/\s/.test(term) && [...term].length >= 3 ? term.toLowerCase() : undefined;
  const words = tokens || refPrefix ? (tokens ?? []) : null;
  return { words, refPrefix, exactReference: undefined, notice: (words ? null : 'too_short') as SearchNotice };
}

/** The list's WHERE for a viewer (`userId`: whose "assigned to me" it is). */
export async function listWhereOf(p: ListParams, userId?: string) {
  const s = await searchOf(p, userId);
  const { where, estimateParts } = listConditions(
    p,
    s.words ? { words: s.words, refPrefix: s.refPrefix, exactReference: s.exactReference } : null,
    userId ? { userId } : null,
  );
  return { where, estimateParts, search: s };
}

/** One page of the list for a user: rows masked unless that user has revealed them. */
export async function listExecutions(p: ListParams, userId: string): Promise<ExecutionList> {
  const { where, estimateParts, search } = await listWhereOf(p, userId);
  const { page, total } = await readListWithTotal(p, where, undefined, estimateParts);
  const ids = page.rows.map((r) => r.id);
  const [revealed, sealed, labels, caseOf] = await Promise.all([
    revealedIds(userId, ids),
    sealedExecutionIds(db(), userId, ids),
    getUndeliveredLabels(
      page.rows.filter((r) => r.feedbackDelivery && r.feedbackDelivery !== 'delivered').map((r) => r.id),
    ),
    getListCases(ids),
  ]);
  return {
    rows: page.rows.map((r) => ({
      ...toListRow(p.sort, r, revealed.has(r.id), sealed.has(r.id)),
      // Read beside the seal rather than after it, and dropped here for a sealed row.
      feedbackLabel: sealed.has(r.id) ? null : (labels.get(r.id) ?? null),
      caseInfo: caseOf.get(r.id) ?? null,
    })),
    next: page.next,
    prev: page.prev,
    total,
    searchTerm: search.term,
    searchNotice: search.notice,
  };
}

/**
 * An exact id typed into the search box jumps straight to the execution. Returns the execution
 * id when `q` is one, null otherwise (an account id then filters the list).
 */
export async function findExecutionJump(q: string): Promise<string | null> {
  const [row] = await db().select({ id: executions.id }).from(executions).where(eq(executions.id, q)).limit(1);
  return row?.id ?? null;
}

/** "Next" and "previous" of an execution within the list it was opened from. */
export async function getNeighbourIds(
  p: ListParams,
  id: string,
  userId?: string,
): Promise<{ next: string | null; prev: string | null }> {
  const [current] = await db()
    .select({
      id: executions.id,
      createdAt: executions.createdAt,
      completedAt: executions.completedAt,
      riskScore: executions.riskScore,
    })
    .from(executions)
    .where(eq(executions.id, id))
    .limit(1);
  if (!current) return { next: null, prev: null };
  const { where } = await listWhereOf(p, userId);
  return readNeighbours(p, where, current);
}

export async function executionExists(id: string): Promise<boolean> {
  return (await findExecutionJump(id.toLowerCase())) !== null;
}
