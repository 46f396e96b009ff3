import 'server-only';
import { sql } from 'drizzle-orm';
import type { Role } from '@/lib/auth/roles';
import { workedRoles } from '@/lib/cases/policy';
import { db } from '@/lib/db/client';
import { caseQueues, cases, executions, feedbackSubmissions, qaReviews } from '@/lib/db/schema';

/** How many of the person's claimed cases the start page lists (the rest are one link away). */
export const MY_CASES_SHOWN = 8;

export interface MyCase {
  executionId: string;
  queue: string;
  dueAt: Date;
  claimedAt: Date | null;
  decision: string | null;
  overdue: boolean;
}

export interface MyWork {
  /** When it was read (the database's clock): relative times are told from it. */
  asOf: Date;
  claimed: number;
  overdue: number;
  dueSoon: number;
  cases: MyCase[];
  /** Open cases in the queues the person works: what "Next case" draws from. */
  openInMyQueues: number;
  /** QA reviews the person may take (not their own first outcome) or holds. */
  qaWaiting: number;
  /** Labels awaiting four-eyes that the person may decide (managers; not their own). */
  approvalsWaiting: number | null;
  week: { resolved: number; approved: number; declined: number; medianSeconds: number | null };
}

/**
 * The analyst's start page: the person's claimed cases by due time, what waits for them, and
 * their last 7 days. Every figure is counted by the same test the list's filter applies
 * (lib/executions/where.ts), so each link (lib/cases/figures.ts myWorkFigureLinks) lists
 * exactly what the number counts. No personal data of the verified person is read.
 */
export async function getMyWork(user: { id: string; role: Role }): Promise<MyWork> {
  const me = sql`${user.id}::uuid`;
  const manager = user.role !== 'analyst';
  const roles = sql.join(
    workedRoles(user.role).map((r) => sql`${r}`),
    sql`, `,
  );
  const [counts, list] = await Promise.all([
    db().execute<{
      claimed: number;
      overdue: number;
      due_soon: number;
      open_in_my_queues: number;
      qa_waiting: number;
      approvals_waiting: number | null;
      resolved: number;
      approved: number;
      declined: number;
      median_seconds: number | null;
    }>(sql`
      with mine as (
        select due_at from ${cases} where assignee_id = ${me} and state = 'in_review'
      ), week as (
        select outcome, extract(epoch from resolved_at - arrived_at) as took from ${cases}
        where state = 'resolved' and resolved_by = ${me} and resolved_at > now() - interval '7 days'
      )
      select
        (select count(*)::int from mine) as claimed,
        (select count(*)::int from mine where due_at < now()) as overdue,
        (select count(*)::int from mine where due_at < now() + interval '24 hours') as due_soon,
        (select count(*)::int from ${cases} c join ${caseQueues} q on q.id = c.queue_id
          where c.state = 'open' and not q.archived and q.min_role in (${roles})) as open_in_my_queues,
        (select count(*)::int from ${qaReviews} r where r.state in ('open', 'in_review')
          and r.first_analyst_id <> ${me} and (r.assignee_id is null or r.assignee_id = ${me})) as qa_waiting,
        ${
          manager
            ? sql`(select count(*)::int from ${feedbackSubmissions} s
          where s.state = 'awaiting_approval' and s.submitted_by <> ${me})`
            : sql`null::int`
        } as approvals_waiting,
        (select count(*)::int from week) as resolved,
        (select count(*)::int from week where outcome = 'approve') as approved,
        (select count(*)::int from week where outcome = 'decline') as declined,
        (select percentile_cont(0.5) within group (order by took) from week)::float8 as median_seconds`),
    db().execute<{
      execution_id: string;
      queue: string;
      due_at: string;
      claimed_at: string | null;
      decision: string | null;
      overdue: boolean;
      as_of: string;
    }>(sql`
      select c.execution_id, q.name as queue, c.due_at, c.claimed_at, e.decision_type as decision,
        c.due_at < now() as overdue, now() as as_of
      from ${cases} c
      join ${caseQueues} q on q.id = c.queue_id
      join ${executions} e on e.id = c.execution_id
      where c.assignee_id = ${me} and c.state = 'in_review'
      order by c.due_at, c.id
      limit ${MY_CASES_SHOWN}`),
  ]);
  const r = counts.rows[0];
  return {
    asOf: list.rows[0] ? new Date(list.rows[0].as_of) : new Date(0),
    claimed: r.claimed,
    overdue: r.overdue,
    dueSoon: r.due_soon,
    openInMyQueues: r.open_in_my_queues,
    qaWaiting: r.qa_waiting,
    approvalsWaiting: r.approvals_waiting,
    week: {
      resolved: r.resolved,
      approved: r.approved,
      declined: r.declined,
      medianSeconds: r.median_seconds === null ? null : Number(r.median_seconds),
    },
    cases: list.rows.map((c) => ({
      executionId: c.execution_id,
      queue: c.queue,
      dueAt: new Date(c.due_at),
      claimedAt: c.claimed_at ? new Date(c.claimed_at) : null,
      decision: c.decision,
      overdue: c.overdue,
    })),
  };
}
