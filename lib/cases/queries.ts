import 'server-only';
import { aliasedTable, and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Role } from '@/lib/auth/roles';
import { db, type Db, type DbOrTx } from '@/lib/db/client';
import { caseEvents, caseNotes, caseQueues, caseReasons, caseRematchRuns, cases, users } from '@/lib/db/schema';
import {
  escalatedBySql,
  may,
  type CaseAction,
  type CaseDecision,
  type PolicyActor,
  type PolicyCase,
} from '@/lib/cases/policy';
import type { CaseOutcome, CaseState, QueueKind } from '@/lib/db/case-states';
import { isSealedExecution, sealedCaseIds, sealedFor } from '@/lib/qa/seal';
import { readOutcomeCounts, readResolutionPercentiles, type OutcomeCount, type Percentiles } from './resolved-figures';

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
  /** The reason's label as it reads now (a retired reason keeps its label). */
  reasonLabel: string | null;
  comment: string | null;
  resolvedBy: { id: string; name: string } | null;
  resolvedAt: string | null;
  /** A QA review of this case is pending and the viewer is not the first analyst: outcome, reason and comment are withheld. */
  sealed: boolean;
  /** What the viewer may do to it, from the case policy (lib/cases/policy.ts): the panels show a control only when allowed. */
  controls: CaseControls;
  /** What the policy reads of the case, to ask it about other people (whom "Assign to…" offers). */
  policy: PolicyCase;
}

/** The case controls of the detail page; a refusal carries the policy's sentence, which the page shows instead. */
export type CaseControls = Record<Exclude<CaseAction, 'bulk_assign' | 'claim'>, CaseDecision>;
const CONTROL_ACTIONS = ['assign', 'assign_other', 'unassign', 'resolve', 'escalate', 'reopen', 'note'] as const;

const assignee = aliasedTable(users, 'assignee');
const resolver = aliasedTable(users, 'resolver');

/**
 * An execution's case as the viewer may see it: sealed while a QA review they could take is
 * pending (lib/qa/seal.ts), with the controls the case policy allows them.
 */
export async function getCaseOfExecution(
  executionId: string,
  viewer: PolicyActor,
  d: Db = db(),
): Promise<CaseView | null> {
  const viewerId = viewer.id;
  const [r] = await d
    .select({
      id: cases.id,
      version: cases.version,
      state: cases.state,
      queueId: caseQueues.id,
      queueName: caseQueues.name,
      queueKind: caseQueues.kind,
      queueMinRole: caseQueues.minRole,
      escalatedBy: escalatedBySql,
      assigneeId: cases.assigneeId,
      assigneeName: assignee.name,
      claimedAt: cases.claimedAt,
      arrivedAt: cases.arrivedAt,
      dueAt: cases.dueAt,
      overdue: sql<boolean>`${cases.state} <> 'resolved' and ${cases.dueAt} < now()`,
      outcome: cases.outcome,
      reason: cases.reason,
      reasonLabel: caseReasons.label,
      comment: cases.comment,
      resolvedById: cases.resolvedBy,
      resolvedByName: resolver.name,
      resolvedAt: cases.resolvedAt,
      sealed: sealedFor(cases.id, viewerId),
    })
    .from(cases)
    .innerJoin(caseQueues, eq(caseQueues.id, cases.queueId))
    .leftJoin(assignee, eq(assignee.id, cases.assigneeId))
    .leftJoin(resolver, eq(resolver.id, cases.resolvedBy))
    .leftJoin(caseReasons, eq(caseReasons.code, cases.reason))
    .where(eq(cases.executionId, executionId));
  if (!r) return null;
  const sealed = Boolean(r.sealed);
  const policyCase: PolicyCase = {
    state: r.state,
    assigneeId: r.assigneeId,
    queue: { name: r.queueName, minRole: r.queueMinRole, kind: r.queueKind },
    escalatedBy: r.escalatedBy,
  };
  // "Assign to a colleague" is asked for a colleague who works the queue; the list offers only them.
  const colleague = { id: '', role: r.queueMinRole };
  const controls = Object.fromEntries(
    CONTROL_ACTIONS.map((a) => [a, may(viewer, a, policyCase, { to: a === 'assign_other' ? colleague : undefined })]),
  ) as CaseControls;
  return {
    controls,
    policy: policyCase,
    id: r.id,
    version: r.version,
    state: r.state,
    queue: { id: r.queueId, name: r.queueName, kind: r.queueKind },
    assignee: r.assigneeId ? { id: r.assigneeId, name: r.assigneeName ?? 'someone' } : null,
    claimedAt: r.claimedAt?.toISOString() ?? null,
    arrivedAt: r.arrivedAt.toISOString(),
    dueAt: r.dueAt.toISOString(),
    overdue: r.overdue,
    outcome: sealed ? null : r.outcome,
    reason: sealed ? null : r.reason,
    reasonLabel: sealed || !r.reason ? null : (r.reasonLabel ?? r.reason),
    comment: sealed ? null : r.comment,
    resolvedBy: r.resolvedById ? { id: r.resolvedById, name: r.resolvedByName ?? 'someone' } : null,
    resolvedAt: r.resolvedAt?.toISOString() ?? null,
    sealed,
  };
}

/** What a list row shows of its case. */
export interface NoteView {
  noteId: string;
  authorId: string;
  author: string;
  /** Oldest first; the last one is the note as it reads now. */
  versions: Array<{ version: number; body: string; at: string }>;
}

/**
 * The notes thread as `viewerId` may read it. While the case is sealed for them (a pending QA
 * review), only their own notes: the others' may discuss the first outcome.
 */
export async function listNotes(executionId: string, viewerId: string, d: Db = db()): Promise<NoteView[]> {
  const sealed = await isSealedExecution(d, executionId, viewerId);
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
    .where(
      sealed
        ? and(eq(caseNotes.executionId, executionId), eq(caseNotes.authorId, viewerId))
        : eq(caseNotes.executionId, executionId),
    )
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

export interface AdminReasonView extends ReasonView {
  active: boolean;
  /** Resolutions and escalations that gave it (they keep it whatever happens to the list). */
  uses: number;
}

/** Every reason, retired ones included, in the resolve form's order, for the admin screen. */
export async function listCaseReasonsForAdmin(d: Db = db()): Promise<AdminReasonView[]> {
  const uses = sql<number>`(select count(*) from ${caseEvents} where ${caseEvents.reason} = ${caseReasons.code}
    and ${caseEvents.type} in ('resolved', 'escalated'))::int`;
  return d
    .select({
      code: caseReasons.code,
      label: caseReasons.label,
      outcomes: caseReasons.outcomes,
      active: caseReasons.active,
      uses,
    })
    .from(caseReasons)
    .orderBy(asc(caseReasons.sortOrder), asc(caseReasons.code));
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
export async function listAssignees(
  d: Db = db(),
): Promise<Array<{ id: string; name: string; email: string; role: Role }>> {
  return d
    .select({ id: users.id, name: users.name, email: users.email, role: users.role })
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
  /** Age of the oldest unresolved case, in seconds, and its execution (the figure links to it). */
  oldestSeconds: number | null;
  oldestExecutionId: string | null;
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
  /** Cases this person escalated (each counted once, however often). */
  escalated: number;
  p50Seconds: number | null;
  p95Seconds: number | null;
}

export interface QueuesPage {
  queues: QueueStats[];
  analysts: AnalystStats[];
  /**
   * Outcomes against the service's decision when they were given: approved a REJECTED, declined
   * a PASSED. Counted with the queues' figures, from the same index (no join to executions).
   */
  disagreements: { approvedRejected: number; declinedPassed: number };
}

const seconds = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v)));

/**
 * Everything the queues page shows. What grows with the history (resolved counts, outcomes,
 * resolution times) comes from the tables the case triggers keep (./resolved-figures.ts); what
 * is bounded by the backlog or by a week (unresolved cases, the oldest one, the last 7 days'
 * throughput) is read from the cases' partial indexes. Resolution times run from arrival in the
 * queue to resolution, over all resolved cases, so the list behind each figure (the queue's or
 * the person's resolved cases) holds exactly the cases it was computed from.
 */
export async function getQueuesPage(viewerId: string | null, d: DbOrTx = db()): Promise<QueuesPage> {
  // Outcome counts leave out the cases whose outcome is sealed for the viewer, as the list's outcome
  // filters do (lib/qa/seal.ts): every figure stays equal to the list it links to.
  const sealed = sealedCaseIds(viewerId);
  const [queueRows, people, counts, times] = await Promise.all([
    // Each queue is a probe of two partial indexes that hold every column its figures need
    // (index-only scans, lib/db/schema/cases.ts): no sort of the whole cases table.
    d.execute<Record<string, unknown>>(sql`
      select q.id, q.name, q.kind, q.priority, q.sla_hours, q.definition, q.min_role, q.archived,
        u.backlog::int as backlog, u.in_review::int as in_review, u.overdue::int as overdue,
        extract(epoch from now() - u.oldest) as oldest, r.resolved7d::int as resolved7d,
        o.execution_id as oldest_execution_id
      from ${caseQueues} q
      cross join lateral (
        select count(*) as backlog, count(*) filter (where state = 'in_review') as in_review,
          count(*) filter (where due_at < now()) as overdue, min(arrived_at) as oldest
        from ${cases} where queue_id = q.id and state <> 'resolved'
      ) u
      cross join lateral (
        select count(*) as resolved7d from ${cases}
        where queue_id = q.id and state = 'resolved' and resolved_at > now() - interval '7 days'
      ) r
      -- The oldest waiting case itself, through the same index in (queue, arrival) order.
      left join lateral (
        select execution_id from ${cases} c where c.queue_id = q.id and c.state <> 'resolved'
        order by c.arrived_at, c.id limit 1
      ) o on true
      order by q.archived, q.sort_order, q.priority, q.name`),
    d.execute<{ user_id: string; name: string; escalated: number }>(sql`
      select u.id as user_id, u.name, coalesce(esc.escalated, 0)::int as escalated
      from ${users} u
      left join lateral (
        select count(distinct case_id) as escalated from ${caseEvents}
        where type = 'escalated' and actor_id = u.id
      ) esc on true
      order by u.name`),
    readOutcomeCounts(d, sealed),
    readResolutionPercentiles(d),
  ]);
  const sum = (keep: (c: OutcomeCount) => boolean, field: 'n' | 'visible') =>
    counts.reduce((n, c) => (keep(c) ? n + c[field] : n), 0);
  const none: Percentiles = { p50Seconds: null, p95Seconds: null };
  const queues = queueRows.rows.map((r) => {
    const id = String(r.id);
    const own = (c: OutcomeCount) => c.queueId === id;
    return {
      id,
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
      oldestExecutionId: r.oldest_execution_id ? String(r.oldest_execution_id) : null,
      resolved7d: Number(r.resolved7d),
      resolved: sum(own, 'n'),
      ...rounded(times.byQueue.get(id) ?? none),
    };
  });
  const queueIds = new Set(queues.map((q) => q.id));
  const disagreement = (outcome: CaseOutcome, decision: string) =>
    sum((c) => queueIds.has(c.queueId!) && c.outcome === outcome && c.decisionAtOutcome === decision, 'visible');
  const analysts = people.rows.flatMap((u) => {
    const own = (c: OutcomeCount) => c.resolvedBy === u.user_id;
    const escalated = Number(u.escalated);
    if (sum(own, 'n') === 0 && escalated === 0) return [];
    return [
      {
        userId: u.user_id,
        name: u.name,
        approved: sum((c) => own(c) && c.outcome === 'approve', 'visible'),
        declined: sum((c) => own(c) && c.outcome === 'decline', 'visible'),
        escalated,
        ...rounded(times.byResolver.get(u.user_id) ?? none),
      },
    ];
  });
  return {
    queues,
    analysts,
    disagreements: {
      approvedRejected: disagreement('approve', 'REJECTED'),
      declinedPassed: disagreement('decline', 'PASSED'),
    },
  };
}

const rounded = (p: Percentiles): Percentiles => ({
  p50Seconds: seconds(p.p50Seconds),
  p95Seconds: seconds(p.p95Seconds),
});

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
