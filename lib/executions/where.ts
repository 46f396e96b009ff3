import { type AnyColumn, and, eq, gte, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { caseEvents, cases, executions } from '@/lib/db/schema';
import { sealedExecution, sealedFor } from '@/lib/qa/seal';
import type { ListParams } from './list-params';

/**
 * The one compilation of the list's filters (lib/executions/list-params.ts) into SQL. The list
 * and its count (lib/executions/list.ts), the CSV export and queue matching (lib/cases/match.ts,
 * which ingest runs in its transaction) all use it, so a queue selects exactly what the list
 * shows for its definition. It lives here, beside the list, because lib/sync, which
 * writes, does not reach into the read side. For the server (the rest of this folder is
 * browser-safe); no 'server-only' marker, as ingest also runs in the worker, scripts and the
 * browser tests' seeding.
 */

const dayStart = (d: string) => new Date(`${d}T00:00:00.000Z`);
const dayAfter = (d: string) => new Date(dayStart(d).getTime() + 86_400_000);
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const textArray = (values: string[]) =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

/**
 * A combination of equality values goes to the GIN index, whose cost is every matching row (a
 * bitmap, then a sort for the page). When the combination is common, walking one value's ordered
 * index and filtering reads far fewer rows: at 1,000,000 executions WARNING + risk 40-70 + USA by
 * risk took 28.7 ms the planner's way and 2.6 ms walking (decision, risk). Which is cheaper depends
 * on how common the rest is, which the planner cannot estimate for dependent facets, so the list
 * tries the walk first for a bounded number of rows (lib/executions/list.ts `readRange`) and takes
 * the WHERE's own plan when that did not fill the page. `walkOf(where)` holds that walk's ways:
 * each the equality of an ordered index of the sort and the sort column's own range.
 */
const WALKS = new WeakMap<SQL, Walk>();
export interface Walk {
  /**
   * The ordered indexes it may walk, one per single value with an index in the sort's order:
   * `planWalk` (lib/executions/walk.ts) takes the one whose value the planner expects rarest.
   */
  ways: WalkWay[];
  /**
   * The WHERE without the sort column's range, whose rows the planner estimates for the choice:
   * a range of the sort column follows the walked value too closely (REJECTED means a risk of 71
   * and up) for the planner's product of selectivities, and the walk skips to it anyway.
   */
  matching: SQL | undefined;
  /**
   * A search's walk: one of its tokens' executions newest first, from their postings (migration
   * 0034) rather than an index of executions. `planWalk` (lib/executions/walk.ts) picks the rarest
   * token; rows found only by a reference's start (`ref`) join the walk in the same order.
   */
  postings?: { tokens: string[]; ref?: SQL; from?: Date; before?: Date };
}
export interface WalkWay {
  /** The walked index's equality and the sort column's range. */
  along: SQL[];
  /** The walked index's equality alone: the rows the walk passes. */
  value: SQL;
}
export const walkOf = (where: SQL | undefined): Walk | undefined => (where ? WALKS.get(where) : undefined);

/**
 * WHEREs that test only what the sort's index holds: a created range, and a risk range, by risk
 * (migration 0036 includes the created time in the risk index). The list reads such a page's ids
 * from the index alone and then its rows by key (lib/executions/list.ts `readRange`): the planner's
 * own walk down the risk index read each passed row's heap page for its created time, 7,110 of
 * them for one day's page of a year at 10,000,000 executions (EXPLAIN ANALYZE).
 */
const COVERED = new WeakSet<SQL>();
export const coveredBySortIndex = (where: SQL | undefined): boolean => (where ? COVERED.has(where) : false);

/**
 * A search's match among the estimate's parts (`listConditions`): a name or a document number
 * picks people, and who they are says nothing about how their checks went, so the total's
 * estimate (lib/executions/total.ts `backoffEstimate`) takes it whole, as independent of the
 * rest. Backed off like a label, "Williams" + REJECTED was estimated at 5,481 for 500 matches
 * at 1,000,000 (`npm run bench:growth`): the back-off assumes the rest follows the name.
 */
const INDEPENDENT = new WeakSet<SQL>();
export const isIndependentPart = (part: SQL): boolean => INDEPENDENT.has(part);

export interface SearchTerm {
  /** Whole normalised tokens (lib/pii/search-tokens.ts): each must be a name word or the document number. */
  words: string[];
  /** A one-word term (lower-cased, 3+ characters), also matched as the start of a reference. */
  refPrefix?: string;
  /** Set when the whole term is a customer or user reference: matched exactly on its own index. */
  exactReference?: string;
}

/**
 * The WHERE clause of a list query: rows and counts always share it.
 *
 * Equality filters (decision, status, country, document type, definition, criteria, feedback)
 * are answered by the `facets` array and its GIN index (`@>` for values that must all be present,
 * `&&` for "any of" groups), which finds any combination of them at once. One exception, measured
 * with `npm run bench:list`: a single-valued filter, the only equality value of the query, that has an index in the sort's order
 * ((column, created_at) for decision, status, country, document type and feedback; (decision, risk_score)) is
 * written as a plain comparison instead, so Postgres can walk that index in order and stop after
 * a page; this matters when matches are not spread evenly in
 * time (feedback exists only on older executions, attack waves cluster labels), but not beside a
 * search by name or number. Undelivered feedback uses its partial index. Facets, capability tags
 * and search tokens share one GIN index (`executions_filters_idx`), whose scan intersects all
 * their conditions at once, skipping through the frequent ones (measured with
 * `npm run bench:growth` at 10,000,000); ranges use their btree indexes, references the trigram
 * index.
 *
 * `viewer` is whom QA blindness hides sealed outcomes and labels from (lib/qa/seal.ts). Without
 * one (a queue's definition in ingest, a script) the label filters match labels as stored: queue
 * matching is nobody looking, and leaving a sealed execution out of a queue with a label filter
 * would withdraw its reopened case.
 */
export function listWhere(
  p: ListParams,
  search?: SearchTerm | null,
  viewer?: { userId: string } | null,
): SQL | undefined {
  return listConditions(p, search, viewer).where;
}

/**
 * The list's WHERE (as `listWhere`) and, for the "about N" of its total (lib/executions/list.ts
 * `countList`), the same conditions one value each: every facet and capability tag apart, a risk
 * range whole. The planner estimates the WHERE as if its conditions were independent; the total
 * estimates them apart and backs off (`backoffEstimate`).
 */
export function listConditions(
  p: ListParams,
  search?: SearchTerm | null,
  viewer?: { userId: string } | null,
): { where: SQL | undefined; estimateParts: SQL[] } {
  const w: SQL[] = [];
  // Conditions that `estimateParts` replaces with finer ones.
  const split = new Map<SQL, SQL[]>();
  const e = executions;
  const all: string[] = [];
  const single = (values: string[]) => (values.length === 1 ? values[0] : undefined);
  // The ordered index to lead with, when the query has one equality value and it has one.
  let lead: 'feedback' | 'country' | 'doctype' | 'decision' | 'status' | null = null;
  // A search by name or number is the selective part, and so is a combination of equality
  // values: they go to the one GIN index (`executions_filters_idx`), which intersects them in one
  // scan. An unbounded walk of an ordered index read every row of the lead's value when few or
  // none of them matched the rest: at 10,000,000 executions a surname with a decision took
  // 1,161 ms and VISA + REJECTED + a country 57 ms that way, 9 and 10 ms in the GIN index. So a
  // search or a combination walks (below) only when the planner expects its page near the start
  // of the walk, and for a bounded number of rows. A capability label with one decision keeps the
  // plain walk (1 ms there; the label follows the decision too closely for the planner's bitmap
  // estimate).
  const searching = Boolean(search && !search.exactReference && search.words.length);
  const equalities =
    p.decision.length +
    p.status.length +
    p.feedback.length +
    [p.country, p.docType, p.definition, p.criteria].filter(Boolean).length;
  const fb = single(p.feedback);
  if (searching) lead = null;
  else if (p.sort === 'created' && equalities === 1) {
    if (fb === 'FRAUD' || fb === 'NOT_FRAUD') lead = 'feedback';
    else if (p.country) lead = 'country';
    else if (p.docType) lead = 'doctype';
    else if (single(p.decision)) lead = 'decision';
    else if (single(p.status)) lead = 'status';
  } else if (p.sort === 'risk' && single(p.decision) && equalities === 1) lead = 'decision';
  // What a combination, or a search, may walk (WALKS above); lib/executions/list.ts walks only
  // when the expected depth is small. A search by newest first walks its rarest token's postings
  // (migration 0034): a name's rows are far fewer than any value's, and the GIN path gathers and
  // sorts every match (a surname alone with 11,500: 41.65 ms at 10,000,000). A search sorted
  // otherwise, with a value, and a combination walk an ordered index of the sort: by created,
  // each single value with a (column, created) index is a way and the rarest is walked (VISA
  // + REJECTED + a country took 16.62 ms in the GIN index at 10,000,000, whose three posting
  // lists grow with the table, while VISA's walk to a page reads the same rows at any size).
  const ways: SQL[][] = [];
  const postings = searching && p.sort === 'created';
  if (!postings && (searching || (!lead && equalities > 1)) && p.sort !== 'due') {
    if (p.sort === 'created') {
      if (fb === 'FRAUD' || fb === 'NOT_FRAUD') ways.push([eq(e.feedbackStatus, fb)]);
      if (p.country) ways.push([eq(e.issuingCountry, p.country)]);
      if (p.docType) ways.push([eq(e.documentType, p.docType)]);
      if (single(p.decision)) ways.push([eq(e.decisionType, p.decision[0])]);
      if (single(p.status)) ways.push([eq(e.status, p.status[0])]);
    } else if (p.sort === 'risk' && single(p.decision)) {
      // With a country, its own (country, decision, risk) index: walking the decision's alone
      // tested every country's rows, and a country's rows may all lie far down the risk order.
      ways.push([...(p.country ? [eq(e.issuingCountry, p.country)] : []), eq(e.decisionType, p.decision[0])]);
    }
  }
  const anyOf = (values: string[]) => {
    if (values.length === 1) all.push(values[0]);
    else if (values.length > 1) w.push(sql`${e.facets} && ${textArray(values)}`);
  };
  if (lead === 'decision') w.push(eq(e.decisionType, p.decision[0]));
  else anyOf(p.decision.map((v) => `decision=${v}`));
  if (lead === 'status') w.push(eq(e.status, p.status[0]));
  else anyOf(p.status.map((v) => `status=${v}`));
  const delivery = p.feedback.some((f) => f === 'pending' || f === 'failed' || f === 'awaiting_approval');
  if (lead === 'feedback') w.push(eq(e.feedbackStatus, p.feedback[0]));
  else if (delivery) {
    // Local delivery states are rare and have their partial index: plain comparisons.
    const any = p.feedback.map((f) =>
      f === 'none'
        ? or(isNull(e.feedbackStatus), eq(e.feedbackStatus, 'NA'))!
        : f === 'pending'
          ? inArray(e.feedbackDelivery, ['pending', 'failed', 'awaiting_approval'])
          : f === 'failed' || f === 'awaiting_approval'
            ? eq(e.feedbackDelivery, f)
            : eq(e.feedbackStatus, f),
    );
    w.push(any.length === 1 ? any[0] : or(...any)!);
  } else anyOf(p.feedback.map((f) => (f === 'none' ? 'feedback=none' : `feedback=${f}`)));
  if (lead === 'country') w.push(eq(e.issuingCountry, p.country!));
  else if (p.country) all.push(`country=${p.country}`);
  if (lead === 'doctype') w.push(eq(e.documentType, p.docType!));
  else if (p.docType) all.push(`doctype=${p.docType}`);
  if (p.definition) all.push(`definition=${p.definition}`);
  if (p.criteria) all.push(`criteria=${p.criteria}`);
  const each = (column: AnyColumn, values: string[]) => {
    const whole = sql`${column} @> ${textArray(values)}`;
    w.push(whole);
    split.set(
      whole,
      values.map((v) => sql`${column} @> ${textArray([v])}`),
    );
  };
  if (all.length) each(e.facets, all);
  if (p.cap.length) each(e.capabilityTags, p.cap);
  // A range's two ends are one condition to the estimate: they are as dependent as can be.
  const range = (low: SQL | undefined, high: SQL | undefined) => {
    if (low) w.push(low);
    if (high) w.push(high);
    if (low && high) {
      split.set(low, [and(low, high)!]);
      split.set(high, []);
    }
  };
  const risk = [
    p.riskMin !== undefined ? gte(e.riskScore, p.riskMin) : undefined,
    p.riskMax !== undefined ? lte(e.riskScore, p.riskMax) : undefined,
  ] as const;
  const created = [
    p.createdFrom ? gte(e.createdAt, dayStart(p.createdFrom)) : undefined,
    p.createdTo ? lt(e.createdAt, dayAfter(p.createdTo)) : undefined,
  ] as const;
  range(...risk);
  range(...created);
  // The walk starts and stops at the sort column's range instead of filtering its way there.
  const sortRange = (p.sort === 'risk' ? risk : created).filter((c): c is SQL => Boolean(c));
  const walkWays: WalkWay[] = ways.map((c) => ({ along: [...c, ...sortRange], value: and(...c)! }));
  range(
    p.completedFrom ? gte(e.completedAt, dayStart(p.completedFrom)) : undefined,
    p.completedTo ? lt(e.completedAt, dayAfter(p.completedTo)) : undefined,
  );
  if (p.feedbackReason) w.push(eq(e.feedbackReason, p.feedbackReason));
  // A label sealed with its case's first outcome (lib/qa/seal.ts) must not be told apart by
  // filtering on it, "none" included. Only with a label filter: the list without one skips the anti-join.
  if (viewer && (p.feedback.length || p.feedbackReason)) w.push(sql`not ${sealedExecution(e.id, viewer.userId)}`);
  // Matched rules live in rule_results, indexed on (rule_id, matched).
  if (p.rule)
    w.push(
      sql`exists (select 1 from rule_results r where r.execution_id = ${e.id} and r.rule_id = ${p.rule} and r.matched)`,
    );
  if (p.account) w.push(eq(e.accountId, p.account));
  if (p.q) w.push(or(eq(e.id, p.q), eq(e.accountId, p.q))!);
  let whole: SQL | undefined;
  let ref: SQL | undefined;
  if (search?.exactReference)
    w.push(or(eq(e.customerInternalReference, search.exactReference), eq(e.userReference, search.exactReference))!);
  else if (search) {
    // Personal values whole (the GIN index on the tokens); references by their start (trigrams).
    whole = search.words.length ? sql`${e.searchTokens} @> ${textArray(search.words)}` : undefined;
    ref = search.refPrefix ? sql`(' ' || ${e.searchText}) like ${`% ${likeEscape(search.refPrefix)}%`}` : undefined;
    const match = whole && ref ? or(whole, ref) : (whole ?? ref);
    if (match) {
      w.push(match);
      INDEPENDENT.add(match);
    }
  }
  const work = caseWhere(p, viewer?.userId);
  if (work) w.push(work);
  const where = w.length ? and(...w) : undefined;
  const matching = () => and(...w.filter((c) => !sortRange.includes(c)));
  if (where && postings && whole)
    WALKS.set(where, {
      ways: [{ along: [], value: whole }],
      matching: matching(),
      postings: {
        tokens: search!.words,
        ref,
        from: p.createdFrom ? dayStart(p.createdFrom) : undefined,
        before: p.createdTo ? dayAfter(p.createdTo) : undefined,
      },
    });
  else if (where && walkWays.length) WALKS.set(where, { ways: walkWays, matching: matching() });
  const ranges: (SQL | undefined)[] = [...risk, ...created];
  if (where && p.sort === 'risk' && created.some(Boolean) && w.every((c) => ranges.includes(c))) COVERED.add(where);
  return { where, estimateParts: w.flatMap((c) => split.get(c) ?? [c]) };
}

/**
 * Case-work filters: the execution's case (one at most, `cases_execution_key`) by state, queue,
 * assignee and due time. `me` needs the viewer; without one (a queue, a script) it matches nothing.
 */
function caseWhere(p: ListParams, userId: string | undefined): SQL | undefined {
  const c: SQL[] = [];
  const states = p.caseState.filter((s) => s !== 'none');
  const withoutCase = p.caseState.includes('none');
  if (states.length) c.push(inArray(cases.state, states));
  if (p.queue.length) c.push(inArray(cases.queueId, p.queue));
  if (p.assignee === 'none') c.push(sql`${cases.state} <> 'in_review'`);
  else if (p.assignee === 'me') c.push(userId ? eq(cases.assigneeId, userId) : sql`false`);
  else if (p.assignee) c.push(eq(cases.assigneeId, p.assignee));
  if (p.assignee && p.assignee !== 'none') c.push(eq(cases.state, 'in_review'));
  if (p.outcome.length) {
    c.push(inArray(cases.outcome, p.outcome));
    // A case whose outcome is sealed for the viewer (lib/qa/seal.ts) must not be told apart by filtering on it.
    c.push(sql`not ${sealedFor(cases.id, userId)}`);
  }
  if (p.resolver) c.push(eq(cases.resolvedBy, p.resolver));
  // The queues page's throughput counts resolutions of the last 7 days by this same test.
  if (p.resolvedWithin) c.push(sql`${cases.state} = 'resolved' and ${cases.resolvedAt} > now() - interval '7 days'`);
  // Like the outcome filter: a sealed outcome must not be told apart by these either.
  if (p.against) c.push(sql`not ${sealedFor(cases.id, userId)}`);
  if (p.against)
    c.push(
      p.against === 'approved_rejected'
        ? sql`${cases.state} = 'resolved' and ${cases.outcome} = 'approve' and ${cases.decisionAtOutcome} = 'REJECTED'`
        : sql`${cases.state} = 'resolved' and ${cases.outcome} = 'decline' and ${cases.decisionAtOutcome} = 'PASSED'`,
    );
  if (p.escalatedBy)
    c.push(
      sql`exists (select 1 from ${caseEvents} where ${caseEvents.caseId} = ${cases.id} and ${caseEvents.type} = 'escalated' and ${caseEvents.actorId} = ${p.escalatedBy})`,
    );
  if (p.due) {
    c.push(sql`${cases.state} <> 'resolved'`);
    c.push(p.due === 'overdue' ? sql`${cases.dueAt} < now()` : sql`${cases.dueAt} < now() + interval '24 hours'`);
  }
  const has = sql`exists (select 1 from ${cases} where ${cases.executionId} = ${executions.id}${
    c.length ? sql` and ${and(...c)}` : sql``
  })`;
  if (withoutCase) {
    const none = sql`not exists (select 1 from ${cases} where ${cases.executionId} = ${executions.id})`;
    return c.length ? or(none, has) : none;
  }
  return c.length ? has : undefined;
}
