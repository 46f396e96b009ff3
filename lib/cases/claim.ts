import 'server-only';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { audit, auditSelectSql } from '@/lib/audit';
import type { ActionResult } from '@/lib/auth/guards';
import { hasRole, type Role } from '@/lib/auth/roles';
import { db, type DbOrTx, type Tx } from '@/lib/db/client';
import { inTx } from '@/lib/db/tx';
import { notify } from '@/lib/notifications/notify';
import { caseEvents, caseQueues, cases, users } from '@/lib/db/schema';
import { CaseRefused, enforce, escalatedBySql, may, policed, workedRoles, type PolicyCase } from './policy';

/**
 * Who works which case: "next case", assignment and the return of forgotten claims.
 *
 * "Next case" is one UPDATE whose row comes from `FOR UPDATE SKIP LOCKED`: two callers at the
 * same instant lock different rows, and a row changed by a committed claim is re-checked against
 * `state = 'open'` before it is taken, so a case is never claimed twice. Queues are tried in
 * priority order within that statement, each read through the partial index (queue, due, id) of
 * open cases.
 */

export interface CaseUser {
  id: string;
  email: string;
  role: Role;
}

/** CASE_CLAIM_MINUTES (lib/env/index.ts, default 30), read without validating the whole configuration. */
export function claimMinutes(): number {
  const n = Number(process.env.CASE_CLAIM_MINUTES);
  return Number.isInteger(n) && n >= 1 ? n : 30;
}

const invalid = (error: string, field?: string) =>
  ({ ok: false, code: 'INVALID', error, ...(field ? { fieldErrors: { [field]: [error] } } : {}) }) as const;
const conflict = (error: string) => ({ ok: false, code: 'CONFLICT', error }) as const;

/** Every write of a case moves its version on (what a form's stale check compares) and its updated_at. */
export const nextCaseVersion = () => ({ version: sql`${cases.version} + 1`, updatedAt: sql`now()` });

export const STALE_MESSAGE = 'This case changed since you opened it. Reload to see the change; nothing was saved.';

/** Queues a role works, in claim order. */
export async function workedQueueIds(d: DbOrTx, role: Role, only?: string): Promise<string[]> {
  const rows = await d
    .select({ id: caseQueues.id })
    .from(caseQueues)
    .where(
      and(
        eq(caseQueues.archived, false),
        inArray(caseQueues.minRole, workedRoles(role)),
        ...(only ? [eq(caseQueues.id, only)] : []),
      ),
    )
    .orderBy(asc(caseQueues.priority), asc(caseQueues.sortOrder), asc(caseQueues.id));
  return rows.map((r) => r.id);
}

export interface ClaimedCase {
  caseId: string;
  executionId: string;
  queueId: string;
}

/**
 * How often one process returns forgotten claims before a "next case" (the worker also does it
 * every minute). Running it before every claim cost a statement per claim for a sweep that
 * finds nothing nearly always (scripts/bench-cases.ts).
 */
const RELEASE_EVERY_MS = 15_000;
let lastRelease = 0;

/**
 * Claims the next case of the user's queues (or of one queue): the earliest due open case of the
 * highest-priority queue that has one. Null when every queue is empty.
 *
 * One statement finds and takes it: the user's queues in claim order, each asked through the
 * partial index (queue, due, id) of open cases for its first row it can lock (`SKIP LOCKED`),
 * the nested loop stopping at the first queue that yields one. The case, its event and the audit
 * entry are written by that same statement, so they commit together in one round trip.
 */
export async function claimNextCase(
  user: CaseUser,
  opts: { queueId?: string } = {},
  d = db(),
): Promise<ActionResult<ClaimedCase | null>> {
  if (opts.queueId && !(await workedQueueIds(d, user.role, opts.queueId)).length)
    return invalid('Unknown queue, or not one you work.', 'queueId');
  if (Date.now() - lastRelease > RELEASE_EVERY_MS) {
    lastRelease = Date.now();
    await releaseExpiredClaims(d);
  }
  const roles = workedRoles(user.role);
  const entry = await auditSelectSql({
    action: 'case.claim',
    actor: user,
    targetType: 'execution',
    targetId: sql`execution_id::text`,
    details: sql`jsonb_build_object('caseId', id, 'queueId', queue_id)`,
    from: sql`picked`,
  });
  const rows = await d.execute<{ id: string; execution_id: string; queue_id: string }>(sql`
    with picked as (
      update ${cases} set state = 'in_review', assignee_id = ${user.id}, claimed_at = now(),
        version = version + 1, updated_at = now()
      where id = (
        select c.id
        from (
          select id from ${caseQueues}
          where not archived and min_role in (${sql.join(
            roles.map((r) => sql`${r}`),
            sql`, `,
          )})${opts.queueId ? sql` and id = ${opts.queueId}` : sql``}
          order by priority, sort_order, id
        ) q
        cross join lateral (
          select id from ${cases} where queue_id = q.id and state = 'open'
          order by due_at, id limit 1 for update skip locked
        ) c
        limit 1
      ) and state = 'open'
      returning id, execution_id, queue_id
    ), ev as (
      insert into ${caseEvents} (case_id, execution_id, type, actor_id, queue_id, assignee_id)
      select id, execution_id, 'claimed', ${user.id}::uuid, queue_id, ${user.id}::uuid from picked
    ), entry as (${entry})
    select id, execution_id, queue_id from picked`);
  const row = rows.rows[0];
  const claimed = row ? { caseId: row.id, executionId: row.execution_id, queueId: row.queue_id } : null;
  if (claimed) return { ok: true, data: claimed };
  return { ok: true, data: null, message: 'No open cases in your queues.' };
}

/**
 * Claims untouched for CASE_CLAIM_MINUTES go back to their queue (a `released` event each). Run
 * before every "next case" and every minute by the worker; skips rows someone holds right now.
 */
export async function releaseExpiredClaims(db: DbOrTx, minutes = claimMinutes()): Promise<number> {
  const rows = await db.execute<{ id: string }>(sql`
    with expired as (
      select id from ${cases} where state = 'in_review' and claimed_at < now() - make_interval(mins => ${minutes})
      order by claimed_at limit 500 for update skip locked
    ), released as (
      update ${cases} c set state = 'open', assignee_id = null, claimed_at = null, version = c.version + 1,
        updated_at = now()
      from expired e where c.id = e.id
      returning c.id, c.execution_id, c.queue_id
    ), ev as (
      insert into ${caseEvents} (case_id, execution_id, type, queue_id, details)
      select id, execution_id, 'released', queue_id, jsonb_build_object('afterMinutes', ${minutes}::int) from released
    )
    select id from released`);
  return rows.rows.length;
}

export type LockedCase = PolicyCase & {
  id: string;
  executionId: string;
  queueId: string;
  version: number;
};

/** The columns the policy (./policy.ts) reads, with the case's own, for a select over `cases` joined to its queue. */
const policyColumns = {
  id: cases.id,
  executionId: cases.executionId,
  queueId: cases.queueId,
  state: cases.state,
  assigneeId: cases.assigneeId,
  version: cases.version,
  queueName: caseQueues.name,
  queueMinRole: caseQueues.minRole,
  queueKind: caseQueues.kind,
  escalatedBy: escalatedBySql,
};

const toLocked = ({
  queueName,
  queueMinRole,
  queueKind,
  ...r
}: {
  id: string;
  executionId: string;
  queueId: string;
  state: LockedCase['state'];
  assigneeId: string | null;
  version: number;
  queueName: string;
  queueMinRole: string;
  queueKind: LockedCase['queue']['kind'];
  escalatedBy: string | null;
}): LockedCase => ({
  ...r,
  queue: { name: queueName, minRole: queueMinRole === 'manager' ? 'manager' : 'analyst', kind: queueKind },
});

/** Records an event of the case `c` by `actor`, in the queue the case is in before the event. */
export function recordCaseEvent(
  tx: Tx,
  c: Pick<LockedCase, 'id' | 'executionId' | 'queueId'>,
  actor: { id: string },
  event: Omit<typeof caseEvents.$inferInsert, 'caseId' | 'executionId' | 'actorId' | 'queueId'>,
) {
  return tx
    .insert(caseEvents)
    .values({ caseId: c.id, executionId: c.executionId, actorId: actor.id, queueId: c.queueId, ...event });
}

/** The case under its row lock, with what the policy needs to know of it. */
export async function lockCase(tx: Tx, caseId: string): Promise<LockedCase | undefined> {
  const [c] = await tx
    .select(policyColumns)
    .from(cases)
    .innerJoin(caseQueues, eq(caseQueues.id, cases.queueId))
    .where(eq(cases.id, caseId))
    .for('update', { of: cases });
  return c ? toLocked(c) : undefined;
}

/** The case of an execution with what the policy needs, unlocked (notes), or undefined when it has none. */
export async function caseOfExecution(d: DbOrTx, executionId: string): Promise<LockedCase | undefined> {
  const [c] = await d
    .select(policyColumns)
    .from(cases)
    .innerJoin(caseQueues, eq(caseQueues.id, cases.queueId))
    .where(eq(cases.executionId, executionId));
  return c ? toLocked(c) : undefined;
}

/** An active user to assign to, or null. */
async function activeUser(tx: Tx, id: string) {
  const [u] = await tx
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(and(eq(users.id, id), eq(users.active, true)));
  return u ?? null;
}

/**
 * Assigns one case to the user (`me`), to a colleague, or to nobody, as the case policy allows
 * (./policy.ts: the queue's role, whose claim it is); a refusal writes nothing and is audited.
 */
export async function assignCase(
  actor: CaseUser,
  input: { caseId: string; version?: number; assignee?: string },
  within: DbOrTx = db(),
): Promise<ActionResult<{ version: number; assigneeId: string | null }>> {
  const run = async (tx: Tx) => {
    const c = await lockCase(tx, input.caseId);
    if (!c) return invalid('Unknown case.', 'caseId');
    if (input.version !== undefined && c.version !== input.version) return conflict(STALE_MESSAGE);
    const to = input.assignee === 'me' ? actor.id : (input.assignee ?? null);
    const other = to && to !== actor.id ? to : null;
    const target = other ? await activeUser(tx, other) : null;
    if (other && !target && hasRole(actor.role, 'manager')) return invalid('Unknown user.', 'assignee');
    const tookFrom = enforce(actor, !to ? 'unassign' : other ? 'assign_other' : 'assign', c, {
      to: target ?? (other ? { id: other, role: 'analyst' } : null),
    });
    if (c.assigneeId === to) return { ok: true as const, data: { version: c.version, assigneeId: to } };
    const [after] = await tx
      .update(cases)
      .set(
        to
          ? {
              state: 'in_review',
              assigneeId: to,
              claimedAt: sql`now()`,
              ...nextCaseVersion(),
            }
          : {
              state: 'open',
              assigneeId: null,
              claimedAt: null,
              ...nextCaseVersion(),
            },
      )
      .where(eq(cases.id, c.id))
      .returning({ version: cases.version });
    const details = { caseId: c.id, from: c.assigneeId, to };
    await recordCaseEvent(tx, c, actor, {
      type: to ? 'assigned' : 'unassigned',
      assigneeId: to,
      details: tookFrom ? { tookFrom } : null,
    });
    await audit(
      {
        action: to ? 'case.assign' : 'case.unassign',
        actor,
        targetType: 'execution',
        targetId: c.executionId,
        details,
      },
      tx,
    );
    // Taking a case oneself tells nobody; being handed one is what the assignee must hear of.
    if (other)
      await notify(tx, {
        kind: 'assigned',
        to: [other],
        actorId: actor.id,
        executionId: c.executionId,
        caseId: c.id,
        onceKey: `assigned:${c.id}:${after.version}`,
        details: { queue: c.queue.name },
      });
    return { ok: true as const, data: { version: after.version, assigneeId: to } };
  };
  // Inside a caller's transaction (bulk assignment) a refusal rolls the caller back: it audits.
  return 'rollback' in within ? inTx(within, run) : policed(actor, () => inTx(within, run));
}

/** How many refused cases a bulk refusal names before "and N more". */
const NAMED_REFUSALS = 5;

/**
 * Assigns the cases of a list selection. The policy is asked for every case first: when it
 * refuses any, the whole batch is refused with the cases named and why, and nothing is written.
 * Executions without an open case are counted apart.
 */
export async function bulkAssignCases(
  actor: CaseUser,
  input: { executionIds: string[]; assignee: string },
): Promise<ActionResult<{ assigned: number; skipped: number }>> {
  const to = input.assignee === 'me' ? actor.id : input.assignee;
  return policed(actor, () =>
    db().transaction(async (tx) => {
      if (to !== actor.id && !hasRole(actor.role, 'manager'))
        throw new CaseRefused('assign_other', 'Only a manager may assign cases to someone else.', 'FORBIDDEN', {});
      const target = to !== actor.id ? await activeUser(tx, to) : { id: actor.id, role: actor.role };
      if (!target) return invalid('Unknown user.', 'assignee');
      const rows = (
        await tx
          .select(policyColumns)
          .from(cases)
          .innerJoin(caseQueues, eq(caseQueues.id, cases.queueId))
          .where(and(inArray(cases.executionId, input.executionIds), sql`${cases.state} <> 'resolved'`))
          .orderBy(asc(cases.id))
      ).map(toLocked);
      const refused = rows.flatMap((c) => {
        const d = may(actor, to === actor.id ? 'bulk_assign' : 'assign_other', c, { to: target });
        return d.allowed ? [] : [{ c, reason: d.reason }];
      });
      if (refused.length) {
        const named = refused
          .slice(0, NAMED_REFUSALS)
          .map((r) => `${r.c.executionId.slice(0, 8)} (${r.reason})`)
          .join('; ');
        const more = refused.length > NAMED_REFUSALS ? `; and ${refused.length - NAMED_REFUSALS} more` : '';
        throw new CaseRefused(
          'bulk_assign',
          `Nothing was assigned: ${refused.length} of the selected cases may not be assigned this way: ${named}${more}.`,
          'FORBIDDEN',
          { caseIds: refused.map((r) => r.c.id) },
        );
      }
      let assigned = 0;
      for (const r of rows) {
        const out = await assignCase(actor, { caseId: r.id, assignee: input.assignee }, tx);
        if (out.ok) assigned++;
      }
      return {
        ok: true as const,
        data: { assigned, skipped: input.executionIds.length - assigned },
        message: `${assigned} assigned${input.executionIds.length - assigned ? `, ${input.executionIds.length - assigned} without an open case` : ''}.`,
      };
    }),
  );
}
