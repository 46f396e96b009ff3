import 'server-only';
import { aliasedTable, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { db, type Db } from '@/lib/db/client';
import { caseNotes, caseQueues, caseReasons, caseRematchRuns, cases, users } from '@/lib/db/schema';
import type { CaseOutcome, CaseState, QueueKind } from '@/lib/cases/states';

/**
 * The read side of case work: an execution's case, its notes, the queues with their numbers,
 * the reasons, the people a case can go to. Aggregates are computed in SQL; every number on the
 * queues page has a list filter that shows the rows behind it (lib/executions/list-params.ts).
 */

export interface CaseView {
  id: string;
  version: number;
  state: CaseState;
  queue: { id: string; name: string; kind: QueueKind };
  assignee: { id: string; name: string } | null;
  claimedAt: string | null;
  arrivedAt: string;
  dueAt: string;
  overdue: boolean;
  outcome: CaseOutcome | null;
  reason: string | null;
  comment: string | null;
  resolvedBy: { id: string; name: string } | null;
  resolvedAt: string | null;
}

const assignee = aliasedTable(users, 'assignee');
const resolver = aliasedTable(users, 'resolver');

export async function getCaseOfExecution(executionId: string, d: Db = db()): Promise<CaseView | null> {
  const [r] = await d
    .select({
      id: cases.id,
      version: cases.version,
      state: cases.state,
      queueId: caseQueues.id,
      queueName: caseQueues.name,
      queueKind: caseQueues.kind,
      assigneeId: cases.assigneeId,
      assigneeName: assignee.name,
      claimedAt: cases.claimedAt,
      arrivedAt: cases.arrivedAt,
      dueAt: cases.dueAt,
      overdue: sql<boolean>`${cases.state} <> 'resolved' and ${cases.dueAt} < now()`,
      outcome: cases.outcome,
      reason: cases.reason,
      comment: cases.comment,
      resolvedById: cases.resolvedBy,
      resolvedByName: resolver.name,
      resolvedAt: cases.resolvedAt,
    })
    .from(cases)
    .innerJoin(caseQueues, eq(caseQueues.id, cases.queueId))
    .leftJoin(assignee, eq(assignee.id, cases.assigneeId))
    .leftJoin(resolver, eq(resolver.id, cases.resolvedBy))
    .where(eq(cases.executionId, executionId));
  if (!r) return null;
  return {
    id: r.id,
    version: r.version,
    state: r.state,
    queue: { id: r.queueId, name: r.queueName, kind: r.queueKind },
    assignee: r.assigneeId ? { id: r.assigneeId, name: r.assigneeName ?? 'someone' } : null,
    claimedAt: r.claimedAt?.toISOString() ?? null,
    arrivedAt: r.arrivedAt.toISOString(),
    dueAt: r.dueAt.toISOString(),
    overdue: r.overdue,
    outcome: r.outcome,
    reason: r.reason,
    comment: r.comment,
    resolvedBy: r.resolvedById ? { id: r.resolvedById, name: r.resolvedByName ?? 'someone' } : null,
    resolvedAt: r.resolvedAt?.toISOString() ?? null,
  };
}

/** What a list row shows of its case. */
export interface ListCase {
  state: CaseState;
  queueId: string;
  queueName: string;
  assigneeId: string | null;
  assigneeName: string | null;
  dueAt: string;
  overdue: boolean;
}

/** The cases of one list page's rows, by execution id. */
export async function getListCases(executionIds: string[], d: Db = db()): Promise<Map<string, ListCase>> {
  if (!executionIds.length) return new Map();
  const rows = await d
    .select({
      executionId: cases.executionId,
      state: cases.state,
      queueId: cases.queueId,
      queueName: caseQueues.name,
      assigneeId: cases.assigneeId,
      assigneeName: assignee.name,
      dueAt: cases.dueAt,
      overdue: sql<boolean>`${cases.state} <> 'resolved' and ${cases.dueAt} < now()`,
    })
    .from(cases)
    .innerJoin(caseQueues, eq(caseQueues.id, cases.queueId))
    .leftJoin(assignee, eq(assignee.id, cases.assigneeId))
    .where(inArray(cases.executionId, executionIds));
  return new Map(rows.map(({ executionId, dueAt, ...r }) => [executionId, { ...r, dueAt: dueAt.toISOString() }]));
}

export interface NoteView {
  noteId: string;
  authorId: string;
  author: string;
  /** Oldest first; the last one is the note as it reads now. */
  versions: Array<{ version: number; body: string; at: string }>;
}

export async function listNotes(executionId: string, d: Db = db()): Promise<NoteView[]> {
  const rows = await d
    .select({
      noteId: caseNotes.noteId,
      version: caseNotes.version,
      body: caseNotes.body,
      at: caseNotes.createdAt,
      authorId: caseNotes.authorId,
      author: users.name,
    })
    .from(caseNotes)
    .innerJoin(users, eq(users.id, caseNotes.authorId))
    .where(eq(caseNotes.executionId, executionId))
    .orderBy(asc(caseNotes.id));
  const out = new Map<string, NoteView>();
  for (const r of rows) {
    const n = out.get(r.noteId) ?? { noteId: r.noteId, authorId: r.authorId, author: r.author, versions: [] };
    n.versions.push({ version: r.version, body: r.body, at: r.at.toISOString() });
    out.set(r.noteId, n);
  }
  return [...out.values()];
}

export interface ReasonView {
  code: string;
  label: string;
  outcomes: CaseOutcome[];
}

export async function listCaseReasons(d: Db = db()): Promise<ReasonView[]> {
  return d
    .select({ code: caseReasons.code, label: caseReasons.label, outcomes: caseReasons.outcomes })
    .from(caseReasons)
    .where(eq(caseReasons.active, true))
    .orderBy(asc(caseReasons.sortOrder), asc(caseReasons.code));
}

export interface QueueSummary {
  id: string;
  name: string;
  kind: QueueKind;
  priority: number;
  slaHours: number;
  definition: string;
  minRole: 'analyst' | 'manager';
  archived: boolean;
}

export async function listQueues(opts: { archived?: boolean } = {}, d: Db = db()): Promise<QueueSummary[]> {
  return d
    .select({
      id: caseQueues.id,
      name: caseQueues.name,
      kind: caseQueues.kind,
      priority: caseQueues.priority,
      slaHours: caseQueues.slaHours,
      definition: caseQueues.definition,
      minRole: caseQueues.minRole,
      archived: caseQueues.archived,
    })
    .from(caseQueues)
    .where(opts.archived ? undefined : eq(caseQueues.archived, false))
    .orderBy(asc(caseQueues.sortOrder), asc(caseQueues.priority), asc(caseQueues.name));
}

/** Active users a case can be assigned to. */
export async function listAssignees(d: Db = db()): Promise<Array<{ id: string; name: string; email: string }>> {
  return d
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.active, true))
    .orderBy(asc(users.name));
}

/** Names for the list's chips: queue and person ids. */
export async function getCaseChipNames(d: Db = db()): Promise<Record<string, string>> {
  const [qs, us] = await Promise.all([
    d.select({ id: caseQueues.id, name: caseQueues.name }).from(caseQueues),
    d.select({ id: users.id, name: users.name }).from(users),
  ]);
  return Object.fromEntries([...qs, ...us].map((r) => [r.id, r.name]));
}

// ---------------------------------------------------------------------------------------------
// The queues page
// ---------------------------------------------------------------------------------------------

export interface QueueStats extends QueueSummary {
  backlog: number;
  inReview: number;
  overdue: number;
  /** Age of the oldest unresolved case, in seconds. */
  oldestSeconds: number | null;
  resolved7d: number;
  resolved: number;
  p50Seconds: number | null;
  p95Seconds: number | null;
}

export interface AnalystStats {
  userId: string;
  name: string;
  approved: number;
  declined: number;
  p50Seconds: number | null;
  p95Seconds: number | null;
}

export interface QueuesPage {
  queues: QueueStats[];
  analysts: AnalystStats[];
  /** Outcomes against the service's decision: approved a REJECTED, declined a PASSED. */
  disagreements: { approvedRejected: number; declinedPassed: number };
}

const seconds = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v)));

/**
 * Everything the queues page shows, in three statements: the queue aggregates read the cases
 * table once (its partial indexes serve the unresolved counts); resolution times are from
 * arrival in the queue to resolution, over all resolved cases, so the list behind each figure
 * (the queue's or the person's resolved cases) holds exactly the cases it was computed from.
 */
export async function getQueuesPage(d: Db = db()): Promise<QueuesPage> {
  const [queueRows, analystRows, disagreeRows] = await Promise.all([
    d.execute<Record<string, unknown>>(sql`
      with agg as (
        select queue_id,
          count(*) filter (where state <> 'resolved') as backlog,
          count(*) filter (where state = 'in_review') as in_review,
          count(*) filter (where state <> 'resolved' and due_at < now()) as overdue,
          min(arrived_at) filter (where state <> 'resolved') as oldest,
          count(*) filter (where state = 'resolved' and resolved_at > now() - interval '7 days') as resolved7d,
          count(*) filter (where state = 'resolved') as resolved,
          percentile_cont(0.5) within group (order by extract(epoch from resolved_at - arrived_at))
            filter (where state = 'resolved') as p50,
          percentile_cont(0.95) within group (order by extract(epoch from resolved_at - arrived_at))
            filter (where state = 'resolved') as p95
        from ${cases} group by queue_id
      )
      select q.id, q.name, q.kind, q.priority, q.sla_hours, q.definition, q.min_role, q.archived,
        coalesce(a.backlog, 0)::int as backlog, coalesce(a.in_review, 0)::int as in_review,
        coalesce(a.overdue, 0)::int as overdue, extract(epoch from now() - a.oldest) as oldest, coalesce(a.resolved7d, 0)::int as resolved7d,
        coalesce(a.resolved, 0)::int as resolved, a.p50, a.p95
      from ${caseQueues} q left join agg a on a.queue_id = q.id
      order by q.archived, q.sort_order, q.priority, q.name`),
    d.execute<Record<string, unknown>>(sql`
      select c.resolved_by as user_id, u.name,
        count(*) filter (where c.outcome = 'approve')::int as approved,
        count(*) filter (where c.outcome = 'decline')::int as declined,
        percentile_cont(0.5) within group (order by extract(epoch from c.resolved_at - c.arrived_at)) as p50,
        percentile_cont(0.95) within group (order by extract(epoch from c.resolved_at - c.arrived_at)) as p95
      from ${cases} c join ${users} u on u.id = c.resolved_by
      where c.state = 'resolved'
      group by c.resolved_by, u.name order by u.name`),
    d.execute<{ approved_rejected: number; declined_passed: number }>(sql`
      select
        count(*) filter (where c.outcome = 'approve' and e.decision_type = 'REJECTED')::int as approved_rejected,
        count(*) filter (where c.outcome = 'decline' and e.decision_type = 'PASSED')::int as declined_passed
      from ${cases} c join executions e on e.id = c.execution_id
      where c.state = 'resolved'`),
  ]);
  return {
    queues: queueRows.rows.map((r) => ({
      id: String(r.id),
      name: String(r.name),
      kind: r.kind as QueueKind,
      priority: Number(r.priority),
      slaHours: Number(r.sla_hours),
      definition: String(r.definition),
      minRole: r.min_role as 'analyst' | 'manager',
      archived: Boolean(r.archived),
      backlog: Number(r.backlog),
      inReview: Number(r.in_review),
      overdue: Number(r.overdue),
      oldestSeconds: seconds(r.oldest),
      resolved7d: Number(r.resolved7d),
      resolved: Number(r.resolved),
      p50Seconds: seconds(r.p50),
      p95Seconds: seconds(r.p95),
    })),
    analysts: analystRows.rows.map((r) => ({
      userId: String(r.user_id),
      name: String(r.name),
      approved: Number(r.approved),
      declined: Number(r.declined),
      p50Seconds: seconds(r.p50),
      p95Seconds: seconds(r.p95),
    })),
    disagreements: {
      approvedRejected: Number(disagreeRows.rows[0]?.approved_rejected ?? 0),
      declinedPassed: Number(disagreeRows.rows[0]?.declined_passed ?? 0),
    },
  };
}

export interface RematchProgress {
  id: string;
  state: string;
  done: number;
  total: number | null;
  createdAt: string;
  finishedAt: string | null;
}

/** The latest re-match run, for the progress line of the queues page. */
export async function getRematchProgress(d: Db = db()): Promise<RematchProgress | null> {
  const [r] = await d
    .select({
      id: caseRematchRuns.id,
      state: caseRematchRuns.state,
      done: caseRematchRuns.done,
      total: caseRematchRuns.total,
      createdAt: caseRematchRuns.createdAt,
      finishedAt: caseRematchRuns.finishedAt,
    })
    .from(caseRematchRuns)
    .orderBy(desc(caseRematchRuns.createdAt))
    .limit(1);
  if (!r) return null;
  return { ...r, createdAt: r.createdAt.toISOString(), finishedAt: r.finishedAt?.toISOString() ?? null };
}
