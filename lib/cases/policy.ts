import 'server-only';
import { sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import type { ActionResult } from '@/lib/auth/guards';
import { hasRole, type Role } from '@/lib/auth/roles';
import { caseEvents, cases } from '@/lib/db/schema';
import type { CaseState, QueueKind } from '@/lib/db/case-states';

/**
 * Who may do what to a case: the one definition. Every write in lib/cases asks `may` under the
 * case's row lock and every read model that shows a case control asks it too (lib/cases/queries.ts
 * `controls`), so a button is shown exactly when its action would be accepted.
 *
 * - A queue's minimum role holds for everything done to its cases: taking, assigning (to oneself,
 *   to a colleague, in bulk), resolving, escalating, reopening and notes. The managers'
 *   Escalations queue is worked by managers only, whatever the entry point.
 * - Whoever escalated a case cannot resolve it: escalating hands the decision to a second person
 *   (four eyes); a self-resolved escalation would make it decoration.
 * - Analysts take unclaimed cases and give back their own; handing a case to someone else, taking
 *   over a colleague's claim or resolving it is for managers, and is recorded (`overrides`: whose
 *   claim it was).
 */

export type CaseAction =
  'claim' | 'assign' | 'assign_other' | 'unassign' | 'bulk_assign' | 'resolve' | 'escalate' | 'reopen' | 'note';

export type QueueRole = 'analyst' | 'manager';

/** What the policy needs to know of a case. */
export interface PolicyCase {
  state: CaseState;
  assigneeId: string | null;
  queue: { name: string; minRole: QueueRole; kind: QueueKind };
  /** Who escalated the case last (the `escalated` event's actor), if it was. */
  escalatedBy: string | null;
}

export interface PolicyActor {
  id: string;
  role: Role;
}

export type CaseDecision =
  | { allowed: true; /** The colleague whose claim this overrides, to record. */ overrides: string | null }
  | { allowed: false; code: 'FORBIDDEN' | 'CONFLICT'; reason: string };

/** Roles whose queues a user works: managers also work the escalation queues. */
export const workedRoles = (role: Role): QueueRole[] =>
  hasRole(role, 'manager') ? ['analyst', 'manager'] : ['analyst'];

const worksQueue = (role: Role, minRole: QueueRole) => workedRoles(role).includes(minRole);

const VERB: Record<CaseAction, string> = {
  claim: 'take',
  assign: 'take',
  assign_other: 'assign',
  unassign: 'change the assignment of',
  bulk_assign: 'take',
  resolve: 'resolve',
  escalate: 'escalate',
  reopen: 'reopen',
  note: 'add notes to',
};

const ROLE_PLURAL: Record<QueueRole, string> = { analyst: 'analysts', manager: 'managers' };

const allow = (overrides: string | null = null): CaseDecision => ({ allowed: true, overrides });
const refuse = (reason: string, code: 'FORBIDDEN' | 'CONFLICT' = 'FORBIDDEN'): CaseDecision => ({
  allowed: false,
  code,
  reason,
});

/**
 * Whether `actor` may do `action` to the case. `to` is the assignee of an assignment (null:
 * nobody), with the role they hold.
 */
export function may(
  actor: PolicyActor,
  action: CaseAction,
  c: PolicyCase,
  opts: { to?: PolicyActor | null } = {},
): CaseDecision {
  const manages = hasRole(actor.role, 'manager');
  if (!worksQueue(actor.role, c.queue.minRole))
    return refuse(
      `This case is in ${c.queue.name}, a queue for ${ROLE_PLURAL[c.queue.minRole]}: only a ${c.queue.minRole} may ${VERB[action]} it.`,
    );
  const heldByOther = c.assigneeId && c.assigneeId !== actor.id ? c.assigneeId : null;
  switch (action) {
    case 'note':
      return allow();
    case 'reopen':
      if (!manages) return refuse('Only a manager may reopen a case.');
      if (c.state !== 'resolved') return refuse('Only a resolved case can be reopened.', 'CONFLICT');
      return allow();
    case 'claim':
      if (c.state !== 'open') return refuse('This case is not open to take.', 'CONFLICT');
      return allow();
    case 'resolve':
    case 'escalate':
      if (c.state === 'resolved') return refuse('This case is already resolved.', 'CONFLICT');
      if (heldByOther && !manages)
        return refuse(`Someone else has claimed this case; only a manager may ${VERB[action]} it.`);
      if (action === 'escalate' && c.queue.kind === 'escalation')
        return refuse('This case is already escalated.', 'CONFLICT');
      if (action === 'resolve' && c.escalatedBy === actor.id)
        return refuse('You escalated this case, so another manager must resolve it (four eyes).');
      return allow(heldByOther);
    case 'assign':
    case 'bulk_assign':
    case 'unassign':
    case 'assign_other': {
      if (c.state === 'resolved') return refuse('This case is resolved; reopen it first.', 'CONFLICT');
      const to = action === 'unassign' ? null : action === 'assign_other' ? (opts.to ?? null) : actor;
      if (to && to.id !== actor.id) {
        if (!manages) return refuse('Only a manager may assign a case to someone else.');
        if (!worksQueue(to.role, c.queue.minRole))
          return refuse(
            `${c.queue.name} is a queue for ${ROLE_PLURAL[c.queue.minRole]}: assign this case to a ${c.queue.minRole}.`,
          );
      }
      if (heldByOther && heldByOther !== to?.id && !manages)
        return refuse('Someone else has claimed this case; only a manager may take it over.');
      return allow(heldByOther && heldByOther !== to?.id ? heldByOther : null);
    }
  }
}

/** Who escalated the case last, as a column of a select over `cases` (case_events_case_idx answers it). */
export const escalatedBySql = sql<string | null>`(select ${caseEvents.actorId} from ${caseEvents}
  where ${caseEvents.caseId} = ${cases.id} and ${caseEvents.type} = 'escalated'
  order by ${caseEvents.at} desc, ${caseEvents.id} desc limit 1)`;

/** A refusal by the policy, thrown inside a write's transaction so that everything rolls back. */
export class CaseRefused extends Error {
  constructor(
    readonly action: CaseAction,
    readonly reason: string,
    readonly code: 'FORBIDDEN' | 'CONFLICT',
    readonly target: { caseId?: string; executionId?: string; caseIds?: string[] },
  ) {
    super(reason);
  }
}

/** Asks the policy; a refusal is thrown (see `policed`). Returns whose claim an allowed action overrides. */
export function enforce(
  actor: PolicyActor,
  action: CaseAction,
  c: PolicyCase & { id: string; executionId: string },
  opts: { to?: PolicyActor | null } = {},
): string | null {
  const d = may(actor, action, c, opts);
  if (!d.allowed) throw new CaseRefused(action, d.reason, d.code, { caseId: c.id, executionId: c.executionId });
  return d.overrides;
}

/**
 * Runs a case write; a policy refusal thrown inside it (after its transaction rolled back) becomes
 * the result, and a forbidden one is audited as `access.denied` like every other denial, in its
 * own statement once nothing else holds the connection.
 */
export async function policed<T>(
  actor: PolicyActor & { email: string },
  write: () => Promise<ActionResult<T>>,
): Promise<ActionResult<T>> {
  try {
    return await write();
  } catch (err) {
    if (!(err instanceof CaseRefused)) throw err;
    if (err.code === 'FORBIDDEN')
      await audit({
        action: 'access.denied',
        actor,
        outcome: 'denied',
        targetType: err.target.executionId ? 'execution' : undefined,
        targetId: err.target.executionId,
        details: { action: `case.${err.action}`, rule: 'case-policy', reason: err.reason, ...err.target },
      });
    return { ok: false, code: err.code, error: err.reason };
  }
}
