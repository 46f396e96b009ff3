import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { db, type Db } from '@/lib/db/client';
import { listQaRuns } from '@/lib/qa/sample';
import type { QaListParams } from '@/lib/qa/schema';
import { getQaSettings } from '@/lib/qa/settings';
import type { QaOutcome, QaResult, QaState } from '@/lib/db/qa-states';

/**
 * The read side of QA sampling: an execution's review as one viewer may see it (sealed while it
 * is pending, lib/qa/seal.ts), the QA queue, the quality page's aggregates (in SQL) and the
 * reviews list behind every one of its numbers. Each figure and its list share one predicate
 * (`resultWhere`), so a number and the rows it links to cannot disagree.
 */

type Person = { id: string; name: string };
export interface Verdict {
  outcome: QaOutcome;
  reason: string;
  comment: string | null;
  at: string;
  by: Person | null;
}

export interface QaView {
  id: string;
  version: number;
  state: QaState;
  week: string;
  sampledAt: string;
  firstAnalyst: Person;
  assignee: Person | null;
  /** The viewer resolved the case: they never review it. */
  ownCase: boolean;
  /** The first outcome is withheld from the viewer (pending review, not their case). */
  sealed: boolean;
  first: Verdict | null;
  review: Verdict | null;
  settled: Verdict | null;
  /** Notes of others withheld from the viewer until the review is decided. */
  withheldNotes: number;
}

const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : '');
const person = (id: unknown, name: unknown): Person | null =>
  id ? { id: String(id), name: String(name ?? 'someone') } : null;
const verdict = (r: Record<string, unknown>, p: 'first' | 'review' | 'settled', by: Person | null): Verdict | null =>
  r[`${p}_outcome`]
    ? {
        outcome: r[`${p}_outcome`] as QaOutcome,
        reason: String(r[`${p}_reason`]),
        comment: (r[`${p}_comment`] as string | null) ?? null,
        at: iso(r[p === 'first' ? 'first_resolved_at' : p === 'review' ? 'reviewed_at' : 'settled_at']),
        by,
      }
    : null;

const reviewColumns = sql`q.*, q.week::text as week_text, fa.name as first_name, asg.name as assignee_name,
  rv.name as reviewer_name, st.name as settler_name, cq.name as queue_name`;
const reviewJoins = sql`from qa_reviews q
  join users fa on fa.id = q.first_analyst_id
  left join users asg on asg.id = q.assignee_id
  left join users rv on rv.id = q.reviewer_id
  left join users st on st.id = q.settled_by
  left join case_queues cq on cq.id = q.queue_id`;

/** The QA review of an execution's case as `viewerId` may see it; null when it was never sampled. */
export async function getQaOfExecution(executionId: string, viewerId: string, d: Db = db()): Promise<QaView | null> {
  const r = (
    await d.execute<Record<string, unknown>>(sql`select ${reviewColumns},
      (select count(*) from case_notes n where n.execution_id = q.execution_id and n.author_id <> ${viewerId}::uuid)::int as others_notes
      ${reviewJoins} where q.execution_id = ${executionId}::uuid`)
  ).rows[0];
  if (!r) return null;
  const state = r.state as QaState;
  const ownCase = r.first_analyst_id === viewerId;
  const sealed = (state === 'open' || state === 'in_review') && !ownCase;
  const firstAnalyst = person(r.first_analyst_id, r.first_name)!;
  return {
    id: String(r.id),
    version: Number(r.version),
    state,
    week: String(r.week_text),
    sampledAt: iso(r.sampled_at),
    firstAnalyst,
    assignee: person(r.assignee_id, r.assignee_name),
    ownCase,
    sealed,
    first: sealed ? null : verdict(r, 'first', firstAnalyst),
    review: verdict(r, 'review', person(r.reviewer_id, r.reviewer_name)),
    settled: verdict(r, 'settled', person(r.settled_by, r.settler_name)),
    withheldNotes: sealed ? Number(r.others_notes) : 0,
  };
}

/** One row of a reviews list. The first outcome is null while it is sealed for the viewer. */
export interface QaRow {
  id: string;
  executionId: string;
  state: QaState;
  week: string;
  sampledAt: string;
  queue: string | null;
  firstAnalyst: Person;
  assignee: Person | null;
  first: Verdict | null;
  review: Verdict | null;
  settled: Verdict | null;
}

function toRow(r: Record<string, unknown>, viewerId: string): QaRow {
  const state = r.state as QaState;
  const firstAnalyst = person(r.first_analyst_id, r.first_name)!;
  const sealed = (state === 'open' || state === 'in_review') && r.first_analyst_id !== viewerId;
  return {
    id: String(r.id),
    executionId: String(r.execution_id),
    state,
    week: String(r.week_text),
    sampledAt: iso(r.sampled_at),
    queue: (r.queue_name as string | null) ?? null,
    firstAnalyst,
    assignee: person(r.assignee_id, r.assignee_name),
    first: sealed ? null : verdict(r, 'first', firstAnalyst),
    review: verdict(r, 'review', person(r.reviewer_id, r.reviewer_name)),
    settled: verdict(r, 'settled', person(r.settled_by, r.settler_name)),
  };
}

/** The predicate of each result, shared by the page's figures and the list behind them. */
const RESULT_WHERE: Record<QaResult, SQL> = {
  pending: sql`q.state in ('open', 'in_review')`,
  decided: sql`q.state in ('agreed', 'disputed', 'settled')`,
  agreed: sql`q.state = 'agreed'`,
  disagreed: sql`q.state in ('disputed', 'settled')`,
  disputed: sql`q.state = 'disputed'`,
  settled: sql`q.state = 'settled'`,
  overturned: sql`q.state = 'settled' and q.settled_outcome <> q.first_outcome`,
  upheld: sql`q.state = 'settled' and q.settled_outcome = q.first_outcome`,
};

export const QA_LIST_LIMIT = 200;

/** The reviews behind a figure of the quality page, newest first. */
export async function listQaReviews(p: QaListParams, viewerId: string, d: Db = db()): Promise<QaRow[]> {
  const w: SQL[] = [sql`true`];
  if (p.analyst) w.push(sql`q.first_analyst_id = ${p.analyst}::uuid`);
  if (p.queue) w.push(sql`q.queue_id = ${p.queue}::uuid`);
  if (p.week) w.push(sql`q.week = ${p.week}::date`);
  if (p.result) w.push(RESULT_WHERE[p.result]);
  const rows = await d.execute<Record<string, unknown>>(
    sql`select ${reviewColumns} ${reviewJoins} where ${sql.join(w, sql` and `)}
      order by q.week desc, q.sampled_at desc, q.id limit ${QA_LIST_LIMIT}`,
  );
  return rows.rows.map((r) => toRow(r, viewerId));
}

/** The QA queue: waiting and claimed reviews (oldest first), and the disagreements to settle. */
export async function getQaQueue(viewerId: string, d: Db = db()) {
  const [pending, disputed] = await Promise.all([
    d.execute<Record<string, unknown>>(
      sql`select ${reviewColumns} ${reviewJoins} where q.state in ('open', 'in_review')
        order by (q.assignee_id = ${viewerId}::uuid) desc nulls last, q.sampled_at, q.id limit ${QA_LIST_LIMIT}`,
    ),
    d.execute<Record<string, unknown>>(
      sql`select ${reviewColumns} ${reviewJoins} where q.state = 'disputed' order by q.reviewed_at, q.id limit ${QA_LIST_LIMIT}`,
    ),
  ]);
  return {
    pending: pending.rows.map((r) => toRow(r, viewerId)),
    disputed: disputed.rows.map((r) => toRow(r, viewerId)),
  };
}

export interface AgreementRow {
  key: string;
  name: string;
  sampled: number;
  pending: number;
  decided: number;
  agreed: number;
  /** agreed / decided, null before any decision. */
  rate: number | null;
  disputed: number;
  overturned: number;
}
export interface TrendPoint {
  week: string;
  decided: number;
  agreed: number;
  rate: number | null;
  overturned: number;
}

const counts = sql`count(*)::int as sampled,
  count(*) filter (where ${RESULT_WHERE.pending})::int as pending,
  count(*) filter (where ${RESULT_WHERE.decided})::int as decided,
  count(*) filter (where ${RESULT_WHERE.agreed})::int as agreed,
  count(*) filter (where ${RESULT_WHERE.disputed})::int as disputed,
  count(*) filter (where ${RESULT_WHERE.overturned})::int as overturned`;

const agreement = (r: Record<string, unknown>): Omit<AgreementRow, 'key' | 'name'> => {
  const decided = Number(r.decided);
  const agreed = Number(r.agreed);
  return {
    sampled: Number(r.sampled),
    pending: Number(r.pending),
    decided,
    agreed,
    rate: decided ? agreed / decided : null,
    disputed: Number(r.disputed),
    overturned: Number(r.overturned),
  };
};

function runView(r: Awaited<ReturnType<typeof listQaRuns>>[number]) {
  return {
    id: r.id,
    week: r.week,
    state: r.state,
    total: r.total,
    done: r.done,
    sampled: r.sampled,
    trigger: r.trigger,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    error: r.error,
  };
}
export type QaRunView = ReturnType<typeof runView>;

export const TREND_WEEKS = 12;

/** Everything the quality page shows: the rate, runs, totals, agreement per person and queue, overturned outcomes, weeks. */
export async function getQualityPage(viewerId: string, d: Db = db()) {
  const [settings, runs, total, byAnalyst, byQueue, weeks, overturned] = await Promise.all([
    getQaSettings(d),
    listQaRuns(d),
    d.execute<Record<string, unknown>>(sql`select ${counts} from qa_reviews q`),
    d.execute<Record<string, unknown>>(sql`select q.first_analyst_id as key, u.name, ${counts}
      from qa_reviews q join users u on u.id = q.first_analyst_id group by q.first_analyst_id, u.name order by u.name`),
    d.execute<
      Record<string, unknown>
    >(sql`select q.queue_id as key, coalesce(cq.name, 'Deleted queue') as name, ${counts}
      from qa_reviews q left join case_queues cq on cq.id = q.queue_id group by q.queue_id, cq.name order by 2`),
    d.execute<Record<string, unknown>>(sql`
      with w as (select generate_series(date_trunc('week', now() at time zone 'UTC')::date - ${(TREND_WEEKS - 1) * 7}::int,
        date_trunc('week', now() at time zone 'UTC')::date, interval '7 days')::date as week)
      select w.week::text as week,
        count(q.id) filter (where ${RESULT_WHERE.decided})::int as decided,
        count(q.id) filter (where ${RESULT_WHERE.agreed})::int as agreed,
        count(q.id) filter (where ${RESULT_WHERE.overturned})::int as overturned
      from w left join qa_reviews q on q.week = w.week group by w.week order by w.week`),
    listQaReviews({ result: 'overturned' }, viewerId, d),
  ]);
  return {
    settings,
    runs: runs.map(runView),
    total: agreement(total.rows[0] ?? {}),
    byAnalyst: byAnalyst.rows.map((r) => ({ key: String(r.key), name: String(r.name), ...agreement(r) })),
    byQueue: byQueue.rows.map((r) => ({ key: r.key ? String(r.key) : '', name: String(r.name), ...agreement(r) })),
    trend: weeks.rows.map((r): TrendPoint => ({
      week: String(r.week),
      decided: Number(r.decided),
      agreed: Number(r.agreed),
      rate: Number(r.decided) ? Number(r.agreed) / Number(r.decided) : null,
      overturned: Number(r.overturned),
    })),
    overturned: overturned.slice(0, 20),
    overturnedTotal: overturned.length,
  };
}
export type QualityPage = Awaited<ReturnType<typeof getQualityPage>>;

/** The newest sampling run, for the progress line while one runs. */
export async function getQaSamplingProgress(d: Db = db()) {
  const [r] = await listQaRuns(d, 1);
  return r ? runView(r) : null;
}
